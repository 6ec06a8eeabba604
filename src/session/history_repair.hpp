#pragma once
// Makes stored messages a valid history to continue from. A session killed while tools ran
// holds an assistant message whose tool calls have no (or only some) results; every provider
// rejects such a history. Pure functions; thread-safe.

#include <cstddef>
#include <vector>

#include "core/messages.hpp"

namespace nib::session {

// The result text of a call that was running (or waiting) when nib went away. Its effects are
// unknown, so the model is told to look before repeating it.
inline constexpr const char* kInterruptedResultText =
    "interrupted: nib exited before this tool finished. Its effects are unknown and were not "
    "undone: check the current state before running it again (nib rewind restores the files "
    "as they were before the prompt).";

struct RepairedHistory {
  std::vector<core::Message> messages;
  std::size_t synthesized_results = 0;  // calls given a kInterruptedResultText error result
  std::size_t dropped_results = 0;      // results that answered no call of the message before
};

// `stored` made valid: right after each assistant message with tool calls comes exactly one
// toolResult message holding one result per call, in call order. The stored toolResult messages
// that follow it (a batch may have been written in parts) are merged into that one; a call with
// no stored result gets an error result saying nib exited; a result that answers no call (or a
// call already answered) is dropped. Everything else is kept as it was.
RepairedHistory repair_history(const std::vector<core::Message>& stored);

}  // namespace nib::session
