#pragma once
// Things the model must be told at its next turn that happened outside any call of its own: a
// background job that exited, and whatever else later finds the same need. Whoever notices
// posts a short text under a key; the agent loop takes them all at a turn boundary (into one
// user message before its next request) and the application takes them when a run starts
// (before the prompt), so a notice is never dropped. A notice whose news the model has had by
// other means (it read the job's final state itself) is withdrawn by its key.
// Thread-safe: posted from any thread, taken by the loop's.

#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace nib::core {

class PendingNotices {
 public:
  // Adds `text` under `key`, replacing a notice not yet taken with the same key.
  void post(const std::string& key, std::string text);
  // Removes the notice under `key`, if it has not been taken.
  void withdraw(const std::string& key);
  // Every notice, oldest first, and forgets them.
  std::vector<std::string> take_all();
  bool empty() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, std::string>> notices_;  // key, text; guarded by mutex_
};

}  // namespace nib::core
