#include "core/claim_table.hpp"

namespace nib::core {

bool claims_conflict(const std::vector<ResourceClaim>& a, const std::vector<ResourceClaim>& b) {
  for (const auto& x : a) {
    for (const auto& y : b) {
      if (x.key == y.key && (x.exclusive || y.exclusive)) return true;
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
