#include "core/tool.hpp"

namespace nib::core {
namespace {

class FunctionTool final : public Tool {
 public:
  FunctionTool(ToolSpec spec, ToolFunction function)
      : Tool(std::move(spec)), function_(std::move(function)) {}

  ToolOutput execute(const nlohmann::json& args, std::stop_token stop,
                     const ToolContext& context) override {
    return function_(args, std::move(stop), context);
  }

 private:
  ToolFunction function_;
};

}  // namespace

ToolPtr make_tool(ToolSpec spec, ToolFunction function) {
  return std::make_shared<FunctionTool>(std::move(spec), std::move(function));
}

}  // namespace nib::core
