#pragma once
// Where a run's conversation comes from and goes to: a new session file, the latest one of the
// working directory (--continue), one named by id (--resume) or path (--session), or none
// (--no-session). Loading one gives the history to continue from, with a compaction's summary
// in place of the messages it summarised. One per run, used from the loop's thread, except
// record_forced_quit(), which may come from another thread at any moment.

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/environment.hpp"
#include "core/events.hpp"
#include "session/session_file.hpp"
#include "session/session_writer.hpp"

namespace nib::app {

// A stored session the options name, read once: by --continue, --resume or an existing
// --session file.
struct ExistingSession {
  std::filesystem::path file;
  session::LoadedSession loaded;
};

// The session the options name, loaded; nullopt for a new session (or with --no-session); an
// error when the named one cannot be found or read.
session::Outcome<std::optional<ExistingSession>> load_named_session(
    const CliOptions& options, const EnvLookup& env, const std::filesystem::path& cwd);

struct SessionModel {
  std::string provider;
  std::string model;
};

// The provider and model a stored session last used: its header's, or its last model change's.
SessionModel session_model(const session::LoadedSession& loaded);

// A run's session: the history to continue and the file it is written to (no file with
// --no-session). Every message that enters the history is appended as it happens. Opening one
// labels the commands run from then on with its id (tools::set_command_owner_label).
class RunSession {
 public:
  // Continues `existing` (from load_named_session), or else creates a new session file unless
  // options.no_session; an error names the problem (exit 2).
  static session::Outcome<RunSession> open(const CliOptions& options, const EnvLookup& env,
                                           const std::filesystem::path& cwd,
                                           const std::optional<ExistingSession>& existing,
                                           const std::string& provider, const std::string& model);

  // The conversation to send: the loaded history (after its last compaction: the summary, then
  // the messages it kept).
  std::vector<core::Message>& history() { return history_; }

  // Appends `message` to the history and to the file. The first prompt of a continued session
  // starts with a note when commands of its previous run were ended after that run died
  // (command_registry.hpp), so the model does not count on them still running.
  void add_message(core::Message message);
  // Records the messages that the loop appended, from its events: each reply at message_end,
  // each tool result at its tool_end (the rest of a batch at tool_results), each steering
  // message at user_message.
  void on_event(const core::Event& event);
  // nib is being quit without waiting for its tools: gives each call still without a result an
  // "interrupted" result in the file, so the session continues from a valid history, and writes
  // nothing more after it. Thread-safe.
  void record_forced_quit();
  // Records that the conversation goes on with another model (/model).
  void record_model_change(const std::string& provider, const std::string& model);
  // Replaces history()[0, cut) by `summary` and records the compaction.
  void compact(std::size_t cut, const std::string& summary);

  // The session file ("" with --no-session) and the problem met while writing it, if any (the
  // run goes on: losing the record must not lose the work).
  std::string file() const;
  const std::string& write_error() const { return write_error_; }

 private:
  RunSession() = default;
  void append(const session::SessionEntry& entry);

  // Guards writer_, pending_calls_ and closed_: a forced quit writes from the signal thread.
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();
  std::optional<session::SessionWriter> writer_;
  std::vector<core::ToolCall> pending_calls_;  // of the last assistant message, until answered
  std::vector<std::string> written_results_;   // call ids of this batch's results already kept
  bool closed_ = false;
  std::vector<core::Message> history_;
  // Messages of the file's reconstructed history (session::LoadedSession::messages) so far;
  // compaction entries index it.
  std::size_t stored_messages_ = 0;
  std::string write_error_;
  std::string pending_notice_;  // for the next prompt (add_message)
};

}  // namespace nib::app
