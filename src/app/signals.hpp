#pragma once
// Signal handling without async-signal-unsafe work in handlers: SIGINT, SIGTERM, SIGHUP and
// SIGWINCH are blocked in every thread and read from a signalfd by one watcher thread, which
// calls plain functions. SIGPIPE is ignored so a closed stdout is an error, not a silent death.
//
// Construct before any other thread starts (threads inherit the blocked mask). Processes nib
// spawns must reset their signal mask and dispositions (the subprocess code does).

#include <functional>
#include <thread>

namespace nib::app {

class SignalWatcher {
 public:
  struct Handlers {
    std::function<void()> on_interrupt;     // SIGINT
    std::function<void(int)> on_terminate;  // SIGTERM or SIGHUP, with the signal number
    std::function<void()> on_resize;        // SIGWINCH
  };
  explicit SignalWatcher(Handlers handlers);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  void watch();
  Handlers handlers_;
  int signal_fd_ = -1;
  int wake_fd_ = -1;  // written by the destructor to end the watcher
  std::thread thread_;
};

}  // namespace nib::app
