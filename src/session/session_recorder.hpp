#pragma once
// How a run reaches its session file: the recorder listens to the run's events and appends
// what entered the history, as it happens, so that a kill at any moment loses only the calls
// still running:
// - each reply at message_end;
// - each tool result at its tool_end (every call gets one, run or not: core/events.hpp), so a
//   kill in the middle of a long batch keeps the results that were final; loading merges the
//   parts into one batch;
// - each message the user sent (the prompt, given by the history's owner, and steering
//   messages, at user_message);
// - each compaction, at history_compacted, as an index into the file's messages;
// plus what the front end reports outside the loop (a model change) and, on a forced quit, an
// "interrupted" result for every call still open. It never touches the history itself: the
// history's owner (and the loop it lends it to) does. A subagent's run records into a
// recorder of its own the same way.
//
// Thread-safety: on_event and record_model_change come from one thread at a time (the loop's);
// record_forced_quit may come from any thread at any moment.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "session/session_writer.hpp"

namespace nib::session {

class SessionRecorder {
 public:
  // Records into `writer`, whose file holds `stored_messages` messages already (the length of
  // LoadedSession::messages when continuing; 0 for a new file).
  SessionRecorder(SessionWriter writer, std::size_t stored_messages);

  void on_event(const core::Event& event);
  // Records that the conversation goes on with another model.
  void record_model_change(const std::string& provider, const std::string& model);
  // Records checkpoint `id` of the working tree: before the next message (the prompt), or, with
  // `turn_end`, as the run that just ended left it.
  void record_checkpoint(const std::string& id, bool turn_end);
  // Records a rewind: the conversation goes on from its first `message_index` messages (none:
  // it stays whole), and `note` is for the model with the next prompt.
  void record_rewind(std::optional<std::size_t> message_index, const std::string& note);
  // The number of messages of the file's history (what the next message's index will be).
  std::size_t stored_messages() const;
  // nib is being quit without waiting for its tools: gives each call still without a result an
  // "interrupted" result in the file, so the session continues from a valid history, and writes
  // nothing more after it.
  void record_forced_quit();

  const std::filesystem::path& file() const { return writer_.file(); }
  // The first problem met while writing, if any (the run goes on: losing the record must not
  // lose the work).
  std::string write_error() const;

 private:
  void append(const SessionEntry& entry);

  // Guards everything below: a forced quit writes from the signal thread.
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();
  SessionWriter writer_;
  std::size_t stored_messages_;                // messages of the file's history so far
  std::vector<core::ToolCall> pending_calls_;  // of the last reply, until answered
  bool closed_ = false;
  std::string write_error_;
};

}  // namespace nib::session
