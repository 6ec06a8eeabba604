#include "mcp/mcp_tool.hpp"

#include "mcp/tool_name.hpp"
#include "util/json_text.hpp"
#include "util/text_cut.hpp"

namespace nib::mcp {
namespace {

// The call as people see it: the arguments as compact JSON, cut to a line.
constexpr std::size_t kDescribedArgumentBytes = 100;

class McpTool final : public core::Tool {
 public:
  McpTool(std::shared_ptr<ServerConnection> connection, const ServerTool& tool)
      : core::Tool(spec_for(connection->config().name, tool)),
        connection_(std::move(connection)),
        remote_name_(tool.name) {}

  core::ToolOutput execute(const nlohmann::json& args, std::stop_token stop,
                           const core::ToolContext& /*context*/) override {
    return connection_->call_tool(remote_name_, args, stop);
  }

  std::string describe_call(const nlohmann::json& args) const override {
    if (!args.is_object() || args.empty()) return connection_->config().name;
    return util::cut_text(util::json_text(args), kDescribedArgumentBytes);
  }

  std::optional<std::string> describe_result(const nlohmann::json& /*args*/,
                                             const core::ToolResult& result) const override {
    std::size_t images = 0;
    for (const core::ContentBlock& block : result.content) {
      images += std::holds_alternative<core::ImageBlock>(block) ? 1 : 0;
    }
    if (images == 0) return std::nullopt;
    return std::to_string(images) + (images == 1 ? " image" : " images") + " from " +
           connection_->config().name;
  }

 private:
  static core::ToolSpec spec_for(const std::string& server, const ServerTool& tool) {
    core::ToolSpec spec;
    spec.name = tool_name(server, tool.name);
    std::string description = tool.description.empty() ? tool.title : tool.description;
    spec.description = "[MCP server " + server + "] " + description;
    spec.parameters =
        tool.input_schema.is_object() ? tool.input_schema : nlohmann::json{{"type", "object"}};
    spec.concurrency_safe = tool.read_only;
    // Whatever its readOnlyHint says (the server's word, not nib's), it acts outside the
    // sandbox with its server's rights.
    spec.access = core::AccessKind::kExternal;
    return spec;
  }

  const std::shared_ptr<ServerConnection> connection_;
  const std::string remote_name_;
};

}  // namespace

core::ToolPtr make_mcp_tool(std::shared_ptr<ServerConnection> connection, const ServerTool& tool) {
  return std::make_shared<McpTool>(std::move(connection), tool);
}

}  // namespace nib::mcp
