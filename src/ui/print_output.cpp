#include "ui/print_output.hpp"

#include "core/message_json.hpp"
#include "ui/tool_summary.hpp"

namespace nib::ui {

PrintOutput::PrintOutput(PrintFormat format, std::ostream& out, std::ostream& err, bool live_text)
    : format_(format), out_(out), err_(err), live_text_(live_text) {}

void PrintOutput::on_event(const core::Event& event) {
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    final_text_ = core::assistant_text(end->message);
  }
  if (format_ == PrintFormat::kStreamJson) {
    auto line = core::to_json(event);
    if (std::holds_alternative<core::RunEndEvent>(event)) line["result"] = final_text_;
    out_ << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n'
         << std::flush;
    return;
  }
  if (const auto* retry = std::get_if<core::RetryEvent>(&event)) {
    err_ << "nib: " << retry->reason << "; retrying in " << retry->delay.count() << " ms\n"
         << std::flush;
  } else if (format_ == PrintFormat::kText) {
    on_text_event(event);
  } else if (std::holds_alternative<core::RunEndEvent>(event)) {
    auto result = core::to_json(event);
    result["result"] = final_text_;
    out_ << result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n'
         << std::flush;
  }
}

void PrintOutput::on_text_event(const core::Event& event) {
  if (const auto* delta = std::get_if<core::TextDeltaEvent>(&event)) {
    if (live_text_) {
      out_ << delta->text << std::flush;
      wrote_live_text_ = true;
    }
  } else if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    const bool has_calls = !core::tool_calls_of(end->message).empty();
    // A reply that failed or was aborted is not an answer; the run's end says what happened.
    const bool complete = end->message.stop_reason != core::StopReason::kError &&
                          end->message.stop_reason != core::StopReason::kAborted;
    std::string text = final_text_;
    if (!text.empty() && text.back() != '\n') text += '\n';
    if (live_text_) {
      if (wrote_live_text_ && final_text_.back() != '\n') out_ << '\n' << std::flush;
    } else if (has_calls || !complete) {
      err_ << text << std::flush;  // commentary before tool calls is not the answer
    } else {
      out_ << text << std::flush;
    }
    wrote_live_text_ = false;
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
    err_ << std::flush;
  }
}

}  // namespace nib::ui
