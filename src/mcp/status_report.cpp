#include "mcp/status_report.hpp"

#include "mcp/tool_name.hpp"

namespace nib::mcp {
namespace {

// The names of `items` joined with ", ".
template <typename Item, typename Name>
std::string names_of(const std::vector<Item>& items, Name name) {
  std::string text;
  for (const Item& item : items) text += (text.empty() ? "" : ", ") + name(item);
  return text;
}

}  // namespace

std::string prompt_command_name(const std::string& server, const std::string& prompt) {
  return tool_prefix(server) + prompt;
}

std::string status_line(const ServerStatus& status) {
  std::string line = status.name + "  " + state_name(status.state);
  switch (status.state) {
    case ServerState::kReady:
      line += "  " + std::to_string(status.tools.size()) +
              (status.tools.size() == 1 ? " tool" : " tools");
      break;
    case ServerState::kFailed:
      line += "  " + status.detail.substr(0, status.detail.find('\n'));
      break;
    case ServerState::kNotApproved:
      line += "  (nib mcp approve " + status.name + ")";
      break;
    case ServerState::kConnecting:
      break;
  }
  return status.origin.empty() ? line : line + "  " + status.origin;
}

std::string status_report(const ServerStatus& status) {
  std::string report = status_line(status) + "\n";
  const auto add = [&report](const std::string& line) { report += "  " + line + "\n"; };
  if (!status.transport.empty()) add(status.transport);
  if (!status.tools.empty()) {
    add("tools: " + names_of(status.tools, [](const std::string& name) { return name; }));
  }
  if (!status.prompts.empty()) {
    add("prompts: " + names_of(status.prompts, [&](const ServerPrompt& prompt) {
          return "/" + prompt_command_name(status.name, prompt.name);
        }));
  }
  // A failure's first line is in the status line already; the rest is the end of its stderr.
  std::string detail = status.detail;
  if (status.state == ServerState::kFailed) {
    const std::size_t newline = detail.find('\n');
    detail = newline == std::string::npos ? "" : detail.substr(newline + 1);
  }
  for (std::size_t at = 0; at < detail.size();) {
    const std::size_t end = std::min(detail.find('\n', at), detail.size());
    if (end > at) add(detail.substr(at, end - at));
    at = end + 1;
  }
  return report;
}

}  // namespace nib::mcp
