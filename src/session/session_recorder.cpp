#include "session/session_recorder.hpp"

#include <algorithm>

#include "session/history_repair.hpp"

namespace nib::session {

SessionRecorder::SessionRecorder(SessionWriter writer, std::size_t stored_messages)
    : writer_(std::move(writer)), stored_messages_(stored_messages) {}

void SessionRecorder::append(const SessionEntry& entry) {
  if (closed_) return;
  const util::Status status = writer_.append(entry);
  if (!status.ok() && write_error_.empty()) write_error_ = status.error();
}

void SessionRecorder::on_event(const core::Event& event) {
  const std::lock_guard lock(*mutex_);
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    pending_calls_ = core::tool_calls_of(end->message);
    append(MessageEntry{end->message});
    ++stored_messages_;
  } else if (const auto* tool_end = std::get_if<core::ToolEndEvent>(&event)) {
    const core::ToolResult& result = tool_end->outcome.result;
    std::erase_if(pending_calls_,
                  [&result](const core::ToolCall& call) { return call.id == result.tool_call_id; });
    append(MessageEntry{core::ToolResultMessage{{result}}});
  } else if (std::holds_alternative<core::ToolResultsEvent>(event)) {
    ++stored_messages_;  // its results, kept one by one at tool_end, load as one message
  } else if (const auto* user = std::get_if<core::UserMessageEvent>(&event)) {
    append(MessageEntry{user->message});
    ++stored_messages_;
  } else if (const auto* compacted = std::get_if<core::HistoryCompactedEvent>(&event)) {
    append(CompactionEntry{compacted->summary, stored_messages_ - compacted->kept});
  }
}

void SessionRecorder::record_model_change(const std::string& provider, const std::string& model) {
  const std::lock_guard lock(*mutex_);
  append(ModelChangeEntry{provider, model});
}

void SessionRecorder::record_checkpoint(const std::string& id, bool turn_end) {
  const std::lock_guard lock(*mutex_);
  append(CheckpointEntry{id, stored_messages_, turn_end});
}

void SessionRecorder::record_rewind(std::optional<std::size_t> message_index,
                                    const std::string& note) {
  const std::lock_guard lock(*mutex_);
  append(RewindEntry{message_index, note});
  if (message_index && *message_index < stored_messages_) {
    stored_messages_ = *message_index;
    pending_calls_.clear();
  }
}

std::size_t SessionRecorder::stored_messages() const {
  const std::lock_guard lock(*mutex_);
  return stored_messages_;
}

void SessionRecorder::record_forced_quit() {
  const std::lock_guard lock(*mutex_);
  if (closed_) return;
  if (!pending_calls_.empty()) {
    core::ToolResultMessage results;
    for (const auto& call : pending_calls_) {
      results.results.push_back(
          {call.id, call.name, core::text_content(kInterruptedResultText), true, {}});
    }
    // Best effort: the process ends right after this, and loading repairs a missing result too.
    append(MessageEntry{std::move(results)});
  }
  closed_ = true;
}

std::string SessionRecorder::write_error() const {
  const std::lock_guard lock(*mutex_);
  return write_error_;
}

}  // namespace nib::session
