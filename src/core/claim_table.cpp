#include "core/claim_table.hpp"

#include <string_view>

namespace nib::core {
namespace {

// True when `outer` is `inner` or one of its ancestors: "file:/a" for "file:/a/b", "file:/" for
// "file:/a", never "file:/a" for "file:/ab".
bool covers(std::string_view outer, std::string_view inner) {
  if (!inner.starts_with(outer)) return false;
  return inner.size() == outer.size() || outer.ends_with('/') || inner[outer.size()] == '/';
}

}  // namespace

bool claims_conflict(const std::vector<ResourceClaim>& a, const std::vector<ResourceClaim>& b) {
  for (const auto& x : a) {
    for (const auto& y : b) {
      if ((x.exclusive || y.exclusive) && (covers(x.key, y.key) || covers(y.key, x.key))) {
        return true;
      }
    }
  }
  return false;
}

ClaimTable::Ticket ClaimTable::enter(std::vector<ResourceClaim> claims) {
  std::lock_guard lock(mutex_);
  const Ticket ticket = next_++;
  entries_.emplace(ticket, std::move(claims));
  return ticket;
}

bool ClaimTable::may_start(Ticket ticket) const {
  std::lock_guard lock(mutex_);
  const auto self = entries_.find(ticket);
  if (self == entries_.end()) return true;
  for (auto it = entries_.begin(); it != self; ++it) {
    if (claims_conflict(it->second, self->second)) return false;
  }
  return true;
}

void ClaimTable::leave(Ticket ticket) {
  {
    std::lock_guard lock(mutex_);
    entries_.erase(ticket);
  }
  changed_.notify_all();
}

ClaimTable& process_claim_table() {
  static ClaimTable table;
  return table;
}

}  // namespace nib::core
