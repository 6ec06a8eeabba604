#pragma once
// Callbacks to run when a shared resource frees up (a slot, a claim): the schedulers of every
// run in the process register one to wake their own wait when something they wait for may have
// become available. Thread-safe; callbacks run on the notifying thread, outside the list's lock,
// so they must be quick and thread-safe (e.g. notify a condition variable).

#include <functional>
#include <list>
#include <mutex>

namespace nib::core {

class WakeList {
 public:
  // Keeps `callback` registered while it lives.
  class Registration {
   public:
    Registration(WakeList& list, std::function<void()> callback);
    ~Registration();
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

   private:
    WakeList& list_;
    std::list<std::function<void()>>::iterator position_;
  };

  // Runs every registered callback.
  void notify_all();

 private:
  std::mutex mutex_;
  std::list<std::function<void()>> callbacks_;
};

}  // namespace nib::core
