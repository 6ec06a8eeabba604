#pragma once
// Records loop/scheduler events as short strings ("start:a", "running:a", "settled:a",
// "end:a", "turn_start:1", ...) and lets a test wait for one to appear. Thread-safe.

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "core/events.hpp"

namespace nib::testing {

class EventRecorder {
 public:
  // A sink to hand to the scheduler or loop.
  core::EventSink sink();
  std::vector<std::string> events();
  // Only the events whose text starts with `prefix` ("end:", "settled:").
  std::vector<std::string> events_with(const std::string& prefix);
  // Blocks until `event` has been recorded.
  void await(const std::string& event);
  // The outcomes carried by tool_end events, in order.
  std::vector<core::ToolOutcome> ended();

 private:
  void record(const core::Event& event);
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> events_;
  std::vector<core::ToolOutcome> ended_;
};

}  // namespace nib::testing
