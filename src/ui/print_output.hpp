#pragma once
// Print mode's output (nib -p): turns the run's events into what scripts read.
// - text: the final answer on `out`; a one-line summary of each tool call, commentary and
//   errors on `err`. With live_text, every text delta is written as it arrives (a person is
//   watching); otherwise a message's text is held until the message ends, so `out` receives the
//   final answer only. A reply that the service started over (core::ReplyRestartEvent) after
//   live text was written gets a note on `err` that the text before it was abandoned. A reply
//   that ended with nothing in it (core::is_empty_reply) gets a note on `err`, in the json
//   format too.
//   When the run ends, one summary line on `err`: turns, tokens and, with prices, the cost.
// - json: one JSON object on `out` when the run ends (the "result" line plus "result" text).
// - stream-json: every event as one JSON line on `out`, as it happens.
// With a cost function, each message_end and the result carry "cost_usd".
// Not thread-safe: fed from the loop's thread only.

#include <functional>
#include <map>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/events.hpp"

namespace nib::ui {

enum class PrintFormat { kText, kJson, kStreamJson };

// The price in US dollars of some usage; empty when the model's prices are unknown.
using CostFunction = std::function<double(const core::Usage&)>;

// "3 turns, 12,345 tokens in (+10,000 cached), 456 out, $0.0123" (the cost only with `cost`).
std::string usage_summary(int turns, const core::Usage& usage, const CostFunction& cost);

class PrintOutput {
 public:
  PrintOutput(PrintFormat format, std::ostream& out, std::ostream& err, bool live_text,
              CostFunction cost = {});

  void on_event(const core::Event& event);
  // The last assistant message's text: the run's answer.
  const std::string& final_text() const { return final_text_; }

 private:
  void on_text_event(const core::Event& event);
  // The event as JSON, with the cost and the answer where they belong.
  nlohmann::json event_json(const core::Event& event) const;

  PrintFormat format_;
  std::ostream& out_;
  std::ostream& err_;
  bool live_text_;
  CostFunction cost_;
  std::string final_text_;
  bool wrote_live_text_ = false;     // this reply's text deltas were written to `out`
  bool live_text_ends_line_ = true;  // the last text written there ended with a newline
  std::map<std::string, std::string> summaries_;  // call id -> summary, from tool_start
};

}  // namespace nib::ui
