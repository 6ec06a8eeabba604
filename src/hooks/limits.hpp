#pragma once
// The hooks' limits, each with its reason. Pure constants.

#include <chrono>
#include <cstddef>

namespace nib::hooks {

// How long a hook may run when its entry names no "timeout": Claude Code's default, so that
// hooks written for it behave the same.
inline constexpr std::chrono::seconds kDefaultHookTimeout{60};

// Longer timeouts are treated as this: a day is past any hook's need, and keeps the deadline
// arithmetic far from overflowing.
inline constexpr std::chrono::seconds kMaxHookTimeout{24 * 3600};

// How many times in a row the Stop (or SubagentStop) hooks may send the model on before nib
// ends the run anyway: a hook that never checks stop_hook_active would otherwise loop forever.
inline constexpr int kMaxStopContinuations = 8;

// How much of a hook's stderr a reason quotes: enough for a message, short enough that a
// chatty script does not flood the model's context.
inline constexpr std::size_t kMaxReasonBytes = 4 * 1024;

}  // namespace nib::hooks
