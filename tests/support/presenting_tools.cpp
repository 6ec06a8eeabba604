#include "support/presenting_tools.hpp"
#include "support/registry_of.hpp"

#include <algorithm>
#include <functional>

namespace nib::testing {
namespace {

using nlohmann::json;

std::string field(const json& args, const char* key) {
  const auto it = args.find(key);
  return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

class PresentingTool final : public core::Tool {
 public:
  using Describe = std::function<std::string(const json&)>;
  using DescribeResult = std::function<std::optional<std::string>(const core::ToolResult&)>;

  PresentingTool(std::string name, Describe describe, DescribeResult describe_result = {})
      : Tool({std::move(name), "", {{"type", "object"}}, true}),
        describe_(std::move(describe)),
        describe_result_(std::move(describe_result)) {}

  core::ToolOutput execute(const json&, std::stop_token, const core::ToolContext&) override {
    return core::ToolOutput{""};
  }
  std::string describe_call(const json& args) const override { return describe_(args); }
  std::optional<std::string> describe_result(const json&,
                                             const core::ToolResult& result) const override {
    return describe_result_ ? describe_result_(result) : std::nullopt;
  }

 private:
  Describe describe_;
  DescribeResult describe_result_;
};

std::string path_of(const json& args) {
  const std::string pattern = field(args, "pattern");
  const std::string path = field(args, "path");
  return pattern.empty() ? path : (path.empty() ? pattern : pattern + " in " + path);
}

std::optional<std::string> lines_read(const core::ToolResult& result) {
  if (result.is_error) return std::nullopt;
  const std::string text = core::content_text(result.content);
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return "Read " + std::to_string(lines) + (lines == 1 ? " line" : " lines");
}

}  // namespace

std::unique_ptr<core::ToolRegistry> presenting_tools() {
  std::vector<core::ToolPtr> tools{
      std::make_shared<PresentingTool>("bash",
                                       [](const json& args) { return field(args, "command"); }),
      std::make_shared<PresentingTool>("read", path_of, lines_read),
      std::make_shared<PresentingTool>("edit", path_of),
      std::make_shared<PresentingTool>("write", path_of),
      std::make_shared<PresentingTool>("grep", path_of),
  };
  return registry_of(std::move(tools));
}

}  // namespace nib::testing
