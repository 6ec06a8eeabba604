#include "agent/level_budget.hpp"

#include <map>
#include <memory>
#include <mutex>

#include "agent/limits.hpp"

namespace nib::agent {
namespace {

struct LevelPools {
  std::mutex mutex;
  std::size_t capacity = kMaxSubagentsPerLevel;
  std::map<int, std::unique_ptr<core::SlotPool>> pools;
};

LevelPools& level_pools() {
  static LevelPools pools;
  return pools;
}

}  // namespace

core::SlotPool& subagent_level_pool(int depth) {
  LevelPools& levels = level_pools();
  const std::lock_guard lock(levels.mutex);
  auto& pool = levels.pools[depth];
  if (!pool) pool = std::make_unique<core::SlotPool>(levels.capacity);
  return *pool;
}

void set_subagents_per_level(std::size_t capacity) {
  LevelPools& levels = level_pools();
  const std::lock_guard lock(levels.mutex);
  levels.capacity = capacity;
  for (auto& [depth, pool] : levels.pools) pool->resize(capacity);
}

}  // namespace nib::agent
