#pragma once
// Print mode's output (nib -p): turns the run's events into what scripts read.
// - text: the final answer on `out`; a one-line summary of each tool call, commentary and
//   errors on `err`. With live_text, every text delta is written as it arrives (a person is
//   watching); otherwise a message's text is held until the message ends, so `out` receives the
//   final answer only.
// - json: one JSON object on `out` when the run ends (the "result" line plus "result" text).
// - stream-json: every event as one JSON line on `out`, as it happens.
// Not thread-safe: fed from the loop's thread only.

#include <map>
#include <ostream>
#include <string>

#include "core/events.hpp"

namespace nib::ui {

enum class PrintFormat { kText, kJson, kStreamJson };

class PrintOutput {
 public:
  PrintOutput(PrintFormat format, std::ostream& out, std::ostream& err, bool live_text);

  void on_event(const core::Event& event);
  // The last assistant message's text: the run's answer.
  const std::string& final_text() const { return final_text_; }

 private:
  void on_text_event(const core::Event& event);

  PrintFormat format_;
  std::ostream& out_;
  std::ostream& err_;
  bool live_text_;
  std::string final_text_;
  bool wrote_live_text_ = false;
  std::map<std::string, std::string> summaries_;  // call id -> summary, from tool_start
};

}  // namespace nib::ui
