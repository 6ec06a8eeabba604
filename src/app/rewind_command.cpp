#include "app/rewind_command.hpp"

#include "app/rewind.hpp"
#include "app/tree_checkpoints.hpp"
#include "session/checkpoint_store.hpp"
#include "session/session_recorder.hpp"
#include "session/session_store.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

std::string megabytes(std::uint64_t bytes) {
  return std::to_string((bytes + 512 * 1024) / (1024 * 1024)) + " MB";
}

// "  3  "fix the parser"  2 files: a.c (+2 -1), b.c (new)".
void list_points(const std::vector<RewindPoint>& points, std::ostream& out) {
  for (std::size_t at = 0; at < points.size(); ++at) {
    out << "  " << at + 1 << "  \"" << prompt_headline(points[at].prompt) << "\"  "
        << (points[at].changes.empty() ? "no files changed" : describe_changes(points[at].changes))
        << '\n';
  }
}

}  // namespace

int run_rewind_command(const RewindArgs& args, const util::UserPlaces& places, const fs::path& cwd,
                       std::uint64_t max_store_bytes, std::ostream& out, std::ostream& err) {
  const auto fail = [&err](const std::string& message, int status = 1) {
    err << "nib rewind: " << message << '\n';
    return status;
  };
  const auto sessions = session::SessionStore::for_user(places);
  if (!sessions.ok()) return fail(sessions.error());
  auto file =
      args.session ? sessions.value().find(cwd, *args.session) : sessions.value().latest(cwd);
  if (!file.ok()) return fail(file.error());
  auto loaded = session::load_session(file.value());
  if (!loaded.ok()) return fail(loaded.error());
  // The session's own tree: a session found by id may belong to another directory.
  const fs::path tree = loaded.value().header.cwd;
  const fs::path store_dir = session::checkpoint_store_dir(places, tree);
  std::error_code missing;
  if (store_dir.empty() || !fs::exists(store_dir / "HEAD", missing)) {
    return fail("no checkpoints of " + tree.string() + " (expected in " + store_dir.string() +
                "); nothing can be restored, and nothing was changed");
  }
  auto store = session::CheckpointStore::open(store_dir, tree, TreeCheckpoints::left_out(places));
  if (!store.ok()) return fail(store.error() + "; nothing was changed");

  if (args.collect_garbage) {
    auto collected = store.value().collect_garbage(max_store_bytes);
    if (!collected.ok()) return fail(collected.error());
    out << "Checkpoints of " << tree.string() << ": " << megabytes(collected.value().bytes_after)
        << " (cap " << megabytes(max_store_bytes) << ")";
    if (collected.value().dropped_checkpoints > 0) {
      out << "; dropped the " << collected.value().dropped_checkpoints << " oldest, from "
          << megabytes(collected.value().bytes_before);
    }
    out << ".\n";
    return 0;
  }
  if (args.checkpoint) {
    auto before = store.value().restore(*args.checkpoint);
    if (!before.ok()) return fail(before.error());
    out << "Restored the files of " << tree.string() << " to checkpoint " << *args.checkpoint
        << ". The files as they were are checkpoint " << before.value().id
        << ": nib rewind --checkpoint " << before.value().id << " takes this back.\n";
    return 0;
  }

  auto now = store.value().take("nib rewind");
  if (!now.ok()) return fail(now.error());
  auto points = rewind_points(loaded.value(), store.value(), now.value().id);
  if (!points.ok()) return fail(points.error());
  const std::string name = file.value().filename().string();
  if (points.value().empty()) {
    out << "Session " << name << " has no prompts with checkpoints to go back to.\n";
    return args.prompt || args.show ? 1 : 0;
  }
  const auto point_at = [&](std::size_t number) -> const RewindPoint* {
    return number >= 1 && number <= points.value().size() ? &points.value()[number - 1] : nullptr;
  };
  if (args.show) {
    const RewindPoint* point = point_at(*args.show);
    if (point == nullptr) {
      return fail("no prompt " + std::to_string(*args.show) + "; the session has " +
                      std::to_string(points.value().size()),
                  2);
    }
    const std::size_t next = *args.show;  // the index of the point after it
    const std::string& end =
        next < points.value().size() ? points.value()[next].checkpoint : now.value().id;
    auto diff = store.value().diff_text(point->checkpoint, end);
    if (!diff.ok()) return fail(diff.error());
    out << diff.value();
    return 0;
  }
  if (!args.prompt) {
    out << "Session " << name << " (" << tree.string() << "), its prompts and the files each "
        << "turn changed:\n";
    list_points(points.value(), out);
    out << "Go back to before prompt N with: nib rewind N (the files and the conversation; "
           "--code or --conversation for one), see a turn with: nib rewind --show N\n";
    return 0;
  }
  const RewindPoint* point = point_at(*args.prompt);
  if (point == nullptr) {
    return fail("no prompt " + std::to_string(*args.prompt) + "; the session has " +
                    std::to_string(points.value().size()),
                2);
  }
  auto writer = session::SessionWriter::open_existing(file.value());
  if (!writer.ok()) return fail(writer.error());
  std::error_code size_error;
  if (fs::file_size(file.value(), size_error) != loaded.value().complete_bytes) {
    return fail("the session " + file.value().string() +
                " changed while nib rewind read it (a nib is using it); nothing was changed");
  }
  session::SessionRecorder recorder(std::move(writer.value()), loaded.value().messages.size());
  RewindRequest request{*point,
                        args.code_only           ? RewindScope::kCode
                        : args.conversation_only ? RewindScope::kConversation
                                                 : RewindScope::kBoth,
                        args.overwrite_hand_changes ? HandChanges::kOverwrite
                        : args.keep_hand_changes    ? HandChanges::kKeep
                                                    : HandChanges::kRefuse};
  auto outcome = rewind(loaded.value(), store.value(), recorder, now.value().id, request);
  if (!outcome.ok()) return fail(outcome.error());
  if (!outcome.value().done) {
    std::string files;
    for (const std::string& path : outcome.value().hand_changed) files += "\n  " + path;
    return fail("these files were changed by hand since prompt " + std::to_string(*args.prompt) +
                " and would be overwritten:" + files +
                "\nNothing was changed. Add --force to restore them too, or --keep-hand-changes "
                "to leave them as they are.");
  }
  if (!recorder.write_error().empty()) return fail(recorder.write_error());
  if (request.scope != RewindScope::kConversation) {
    out << "Restored "
        << (outcome.value().restored.empty() ? std::string("nothing (no file had changed)")
                                             : describe_changes(outcome.value().restored))
        << " to before prompt " << *args.prompt << ". The files as they were are checkpoint "
        << outcome.value().undo_checkpoint << ": nib rewind --checkpoint "
        << outcome.value().undo_checkpoint << " takes this back.\n";
  }
  if (request.scope != RewindScope::kCode) {
    out << "The conversation goes on from before prompt " << *args.prompt
        << "; continue it with nib -c (or nib -r " << loaded.value().header.id.substr(0, 8)
        << ").\n";
  }
  return 0;
}

}  // namespace nib::app
