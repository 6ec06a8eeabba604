#include "app/rewind.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "util/utf8.hpp"

namespace nib::app {
namespace {

// What the user typed: the prompt's last text block (notices for the model come before it).
std::string prompt_text(const core::Message& message) {
  const auto* user = std::get_if<core::UserMessage>(&message);
  if (user == nullptr) return {};
  for (auto block = user->content.rbegin(); block != user->content.rend(); ++block) {
    if (const auto* text = std::get_if<core::TextBlock>(&*block)) return text->text;
  }
  return core::content_text(user->content);
}

// The paths `changes` name.
std::set<std::string> paths_of(const std::vector<session::FileChange>& changes) {
  std::set<std::string> paths;
  for (const session::FileChange& change : changes) paths.insert(change.path);
  return paths;
}

// Where `point`'s checkpoint is among the checkpoints in force; npos when it is not there.
std::size_t position_of(const session::LoadedSession& loaded, const RewindPoint& point) {
  for (std::size_t at = 0; at < loaded.checkpoints.size(); ++at) {
    const session::CheckpointEntry& entry = loaded.checkpoints[at];
    if (!entry.turn_end && entry.message_index == point.message_index &&
        entry.id == point.checkpoint) {
      return at;
    }
  }
  return std::string::npos;
}

// The files changed by hand since checkpoint number `from` of the checkpoints in force: between
// each run's end and the checkpoint after it (the next prompt's, or `now`).
util::Result<std::set<std::string>> hand_changed_since(const session::LoadedSession& loaded,
                                                       const session::CheckpointStore& store,
                                                       std::size_t from, const std::string& now) {
  std::set<std::string> changed;
  for (std::size_t at = from; at < loaded.checkpoints.size(); ++at) {
    if (!loaded.checkpoints[at].turn_end) continue;
    const std::string& next =
        at + 1 < loaded.checkpoints.size() ? loaded.checkpoints[at + 1].id : now;
    auto changes = store.changes(loaded.checkpoints[at].id, next);
    if (!changes.ok()) return util::Result<std::set<std::string>>::failure(changes.error());
    changed.merge(paths_of(changes.value()));
  }
  return changed;
}

std::string quoted_prompt(const std::string& prompt) {
  return "\"" + prompt_headline(prompt, 80) + "\"";
}

std::string note_for(const RewindRequest& request, const RewindOutcome& outcome,
                     const std::vector<session::FileChange>& left) {
  const std::string prompt = quoted_prompt(request.point.prompt);
  std::string note = "[nib] ";
  switch (request.scope) {
    case RewindScope::kCode:
      note += "The user restored the files to their state before the prompt " + prompt +
              " (the conversation was kept): " +
              (outcome.restored.empty() ? std::string("nothing had changed since.")
                                        : "undone in " + describe_changes(outcome.restored) +
                                              ". What this conversation did after that prompt is "
                                              "no longer in those files; read them again before "
                                              "relying on it.");
      break;
    case RewindScope::kConversation:
      note +=
          "The user rewound the conversation to before this prompt; the files were not "
          "restored" +
          (left.empty() ? std::string(".")
                        : ": they still hold what the rewound part changed, in " +
                              describe_changes(left) + ". Read them before relying on them.");
      break;
    case RewindScope::kBoth:
      note +=
          "The user rewound the conversation to before this prompt and restored the files "
          "to their state at this point" +
          (outcome.restored.empty() ? std::string(".")
                                    : " (undone in " + describe_changes(outcome.restored) + ").");
      break;
  }
  if (!outcome.hand_changed.empty()) {
    std::string kept;
    for (const std::string& path : outcome.hand_changed) kept += (kept.empty() ? "" : ", ") + path;
    note += request.hand_changes == HandChanges::kKeep
                ? " Files the user had changed by hand were kept as they were: " + kept + "."
                : " Files the user had changed by hand were restored too: " + kept + ".";
  }
  return note;
}

}  // namespace

util::Result<std::vector<RewindPoint>> rewind_points(const session::LoadedSession& loaded,
                                                     const session::CheckpointStore& store,
                                                     const std::string& now) {
  using Result = util::Result<std::vector<RewindPoint>>;
  std::vector<RewindPoint> points;
  const auto& checkpoints = loaded.checkpoints;
  for (std::size_t at = 0; at < checkpoints.size(); ++at) {
    const session::CheckpointEntry& entry = checkpoints[at];
    if (entry.turn_end || entry.message_index >= loaded.messages.size() ||
        !std::holds_alternative<core::UserMessage>(loaded.messages[entry.message_index])) {
      continue;
    }
    // Two checkpoints for one prompt (a run resumed after a crash): the later one counts.
    if (!points.empty() && points.back().message_index == entry.message_index) points.pop_back();
    RewindPoint point{
        entry.message_index, prompt_text(loaded.messages[entry.message_index]), entry.id, {}};
    const std::string& end = at + 1 < checkpoints.size() ? checkpoints[at + 1].id : now;
    auto changes = store.changes(entry.id, end);
    if (!changes.ok()) return Result::failure(changes.error());
    point.changes = std::move(changes.value());
    points.push_back(std::move(point));
  }
  return points;
}

util::Result<RewindOutcome> rewind(const session::LoadedSession& loaded,
                                   session::CheckpointStore& store,
                                   session::SessionRecorder& recorder, const std::string& now,
                                   const RewindRequest& request) {
  using Result = util::Result<RewindOutcome>;
  RewindOutcome outcome;
  const RewindPoint& point = request.point;
  auto since = store.changes(point.checkpoint, now);
  if (!since.ok()) return Result::failure(since.error());
  if (request.scope != RewindScope::kConversation) {
    const std::size_t position = position_of(loaded, point);
    if (position == std::string::npos) {
      return Result::failure("the session has no checkpoint " + point.checkpoint +
                             " before that prompt");
    }
    auto by_hand = hand_changed_since(loaded, store, position, now);
    if (!by_hand.ok()) return Result::failure(by_hand.error());
    for (const std::string& path : paths_of(since.value())) {
      if (by_hand.value().contains(path)) outcome.hand_changed.push_back(path);
    }
    if (!outcome.hand_changed.empty() && request.hand_changes == HandChanges::kRefuse) {
      return outcome;
    }
    const std::vector<std::string> keep = request.hand_changes == HandChanges::kKeep
                                              ? outcome.hand_changed
                                              : std::vector<std::string>{};
    auto before = store.restore(point.checkpoint, keep);
    if (!before.ok()) return Result::failure(before.error());
    outcome.undo_checkpoint = before.value().id;
    for (session::FileChange& change : since.value()) {
      if (std::find(keep.begin(), keep.end(), change.path) == keep.end()) {
        outcome.restored.push_back(std::move(change));
      }
    }
  }
  outcome.note = note_for(request, outcome, since.value());
  if (request.scope == RewindScope::kCode) {
    recorder.record_rewind(std::nullopt, outcome.note);
  } else {
    recorder.record_rewind(point.message_index, outcome.note);
  }
  outcome.done = true;
  return outcome;
}

std::string prompt_headline(const std::string& prompt, std::size_t max_bytes) {
  const std::string_view line = std::string_view(prompt).substr(0, prompt.find('\n'));
  if (line.size() <= max_bytes) return std::string(line);
  return std::string(line.substr(0, util::utf8_prefix_length(line, max_bytes - 3))) + "...";
}

std::string describe_changes(const std::vector<session::FileChange>& changes) {
  constexpr std::size_t kNamed = 10;
  std::string text = std::to_string(changes.size()) + (changes.size() == 1 ? " file" : " files");
  for (std::size_t at = 0; at < changes.size() && at < kNamed; ++at) {
    const session::FileChange& change = changes[at];
    text += (at == 0 ? ": " : ", ") + change.path;
    switch (change.kind) {
      case session::FileChange::Kind::kAdded:
        text += " (new)";
        break;
      case session::FileChange::Kind::kDeleted:
        text += " (deleted)";
        break;
      case session::FileChange::Kind::kModified:
        text += change.binary ? " (binary)"
                              : " (+" + std::to_string(change.added_lines) + " -" +
                                    std::to_string(change.removed_lines) + ")";
        break;
    }
  }
  if (changes.size() > kNamed) text += ", and " + std::to_string(changes.size() - kNamed) + " more";
  return text;
}

}  // namespace nib::app
