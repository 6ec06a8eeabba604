#pragma once
// The process-wide table of what running and waiting tool calls touch (their ResourceClaims),
// shared by the schedulers of the main run and of every subagent, so that calls that conflict
// never overlap, whichever run made them, and calls that do not conflict run side by side.
//
// The conflict rule: claim keys name resources in a '/'-separated hierarchy, and a claim on a
// key covers the key itself and every key below it at a '/' boundary: "file:/a" covers
// "file:/a" and "file:/a/b/c", not "file:/ab" nor "file:/a.txt"; "file:/" covers every file.
// Two claims conflict when one covers the other and at least one is exclusive; two shared
// claims never conflict. So a search of a directory (shared) waits for an edit of any file
// under it (exclusive), while reads and searches overlap freely. Keys without a '/' (a test's
// "a") conflict only with themselves. The file tools' keys are path.hpp's file_claim_key().
//
// Order is fairness: each call enters the table with a ticket, in call order within a batch
// and in the order batches reach the table across runs; a call may start once no earlier
// ticket still in the table conflicts with it. So among conflicting calls the first one called
// goes first, a reader never overtakes an earlier writer of its file (or the reverse), and the
// earliest ticket can always start: nothing waits on anything later than itself, so the table
// cannot deadlock. Thread-safe.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "core/tool.hpp"
#include "core/wake_list.hpp"

namespace nib::core {

// True when some claim of `a` and some claim of `b` conflict: one's key covers the other's (the
// keys are equal, or one is an ancestor of the other at a '/' boundary) and either is exclusive.
bool claims_conflict(const std::vector<ResourceClaim>& a, const std::vector<ResourceClaim>& b);

class ClaimTable {
 public:
  using Ticket = std::uint64_t;

  // Enters `claims` behind every ticket entered before.
  Ticket enter(std::vector<ResourceClaim> claims);
  // True when no earlier ticket still in the table conflicts with `ticket`.
  bool may_start(Ticket ticket) const;
  // Removes `ticket` (its call ended, or will never run) and wakes every listener.
  void leave(Ticket ticket);

  // Keeps `on_change` registered while the handle lives (see WakeList).
  class Listener {
   public:
    Listener(ClaimTable& table, std::function<void()> on_change)
        : registration_(table.changed_, std::move(on_change)) {}

   private:
    WakeList::Registration registration_;
  };

 private:
  mutable std::mutex mutex_;
  Ticket next_ = 1;
  std::map<Ticket, std::vector<ResourceClaim>> entries_;
  WakeList changed_;
};

// The table shared by every scheduler of this process.
ClaimTable& process_claim_table();

}  // namespace nib::core
