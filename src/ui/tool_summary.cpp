#include "ui/tool_summary.hpp"

#include <nlohmann/json.hpp>

#include "util/json_depth.hpp"
#include "util/terminal_sanitize.hpp"
#include "util/utf8.hpp"

namespace nib::ui {
namespace {

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// One line of at most `width` bytes, cleaned of control sequences: arguments and results come
// from the model and from commands, and the line goes to a terminal.
std::string fit(std::string text, std::size_t width) {
  text = util::sanitize_terminal_output(text);
  if (text.size() <= width) return text;
  return text.substr(0, util::utf8_prefix_length(text, width - 3)) + "...";
}

}  // namespace

std::string format_duration(std::chrono::milliseconds duration) {
  char buffer[32];
  if (duration.count() < 1000) return std::to_string(duration.count()) + " ms";
  if (duration.count() < 60'000) {
    std::snprintf(buffer, sizeof buffer, "%.1f s", static_cast<double>(duration.count()) / 1000);
  } else {
    const long long seconds = duration.count() / 1000;
    std::snprintf(buffer, sizeof buffer, "%lld m %02lld s", seconds / 60, seconds % 60);
  }
  return buffer;
}

std::string ToolPresenter::call(const std::string& name, const std::string& arguments) const {
  const auto args = util::parse_untrusted_json(arguments);
  if (!args.is_object()) return fit(name + " " + arguments, kSummaryWidth);
  const core::RegisteredTool* registered = tools_ != nullptr ? tools_->find(name) : nullptr;
  std::string detail = registered != nullptr ? registered->tool->describe_call(args) : "";
  if (detail.empty() && !args.empty()) {
    detail = args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return fit(detail.empty() ? name : name + " " + first_line(detail), kSummaryWidth);
}

std::optional<std::string> ToolPresenter::result(const std::string& name,
                                                 const std::string& arguments,
                                                 const core::ToolResult& result) const {
  const core::RegisteredTool* registered = tools_ != nullptr ? tools_->find(name) : nullptr;
  if (registered == nullptr) return std::nullopt;
  const auto args = util::parse_untrusted_json(arguments);
  return registered->tool->describe_result(args.is_object() ? args : nlohmann::json::object(),
                                           result);
}

std::string outcome_line(const std::string& call_summary, const core::ToolOutcome& outcome) {
  const bool exited_non_zero = outcome.result.exit_code && *outcome.result.exit_code != 0;
  std::string line = (outcome.result.is_error || exited_non_zero ? "✗ " : "✓ ") + call_summary;
  if (exited_non_zero) {
    line += ": exit " + std::to_string(*outcome.result.exit_code);
  } else if (outcome.result.is_error) {
    line += ": " + fit(first_line(core::content_text(outcome.result.content)), kSummaryWidth);
  }
  return line + " (" + format_duration(outcome.duration) + ")";
}

}  // namespace nib::ui
