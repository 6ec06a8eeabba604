#pragma once
// The one change to a conversation's history besides appending: its older part replaced by a
// summary (compaction). Whoever decides on a compaction (the loop's hooks, the user's /compact)
// returns it as a value; the history's owner applies it here and announces it with the event
// that session recorders and front ends listen to. Pure functions; thread-safe.

#include <cstddef>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "core/messages.hpp"

namespace nib::core {

struct HistoryCompaction {
  std::size_t cut = 0;       // history[0, cut) is replaced...
  Message summary;           // ...by this one message,
  std::string summary_text;  // whose text the session records
};

// Replaces history[0, compaction.cut) by compaction.summary; returns the event that says so.
HistoryCompactedEvent apply_compaction(std::vector<Message>& history, HistoryCompaction compaction);

}  // namespace nib::core
