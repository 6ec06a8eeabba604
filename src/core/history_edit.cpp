#include "core/history_edit.hpp"

#include <algorithm>

namespace nib::core {

HistoryCompactedEvent apply_compaction(std::vector<Message>& history,
                                       HistoryCompaction compaction) {
  const std::size_t cut = std::min(compaction.cut, history.size());
  std::vector<Message> compacted;
  compacted.reserve(history.size() - cut + 1);
  compacted.push_back(std::move(compaction.summary));
  std::move(history.begin() + static_cast<std::ptrdiff_t>(cut), history.end(),
            std::back_inserter(compacted));
  history = std::move(compacted);
  return HistoryCompactedEvent{std::move(compaction.summary_text), history.size() - 1};
}

}  // namespace nib::core
