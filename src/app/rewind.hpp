#pragma once
// Rewinding a session: the prompts it can go back to (each with the checkpoint of the working
// tree taken before it and the files its turn changed), and going back — the files, the
// conversation, or both — to the state before one of them. One owner for `nib rewind` and the
// interactive /rewind; what is in force comes from the session file (session_file.hpp), the
// files' states from the checkpoint store.
//
// Files the user changed by hand (between a run's end and the next prompt, or since the last
// run ended) are not overwritten unless asked: a restore names them first. The tree as it was is
// checkpointed before each restore, so a restore can be taken back too.

#include <cstddef>
#include <string>
#include <vector>

#include "session/checkpoint_store.hpp"
#include "session/session_file.hpp"
#include "session/session_recorder.hpp"
#include "util/result.hpp"

namespace nib::app {

struct RewindPoint {
  std::size_t message_index = 0;             // the prompt's place in the history
  std::string prompt;                        // its text (what the user typed)
  std::string checkpoint;                    // the tree before it
  std::vector<session::FileChange> changes;  // what its turn changed, by path
};

// The prompts of `loaded` that have a checkpoint, oldest first. `now` is a checkpoint of the
// tree as it is (the last turn's changes reach up to it when its run did not record its end).
util::Result<std::vector<RewindPoint>> rewind_points(const session::LoadedSession& loaded,
                                                     const session::CheckpointStore& store,
                                                     const std::string& now);

enum class RewindScope { kCode, kConversation, kBoth };

// What to do with files changed by hand that a restore would overwrite.
enum class HandChanges { kRefuse, kOverwrite, kKeep };

struct RewindRequest {
  RewindPoint point;
  RewindScope scope = RewindScope::kBoth;
  HandChanges hand_changes = HandChanges::kRefuse;
};

struct RewindOutcome {
  // Files changed by hand that the restore would overwrite; with kRefuse and any of these,
  // nothing was done.
  std::vector<std::string> hand_changed;
  bool done = false;
  std::vector<session::FileChange> restored;  // the files the restore changed back
  std::string undo_checkpoint;                // the tree before the restore ("": none)
  std::string note;                           // what the model is told with its next prompt
};

// Rewinds to before `request.point` (one of rewind_points(loaded, store, now)): restores the
// files (code, both) and records the rewind in `recorder` (its note; the messages kept, for
// conversation and both).
util::Result<RewindOutcome> rewind(const session::LoadedSession& loaded,
                                   session::CheckpointStore& store,
                                   session::SessionRecorder& recorder, const std::string& now,
                                   const RewindRequest& request);

// The first line of `prompt`, cut (between characters, ending in "...") to `max_bytes`: how
// lists and notes name a prompt.
std::string prompt_headline(const std::string& prompt, std::size_t max_bytes = 60);

// "3 files: a.c (+2 -1), b.c (new), c.c (deleted)": `changes` in a line for people and the
// model.
std::string describe_changes(const std::vector<session::FileChange>& changes);

}  // namespace nib::app
