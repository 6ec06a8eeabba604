#pragma once
// The bounds of delegation, with their reasons. Constants only.

#include <cstddef>

namespace nib::agent {

// How deep subagents may nest: the user's run (depth 0) starts subagents (depth 1), which may
// start their own (depth 2) only when their definition grants them the task tool. Deeper
// chains lose the thread of the work and multiply cost without adding a view of it.
inline constexpr int kDefaultMaxSubagentDepth = 2;

// Subagents running at once on one level of nesting, across the process (level_budget.hpp). A reply
// may ask for many tasks; more than a few at once only queue for the same model requests (the
// process shares kMaxConcurrentRequests) while each holds a thread and its history. Each level has
// its own budget, so a subagent waiting for a place for its own subagent never waits on a place its
// parent holds: the waits cannot form a cycle.
inline constexpr std::size_t kMaxSubagentsPerLevel = 4;

// A subagent's abort grace is this fraction of its parent's: after an abort the nested run must
// settle and return its partial answer while its parent still waits for the task call.
inline constexpr int kAbortGraceDivisor = 2;

}  // namespace nib::agent
