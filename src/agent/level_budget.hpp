#pragma once
// The places for subagents running at once, one budget per level of nesting
// (kMaxSubagentsPerLevel by default, settings.json `concurrency.subagents`): a subagent waiting
// for a place for its own subagent waits on the level below its own, never on a place its
// parent holds, so these waits cannot form a cycle. Thread-safe.

#include <cstddef>

#include "core/slot_pool.hpp"

namespace nib::agent {

// The budget of subagents at `depth` (1: those the user's run starts), made on first use.
core::SlotPool& subagent_level_pool(int depth);

// Sets every level's capacity, now and for levels made later (start-up, from settings).
void set_subagents_per_level(std::size_t capacity);

}  // namespace nib::agent
