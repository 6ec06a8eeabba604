#include "ui/tool_summary.hpp"

#include <nlohmann/json.hpp>

#include "util/json_depth.hpp"
#include "util/json_text.hpp"
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
  return text.substr(0, util::utf8_prefix_length(text, width - 3)) + "…";  // "…" is 3 bytes
}

// The tool of `name` when `args` passed its schema: only then may its own presentation code
// read them (a model's call may be anything until validated).
const core::Tool* validated_tool(const core::ToolRegistry* tools, const std::string& name,
                                 const nlohmann::json& args) {
  const core::RegisteredTool* registered = tools != nullptr ? tools->find(name) : nullptr;
  if (registered == nullptr || !args.is_object() || !registered->schema->validate(args).empty()) {
    return nullptr;
  }
  return registered->tool.get();
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
  std::string detail;
  if (const core::Tool* tool = validated_tool(tools_, name, args)) {
    try {
      detail = tool->describe_call(args);
    } catch (const std::exception&) {
      detail.clear();  // the compact arguments say enough
    }
  }
  if (detail.empty() && !args.empty()) detail = util::json_text(args);
  return fit(detail.empty() ? name : name + " " + first_line(detail), kSummaryWidth);
}

std::optional<std::string> ToolPresenter::result(const std::string& name,
                                                 const std::string& arguments,
                                                 const core::ToolResult& result) const {
  const core::Tool* tool = validated_tool(tools_, name, util::parse_untrusted_json(arguments));
  if (tool == nullptr) return std::nullopt;
  try {
    return tool->describe_result(util::parse_untrusted_json(arguments), result);
  } catch (const std::exception&) {
    return std::nullopt;
  }
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
