#pragma once
// Print mode's output (nib -p): turns the run's events into what scripts read.
// - text: the final answer on `out`; a one-line summary of each tool call, commentary and
//   errors on `err`. With live_text, every text delta is written as it arrives (a person is
//   watching); otherwise a message's text is held until the message ends, so `out` receives the
//   final answer only. Text written live goes to a terminal, so escape sequences and control
//   characters other than newline and tab are removed from it (a reply must not clear the
//   screen, set the title or plant a hyperlink); text for a pipe or file stays as it is. A
//   reply that the service started over (core::ReplyRestartEvent) after live text was written
//   gets a note on `err` that the text before it was abandoned. A reply that ended with nothing
//   in it (core::is_empty_reply) gets a note on `err`, in the json format too.
//   A reply's hosted web searches and cited sources get a line each on `err` when it ends
//   (ui/web_search_summary.hpp).
//   When the run ends, one summary line on `err`: turns, tokens and, with prices, the cost,
//   subagents' included. A subagent's finished tool calls get a line each on `err`, indented by
//   its depth and named by its agent id; its text is not written (its answer is the task
//   call's result).
// - json: one JSON object on `out` when the run ends (the "result" line plus "result" text).
// - stream-json: every event as one JSON line on `out`, as it happens, subagents' included;
//   after a message_end, one {"type": "web_search", ...} line per hosted search in the reply.
//   The result line (json and stream-json) carries "subagents" (runs, usage) when there were any.
// With a cost function, each message_end and the result carry "cost_usd". The values of the keys
// nib holds (util/secret_redaction.hpp) are replaced in everything written.
// Not thread-safe: fed from the loop's thread only.

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "ui/tool_summary.hpp"

namespace nib::ui {

enum class PrintFormat { kText, kJson, kStreamJson };

// The price in US dollars of some usage; empty when the model's prices are unknown.
using CostFunction = std::function<double(const core::Usage&)>;

// "3 turns, 12,345 tokens in (+10,000 cached), 456 out, $0.0123" (the cost only with `cost`).
std::string usage_summary(int turns, const core::Usage& usage, const CostFunction& cost);

class PrintOutput {
 public:
  PrintOutput(PrintFormat format, std::ostream& out, std::ostream& err, bool live_text,
              CostFunction cost = {}, ToolPresenter presenter = ToolPresenter());

  void on_event(const core::Event& event);
  // The permission mode the run_start line names ("auto", ...).
  void set_permission_mode(std::string mode) { permission_mode_ = std::move(mode); }
  // The last assistant message's text: the run's answer.
  const std::string& final_text() const { return final_text_; }

 private:
  void on_text_event(const core::Event& event);
  void on_subagent_event(const core::SubagentEvent& event);
  static std::size_t streamable_prefix(std::string_view pending);
  // Writes the first `length` bytes of live_pending_, cleaned of control sequences.
  void write_live_text(std::size_t length);
  // The event as JSON, with the cost and the answer where they belong.
  nlohmann::json event_json(const core::Event& event) const;
  std::string json_line(const core::Event& event) const;
  static void write(std::ostream& to, const std::string& text);

  PrintFormat format_;
  std::string permission_mode_;
  std::ostream& out_;
  std::ostream& err_;
  bool live_text_;
  CostFunction cost_;
  ToolPresenter presenter_;
  std::string final_text_;
  bool wrote_live_text_ = false;     // this reply's text deltas were written to `out`
  bool live_text_ends_line_ = true;  // the last text written there ended with a newline
  std::string live_pending_;         // streamed text not yet written to the terminal
  // call id (a subagent's: its agent id, a newline, the call id) -> summary, from tool_start
  std::map<std::string, std::string> summaries_;
  core::Usage subagent_usage_;  // of every subagent's replies so far
  std::size_t subagent_runs_ = 0;
};

}  // namespace nib::ui
