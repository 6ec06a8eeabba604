#include "core/pending_notices.hpp"

#include <algorithm>

namespace nib::core {

void PendingNotices::post(const std::string& key, std::string text) {
  const std::lock_guard lock(mutex_);
  const auto same = std::find_if(notices_.begin(), notices_.end(),
                                 [&key](const auto& notice) { return notice.first == key; });
  if (same != notices_.end()) {
    same->second = std::move(text);
  } else {
    notices_.emplace_back(key, std::move(text));
  }
}

void PendingNotices::withdraw(const std::string& key) {
  const std::lock_guard lock(mutex_);
  std::erase_if(notices_, [&key](const auto& notice) { return notice.first == key; });
}

std::vector<std::string> PendingNotices::take_all() {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> texts;
  texts.reserve(notices_.size());
  for (auto& notice : notices_) texts.push_back(std::move(notice.second));
  notices_.clear();
  return texts;
}

bool PendingNotices::empty() const {
  const std::lock_guard lock(mutex_);
  return notices_.empty();
}

}  // namespace nib::core
