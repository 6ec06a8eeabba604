#include "ui/print_output.hpp"

#include <cstdio>

#include "core/message_json.hpp"
#include "ui/tool_summary.hpp"

namespace nib::ui {

namespace {

// 1234567 -> "1,234,567".
std::string grouped(std::int64_t value) {
  std::string digits = std::to_string(value);
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0 && digits[at - 1] != '-';
       at -= 3) {
    digits.insert(static_cast<std::size_t>(at), ",");
  }
  return digits;
}

}  // namespace

std::string usage_summary(int turns, const core::Usage& usage, const CostFunction& cost) {
  std::string text = std::to_string(turns) + (turns == 1 ? " turn, " : " turns, ") +
                     grouped(usage.input_tokens) + " tokens in";
  const std::int64_t cached = usage.cache_read_tokens + usage.cache_write_tokens;
  if (cached > 0) text += " (+" + grouped(cached) + " cached)";
  text += ", " + grouped(usage.output_tokens) + " out";
  if (cost) {
    char price[32];
    std::snprintf(price, sizeof price, ", $%.4f", cost(usage));
    text += price;
  }
  return text;
}

PrintOutput::PrintOutput(PrintFormat format, std::ostream& out, std::ostream& err, bool live_text,
                         CostFunction cost)
    : format_(format), out_(out), err_(err), live_text_(live_text), cost_(std::move(cost)) {}

nlohmann::json PrintOutput::event_json(const core::Event& event) const {
  auto line = core::to_json(event);
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event); end != nullptr && cost_) {
    line["cost_usd"] = cost_(end->message.usage);
  } else if (const auto* run_end = std::get_if<core::RunEndEvent>(&event)) {
    line["result"] = final_text_;
    if (cost_) line["cost_usd"] = cost_(run_end->usage);
  }
  return line;
}

void PrintOutput::on_event(const core::Event& event) {
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    final_text_ = core::assistant_text(end->message);
  }
  if (format_ == PrintFormat::kStreamJson) {
    out_ << event_json(event).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n'
         << std::flush;
    return;
  }
  if (const auto* retry = std::get_if<core::RetryEvent>(&event)) {
    err_ << "nib: " << retry->reason << "; retrying in " << retry->delay.count() << " ms\n"
         << std::flush;
  } else if (format_ == PrintFormat::kText) {
    on_text_event(event);
  } else if (std::holds_alternative<core::RunEndEvent>(event)) {
    out_ << event_json(event).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n'
         << std::flush;
  }
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event);
      end != nullptr && core::is_empty_reply(end->message)) {
    err_ << "nib: the model returned an empty reply\n" << std::flush;
  }
}

void PrintOutput::on_text_event(const core::Event& event) {
  if (const auto* delta = std::get_if<core::TextDeltaEvent>(&event)) {
    if (live_text_) {
      out_ << delta->text << std::flush;
      wrote_live_text_ = true;
      if (!delta->text.empty()) live_text_ends_line_ = delta->text.back() == '\n';
    }
  } else if (std::holds_alternative<core::ReplyRestartEvent>(event)) {
    // Text already written cannot be taken back; without live text nothing was written, and
    // the final text is the new attempt's.
    if (wrote_live_text_) {
      if (!live_text_ends_line_) out_ << '\n' << std::flush;
      err_ << "nib: the service started its reply over; the text above was abandoned\n"
           << std::flush;
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
      if (wrote_live_text_ && !live_text_ends_line_) out_ << '\n' << std::flush;
    } else if (has_calls || !complete) {
      err_ << text << std::flush;  // commentary before tool calls is not the answer
    } else {
      out_ << text << std::flush;
    }
    wrote_live_text_ = false;
    live_text_ends_line_ = true;
  } else if (const auto* start = std::get_if<core::ToolStartEvent>(&event)) {
    summaries_[start->id] = summarize_call(start->name, start->arguments);
  } else if (const auto* tool_end = std::get_if<core::ToolEndEvent>(&event)) {
    const auto& id = tool_end->outcome.result.tool_call_id;
    err_ << outcome_line(summaries_[id], tool_end->outcome) << '\n' << std::flush;
    summaries_.erase(id);
  } else if (const auto* run_end = std::get_if<core::RunEndEvent>(&event)) {
    switch (run_end->reason) {
      case core::RunStopReason::kDone:
        break;
      case core::RunStopReason::kAborted:
        err_ << "nib: aborted\n";
        break;
      case core::RunStopReason::kMaxTurns:
      case core::RunStopReason::kError:
        err_ << "nib: " << run_end->error_message << '\n';
        break;
    }
    if (run_end->turns > 0)
      err_ << "nib: " << usage_summary(run_end->turns, run_end->usage, cost_) << '\n';
    err_ << std::flush;
  }
}

}  // namespace nib::ui
