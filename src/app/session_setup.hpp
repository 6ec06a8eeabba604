#pragma once
// Where a run's conversation comes from and goes to: a new session file, the latest one of the
// working directory (--continue), one named by id (--resume) or path (--session), or none
// (--no-session). Loading one gives the history to continue from, with a compaction's summary
// in place of the messages it summarised. One per front end, used from the loop's thread (or,
// between runs, the front end's), except record_forced_quit(), which may come from another
// thread at any moment.

#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/rewind.hpp"
#include "app/tree_checkpoints.hpp"
#include "core/events.hpp"
#include "core/history_edit.hpp"
#include "core/pending_notices.hpp"
#include "session/session_file.hpp"
#include "session/session_recorder.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::app {

// A stored session the options name, read once: by --continue, --resume or an existing
// --session file.
struct ExistingSession {
  std::filesystem::path file;
  session::LoadedSession loaded;
};

// The session the options name, loaded; nullopt for a new session (or with --no-session); an
// error when the named one cannot be found or read. `places`: where the user's sessions are
// (session::SessionStore::for_user).
util::Result<std::optional<ExistingSession>> load_named_session(const CliOptions& options,
                                                                const util::UserPlaces& places,
                                                                const std::filesystem::path& cwd);

struct SessionModel {
  std::string provider;
  std::string model;
};

// The provider and model a stored session last used: its header's, or its last model change's.
SessionModel session_model(const session::LoadedSession& loaded);

// A front end's conversation: the one owner of its history (lent to the loop for each run,
// which appends to it) and, unless --no-session, the recorder of its session file, which learns
// everything from events (session/session_recorder.hpp). Opening one labels the commands run
// from then on with its id (tools::set_command_owner_label). With the front end's checkpoints
// (tree_checkpoints.hpp), the working tree is checkpointed before each prompt and when each run
// ends, and the session can be rewound (rewind.hpp).
class RunSession {
 public:
  // Continues `existing` (from load_named_session), or else creates a new session file unless
  // options.no_session; an error names the problem (exit 2).
  static util::Result<RunSession> open(const CliOptions& options, const util::UserPlaces& places,
                                       const std::filesystem::path& cwd,
                                       const std::optional<ExistingSession>& existing,
                                       const std::string& provider, const std::string& model,
                                       std::shared_ptr<TreeCheckpoints> checkpoints = nullptr);

  // The conversation to send: the loaded history (after its last compaction: the summary, then
  // the messages it kept), and everything since.
  std::vector<core::Message>& history() { return history_; }

  // Adds the user's prompt for the next run to the history and the file. The first prompt of a
  // continued session starts with a note when commands of its previous run were ended after that
  // run died (command_registry.hpp), so the model does not count on them still running.
  // The `notices` posted since the last run (a background job that finished) come first too.
  void add_prompt(core::UserMessage prompt, core::PendingNotices* notices = nullptr);
  // The run's events, for the file (the loop appends to the history itself); the end of a run
  // is checkpointed.
  void on_event(const core::Event& event);

  // The prompts the session can be rewound to, with what each turn changed; an error when the
  // session has no checkpoints (--no-session, checkpoints off) or the store cannot be read.
  util::Result<std::vector<RewindPoint>> rewind_points();
  // Rewinds (rewind.hpp): the history becomes what the file says is in force after it, and
  // the model is told what happened with the next prompt.
  util::Result<RewindOutcome> rewind(const RewindRequest& request);
  // What the user should know about the checkpoints since the last call ("" when nothing): why
  // one could not be taken, files too large to record (each named once).
  std::string take_checkpoint_notice();
  // Applies a compaction made outside a run (/compact) and records it.
  void apply(core::HistoryCompaction compaction);
  // See SessionRecorder. Thread-safe.
  void record_forced_quit();
  void record_model_change(const std::string& provider, const std::string& model);

  // The session's id: its file's, or one of its own with --no-session (the services' prompt
  // cache key, core::ProviderRequest::cache_key).
  const std::string& id() const { return id_; }
  // The session file ("" with --no-session) and the problem met while writing it, if any.
  std::string file() const;
  std::string write_error() const;

 private:
  RunSession() = default;

  std::string id_;
  std::vector<core::Message> history_;
  std::unique_ptr<session::SessionRecorder> recorder_;  // none with --no-session
  std::string pending_notice_;                          // for the next prompt (add_prompt)
  std::shared_ptr<TreeCheckpoints> checkpoints_;        // none: no checkpoints
  std::string checkpoint_notice_;
  std::set<std::string> named_large_files_;

  // Takes a checkpoint and records it (what the user should know is kept for
  // take_checkpoint_notice).
  void checkpoint(const std::string& label, bool turn_end);
};

}  // namespace nib::app
