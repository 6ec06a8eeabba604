// /rewind of InteractiveSession (see interactive_session.hpp): the session's prompts, what to
// restore, and files changed by hand, each a picker; the work is RunSession's (rewind.hpp).

#include "app/interactive_session.hpp"

namespace nib::app {
namespace {

// "3  "fix the parser"  2 files: a.c (+2 -1), b.c (new)".
std::string point_entry(std::size_t number, const RewindPoint& point) {
  return std::to_string(number) + "  \"" + prompt_headline(point.prompt, 50) + "\"  " +
         (point.changes.empty() ? "no files changed" : describe_changes(point.changes));
}

}  // namespace

void InteractiveSession::open_rewind_picker() {
  if (working_) {
    return notice("/rewind waits until the run has finished (esc interrupts it).",
                  ui::NoticeKind::kWarning);
  }
  auto points = session_->rewind_points();
  if (!points.ok()) return notice("Cannot rewind: " + points.error(), ui::NoticeKind::kError);
  if (points.value().empty()) return notice("No prompt to go back to yet.");
  std::vector<std::string> entries;
  for (std::size_t at = 0; at < points.value().size(); ++at) {
    entries.push_back(point_entry(at + 1, points.value()[at]));
  }
  const std::size_t newest = entries.size() - 1;
  open_picker({"Go back to before which prompt? (each with the files its turn changed)",
               std::move(entries), newest},
              [this, points = std::move(points.value())](std::size_t index) {
                choose_rewind_scope(points[index]);
              });
}

void InteractiveSession::choose_rewind_scope(RewindPoint point) {
  static const std::vector<std::pair<std::string, RewindScope>> kScopes{
      {"Restore the code and the conversation", RewindScope::kBoth},
      {"Restore the conversation (the files stay as they are)", RewindScope::kConversation},
      {"Restore the code (the conversation stays)", RewindScope::kCode}};
  std::vector<std::string> entries;
  for (const auto& scope : kScopes) entries.push_back(scope.first);
  open_picker(
      {"Before \"" + prompt_headline(point.prompt) + "\": restore what?", std::move(entries), 0},
      [this, point = std::move(point)](std::size_t index) {
        rewind_to({point, kScopes[index].second, HandChanges::kRefuse});
      });
}

void InteractiveSession::rewind_to(RewindRequest request) {
  auto outcome = session_->rewind(request);
  if (!outcome.ok()) return notice("Cannot rewind: " + outcome.error(), ui::NoticeKind::kError);
  if (!outcome.value().done) {
    std::string files;
    for (const std::string& path : outcome.value().hand_changed) files += "\n  " + path;
    notice("You changed these files by hand since; the restore would overwrite them:" + files,
           ui::NoticeKind::kWarning);
    return open_picker({"Files changed by hand",
                        {"Keep my changes, restore the rest", "Restore them too", "Cancel"},
                        0},
                       [this, request](std::size_t index) {
                         if (index == 2) return notice("Nothing was restored.");
                         RewindRequest again = request;
                         again.hand_changes =
                             index == 0 ? HandChanges::kKeep : HandChanges::kOverwrite;
                         rewind_to(std::move(again));
                       });
  }
  std::string text;
  if (request.scope != RewindScope::kConversation) {
    text = "Restored " +
           (outcome.value().restored.empty() ? std::string("nothing (no file had changed)")
                                             : describe_changes(outcome.value().restored)) +
           ". The files as they were are checkpoint " +
           outcome.value().undo_checkpoint.substr(0, 12) + " (nib rewind --checkpoint " +
           outcome.value().undo_checkpoint + " takes this back).";
  }
  if (request.scope != RewindScope::kCode) {
    transcript_.clear();
    reflow();
    show_loaded_history();
    // The prompt rewound to comes back to the editor, to change and send again.
    controller_.set_editor_text(request.point.prompt);
    text += std::string(text.empty() ? "" : " ") + "The conversation goes on from before \"" +
            prompt_headline(request.point.prompt) + "\".";
  }
  notice(std::move(text));
}

}  // namespace nib::app
