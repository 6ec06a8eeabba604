#include "ui/print_output.hpp"

#include <algorithm>
#include <cstdio>

#include "ui/stream_json.hpp"
#include "ui/tool_summary.hpp"
#include "ui/web_search_summary.hpp"
#include "util/byte_size.hpp"
#include "util/json_text.hpp"
#include "util/plural.hpp"
#include "util/secret_redaction.hpp"
#include "util/terminal_sanitize.hpp"
#include "util/utf8.hpp"

namespace nib::ui {

namespace {

// Follows the turn limit's message: the session keeps everything, so the work can go on.
constexpr const char* kGoOnAfterTurnLimit =
    " (--max-turns or maxTurns); `nib -c -p \"go on\"` continues this session from here";

// Follows the spending cap's message.
constexpr const char* kGoOnAfterSpendingCap =
    " (--max-budget-usd or maxBudgetUsd); every call made has its result: `nib -c -p \"go "
    "on\" --max-budget-usd N` continues this session with N dollars more to spend";

}  // namespace

std::string usage_summary(int turns, const core::Usage& usage, const CostFunction& cost) {
  std::string text = std::to_string(turns) + (turns == 1 ? " turn, " : " turns, ") +
                     util::format_count(static_cast<std::uint64_t>(usage.input_tokens)) +
                     " tokens in";
  const std::int64_t cached = usage.cache_read_tokens + usage.cache_write_tokens;
  if (cached > 0)
    text += " (+" + util::format_count(static_cast<std::uint64_t>(cached)) + " cached)";
  text += ", " + util::format_count(static_cast<std::uint64_t>(usage.output_tokens)) + " out";
  if (cost) {
    char price[32];
    std::snprintf(price, sizeof price, ", $%.4f", cost(usage));
    text += price;
  }
  return text;
}

// How much of `pending` (streamed text not yet written) can go to the terminal now: all of it,
// unless its last line holds the start of an escape sequence, which the next delta may finish
// (held until the line ends), or it ends inside a UTF-8 sequence.
std::size_t PrintOutput::streamable_prefix(std::string_view pending) {
  const std::size_t line_start = pending.rfind('\n') + 1;  // 0 when there is no newline
  if (pending.find('\x1b', line_start) != std::string_view::npos) return line_start;
  // The last character's lead byte: a sequence the next delta may complete waits for it.
  std::size_t lead = pending.size();
  while (lead > line_start && pending.size() - lead < 4 &&
         (static_cast<unsigned char>(pending[lead - 1]) & 0xC0) == 0x80) {
    --lead;
  }
  if (lead > line_start && static_cast<unsigned char>(pending[lead - 1]) >= 0xC0) --lead;
  const bool unfinished = lead < pending.size() && util::utf8_sequence_length(pending, lead) == 0;
  return unfinished ? lead : pending.size();
}

void PrintOutput::write_live_text(std::size_t length) {
  if (length == 0) return;
  write(out_, util::sanitize_terminal_output(std::string_view(live_pending_).substr(0, length)));
  live_pending_.erase(0, length);
}

// Everything print mode writes goes through here: the keys nib holds never reach the output.
void PrintOutput::write(std::ostream& to, const std::string& text) {
  to << util::redact_secrets(text) << std::flush;
}

std::string PrintOutput::json_line(const core::Event& event) const {
  return util::json_text(event_json(event)) + '\n';
}

PrintOutput::PrintOutput(PrintFormat format, std::ostream& out, std::ostream& err, bool live_text,
                         CostFunction cost, ToolPresenter presenter)
    : format_(format),
      out_(out),
      err_(err),
      live_text_(live_text),
      cost_(std::move(cost)),
      presenter_(presenter) {}

nlohmann::json PrintOutput::event_json(const core::Event& event) const {
  auto line = to_json(event);
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event); end != nullptr && cost_) {
    line["cost_usd"] = cost_(end->message.usage);
  } else if (std::holds_alternative<core::RunStartEvent>(event) && !permission_mode_.empty()) {
    line["permission_mode"] = permission_mode_;
  } else if (const auto* run_end = std::get_if<core::RunEndEvent>(&event)) {
    line["result"] = final_text_;
    if (cost_) line["cost_usd"] = cost_(run_end->usage + subagent_usage_);
    if (subagent_runs_ > 0) {
      line["subagents"] = {{"runs", subagent_runs_}, {"usage", to_json(subagent_usage_)}};
    }
  }
  return line;
}

void PrintOutput::on_event(const core::Event& event) {
  // Print mode reports a compaction through its notices on stderr (app/compaction_hooks).
  if (std::holds_alternative<core::HistoryCompactedEvent>(event)) return;
  if (const auto* nested = std::get_if<core::SubagentEvent>(&event))
    return on_subagent_event(*nested);
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    final_text_ = core::assistant_text(end->message);
  }
  if (format_ == PrintFormat::kStreamJson) {
    write(out_, json_line(event));
    if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
      for (const core::WebSearchBlock& search : core::web_searches_of(end->message)) {
        write(out_, util::json_text(to_json(search)) + '\n');
      }
    }
    return;
  }
  if (const auto* retry = std::get_if<core::RetryEvent>(&event)) {
    write(err_, "nib: " + retry->reason + "; retrying in " + std::to_string(retry->delay.count()) +
                    " ms\n");
  } else if (format_ == PrintFormat::kText) {
    on_text_event(event);
  } else if (std::holds_alternative<core::RunEndEvent>(event)) {
    write(out_, json_line(event));
  }
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event);
      end != nullptr && core::is_empty_reply(end->message)) {
    write(err_, "nib: the model returned an empty reply\n");
  }
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event);
      end != nullptr && format_ == PrintFormat::kText) {
    for (const std::string& line : web_search_lines(end->message)) write(err_, line + '\n');
  }
}

void PrintOutput::on_subagent_event(const core::SubagentEvent& event) {
  const core::NestedView view = core::innermost(event);
  if (std::holds_alternative<core::HistoryCompactedEvent>(*view.event)) return;
  if (const auto* end = std::get_if<core::MessageEndEvent>(view.event)) {
    subagent_usage_ += end->message.usage;
  } else if (std::holds_alternative<core::RunStartEvent>(*view.event)) {
    ++subagent_runs_;
  }
  if (format_ == PrintFormat::kStreamJson) {
    write(out_, json_line(event));
    return;
  }
  if (format_ != PrintFormat::kText) return;
  // One line per finished call of a subagent, indented under the task that started it.
  const std::string key = view.from->agent_id + '\n';
  if (const auto* start = std::get_if<core::ToolStartEvent>(view.event)) {
    summaries_[key + start->id] = presenter_.call(start->name, start->arguments);
  } else if (const auto* tool_end = std::get_if<core::ToolEndEvent>(view.event)) {
    const std::string id = key + tool_end->outcome.result.tool_call_id;
    write(err_, std::string(2 * static_cast<std::size_t>(view.depth), ' ') + view.from->agent_id +
                    ": " + outcome_line(summaries_[id], tool_end->outcome) + '\n');
    summaries_.erase(id);
  }
}

void PrintOutput::on_text_event(const core::Event& event) {
  if (const auto* delta = std::get_if<core::TextDeltaEvent>(&event)) {
    if (live_text_) {
      live_pending_ += delta->text;
      write_live_text(streamable_prefix(live_pending_));
      wrote_live_text_ = true;
      if (!delta->text.empty()) live_text_ends_line_ = delta->text.back() == '\n';
    }
  } else if (std::holds_alternative<core::ReplyRestartEvent>(event)) {
    // Text already written cannot be taken back; without live text nothing was written, and
    // the final text is the new attempt's.
    if (wrote_live_text_) {
      write_live_text(live_pending_.size());
      if (!live_text_ends_line_) write(out_, "\n");
      write(err_, "nib: the service started its reply over; the text above was abandoned\n");
    }
    wrote_live_text_ = false;
    live_text_ends_line_ = true;
  } else if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    const bool has_calls = !core::tool_calls_of(end->message).empty();
    // A reply that failed or was aborted is not an answer; the run's end says what happened.
    const bool complete = end->message.stop_reason != core::StopReason::kError &&
                          end->message.stop_reason != core::StopReason::kAborted;
    std::string text = final_text_;
    if (!text.empty() && text.back() != '\n') text += '\n';
    if (live_text_) {
      write_live_text(live_pending_.size());
      if (wrote_live_text_ && !live_text_ends_line_) write(out_, "\n");
    } else if (has_calls || !complete) {
      write(err_, text);  // commentary before tool calls is not the answer
    } else {
      write(out_, text);
    }
    wrote_live_text_ = false;
    live_text_ends_line_ = true;
  } else if (const auto* start = std::get_if<core::ToolStartEvent>(&event)) {
    summaries_[start->id] = presenter_.call(start->name, start->arguments);
  } else if (const auto* tool_end = std::get_if<core::ToolEndEvent>(&event)) {
    const auto& id = tool_end->outcome.result.tool_call_id;
    write(err_, outcome_line(summaries_[id], tool_end->outcome) + '\n');
    summaries_.erase(id);
  } else if (const auto* run_end = std::get_if<core::RunEndEvent>(&event)) {
    switch (run_end->reason) {
      case core::RunStopReason::kDone:
        break;
      case core::RunStopReason::kAborted:
        write(err_, "nib: aborted\n");
        break;
      case core::RunStopReason::kMaxTurns:
        write(err_, "nib: " + run_end->error_message + kGoOnAfterTurnLimit + '\n');
        break;
      case core::RunStopReason::kMaxBudget:
        write(err_, "nib: " + run_end->error_message + kGoOnAfterSpendingCap + '\n');
        break;
      case core::RunStopReason::kError:
        write(err_, "nib: " + run_end->error_message + '\n');
        break;
    }
    if (run_end->turns > 0) {
      std::string line = usage_summary(run_end->turns, run_end->usage + subagent_usage_, cost_);
      if (subagent_runs_ > 0) line += " (with " + util::plural(subagent_runs_, "subagent") + ")";
      write(err_, "nib: " + line + '\n');
    }
  }
}

}  // namespace nib::ui
