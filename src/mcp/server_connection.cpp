#include "mcp/server_connection.hpp"

#include "mcp/call_result.hpp"
#include "mcp/http_transport.hpp"
#include "mcp/limits.hpp"
#include "mcp/stdio_transport.hpp"
#include "process/subprocess.hpp"

namespace nib::mcp {

const char* state_name(ServerState state) {
  switch (state) {
    case ServerState::kConnecting:
      return "connecting";
    case ServerState::kReady:
      return "ready";
    case ServerState::kFailed:
      return "failed";
    case ServerState::kNotApproved:
      return "not approved";
  }
  return "?";
}

TransportFactory real_transports(std::filesystem::path cwd,
                                 std::vector<std::string> base_environment) {
  return [cwd = std::move(cwd), base = std::move(base_environment)](
             const ServerConfig& config) -> util::Result<std::unique_ptr<Transport>> {
    using Result = util::Result<std::unique_ptr<Transport>>;
    if (config.kind == ServerConfig::Kind::kHttp) {
      return make_http_transport({config.url, config.headers, config.name});
    }
    std::vector<const char*> entries;
    for (const std::string& entry : base) entries.push_back(entry.c_str());
    entries.push_back(nullptr);
    const std::vector<std::string> environment =
        process::merge_environment(entries.data(), config.env);
    const std::filesystem::path directory = config.cwd.empty() ? cwd : cwd / config.cwd;
    auto program = find_program(config.command, environment, directory);
    if (!program.ok()) return Result::failure(program.error());
    std::vector<std::string> argv = {program.value()};
    argv.insert(argv.end(), config.args.begin(), config.args.end());
    return make_stdio_transport({std::move(argv), directory, environment, config.name});
  };
}

ServerConnection::ServerConnection(ServerConfig config, ConnectionOptions options)
    : config_(std::move(config)), options_(std::move(options)) {
  status_.name = config_.name;
  status_.origin = config_.origin;
  status_.transport = describe_transport(config_);
}

void ServerConnection::set_on_change(std::function<void(ServerChange)> on_change) {
  std::lock_guard lock(mutex_);
  on_change_ = std::move(on_change);
}

std::string ServerConnection::with_stderr(const std::string& reason, const Client& client) const {
  const std::string diagnostics = client.diagnostics();
  return diagnostics.empty() ? reason : reason + "\n" + diagnostics;
}

void ServerConnection::fail(std::string reason) {
  std::function<void(ServerChange)> on_change;
  {
    std::lock_guard lock(mutex_);
    status_.state = ServerState::kFailed;
    status_.detail = std::move(reason);
    on_change = on_change_;
  }
  if (on_change) on_change(ServerChange::kState);
}

util::Result<std::shared_ptr<Client>> ServerConnection::connect(std::stop_token stop) {
  using Result = util::Result<std::shared_ptr<Client>>;
  auto transport = options_.make_transport(config_);
  if (!transport.ok()) return Result::failure(transport.error());
  auto client = std::make_shared<Client>(std::move(transport.value()), *options_.clock);
  const auto timeout = config_.startup_timeout.value_or(options_.startup_timeout);
  auto hello = client->connect(stop, timeout);
  if (!hello.ok()) return Result::failure(with_stderr(hello.error(), *client));
  {
    std::lock_guard lock(mutex_);
    offers_prompts_ = hello.value().has_prompts;
  }
  // The client outlives its transport's threads, which make this call (~Client joins them).
  client->set_on_closed([this, raw = client.get()](const std::string& reason) {
    fail("the server stopped: " + with_stderr(reason, *raw));
  });
  client->set_on_list_changed([this](Client::ListKind kind) {
    std::function<void(ServerChange)> on_change;
    {
      std::lock_guard lock(mutex_);
      on_change = on_change_;
    }
    if (on_change) {
      on_change(kind == Client::ListKind::kTools ? ServerChange::kTools : ServerChange::kPrompts);
    }
  });
  return client;
}

util::Result<std::vector<ServerTool>> ServerConnection::start(std::stop_token stop) {
  using Result = util::Result<std::vector<ServerTool>>;
  std::lock_guard connecting(connect_mutex_);
  auto client = connect(stop);
  if (!client.ok()) {
    fail(client.error());
    return Result::failure(client.error());
  }
  const auto timeout = config_.startup_timeout.value_or(options_.startup_timeout);
  auto tools = client.value()->list_tools(stop, timeout);
  if (!tools.ok()) {
    const std::string reason = with_stderr(tools.error(), *client.value());
    fail(reason);
    return Result::failure(reason);
  }
  // Prompts are optional: a server without them (or failing to list them) still serves tools.
  bool offers_prompts = false;
  {
    std::lock_guard lock(mutex_);
    offers_prompts = offers_prompts_;
  }
  auto prompts = offers_prompts
                     ? client.value()->list_prompts(stop, timeout)
                     : util::Result<std::vector<ServerPrompt>>(std::vector<ServerPrompt>{});
  std::lock_guard lock(mutex_);
  client_ = std::move(client.value());
  status_.state = ServerState::kReady;
  if (prompts.ok()) status_.prompts = std::move(prompts.value());
  return tools;
}

void ServerConnection::set_tools(std::vector<std::string> names, std::string left_out) {
  std::lock_guard lock(mutex_);
  status_.tools = std::move(names);
  status_.detail = std::move(left_out);
}

util::Result<std::shared_ptr<Client>> ServerConnection::live_client(std::stop_token stop) {
  using Result = util::Result<std::shared_ptr<Client>>;
  {
    std::lock_guard lock(mutex_);
    if (client_ && !client_->closed()) return client_;
  }
  std::lock_guard connecting(connect_mutex_);
  std::string reason;
  {
    std::lock_guard lock(mutex_);
    if (client_ && !client_->closed()) return client_;  // another call restarted it meanwhile
    if (restarts_left_ == 0 || !client_) {
      return Result::failure("the MCP server " + config_.name +
                             " is not running: " + status_.detail);
    }
    --restarts_left_;
  }
  auto client = connect(stop);
  if (!client.ok()) {
    fail("restarting it failed: " + client.error());
    return Result::failure("the MCP server " + config_.name +
                           " stopped and restarting it failed: " + client.error());
  }
  std::lock_guard lock(mutex_);
  client_ = client.value();
  status_.state = ServerState::kReady;
  status_.detail.clear();
  return client;
}

core::ToolOutput ServerConnection::call_tool(const std::string& tool, const nlohmann::json& args,
                                             std::stop_token stop) {
  auto client = live_client(stop);
  if (!client.ok()) return core::ToolOutput::error("Error: " + client.error());
  RequestFailure failure;
  const auto timeout = config_.call_timeout.value_or(options_.call_timeout);
  auto result = client.value()->request("tools/call", {{"name", tool}, {"arguments", args}}, stop,
                                        timeout, &failure);
  if (result.ok()) return map_call_result(result.value());
  switch (failure.kind) {
    case RequestFailure::Kind::kError:
      return core::ToolOutput::error("Error: the MCP server " + config_.name +
                                     " refused the call: " + failure.message);
    case RequestFailure::Kind::kTimedOut:
      return core::ToolOutput::error("Error: the MCP server " + config_.name + " gave " +
                                     failure.message +
                                     ". Try a smaller task, or ask the user to raise the "
                                     "server's callTimeoutMs.");
    case RequestFailure::Kind::kStopped:
      return core::ToolOutput::error("Error: " + failure.message);
    case RequestFailure::Kind::kClosed:
      break;
  }
  std::string message = "Error: the MCP server " + config_.name + " stopped before it answered: " +
                        with_stderr(failure.message, *client.value());
  {
    std::lock_guard lock(mutex_);
    message += restarts_left_ > 0 ? "\nIt will be restarted at the next call."
                                  : "\nIt will not be restarted again.";
  }
  return core::ToolOutput::error(std::move(message));
}

util::Result<std::vector<ServerTool>> ServerConnection::list_tools(std::stop_token stop) {
  auto client = live_client(stop);
  if (!client.ok()) return util::Result<std::vector<ServerTool>>::failure(client.error());
  return client.value()->list_tools(stop,
                                    config_.startup_timeout.value_or(options_.startup_timeout));
}

util::Status ServerConnection::list_prompts(std::stop_token stop) {
  auto client = live_client(stop);
  if (!client.ok()) return util::Status::failure(client.error());
  {
    std::lock_guard lock(mutex_);
    if (!offers_prompts_) return util::Status::success();
  }
  auto prompts = client.value()->list_prompts(
      stop, config_.startup_timeout.value_or(options_.startup_timeout));
  if (!prompts.ok()) return util::Status::failure(prompts.error());
  std::lock_guard lock(mutex_);
  status_.prompts = std::move(prompts.value());
  return util::Status::success();
}

util::Result<core::Content> ServerConnection::get_prompt(const std::string& prompt,
                                                         const nlohmann::json& args,
                                                         std::stop_token stop) {
  using Result = util::Result<core::Content>;
  auto client = live_client(stop);
  if (!client.ok()) return Result::failure(client.error());
  auto result = client.value()->request("prompts/get", {{"name", prompt}, {"arguments", args}},
                                        stop, config_.call_timeout.value_or(options_.call_timeout));
  if (!result.ok()) {
    return Result::failure("the MCP server " + config_.name + " could not give the prompt " +
                           prompt + ": " + result.error());
  }
  const nlohmann::json& value = result.value();
  const auto messages = value.is_object() ? value.find("messages") : value.end();
  if (messages == value.end() || !messages->is_array()) {
    return Result::failure("the MCP server " + config_.name + " answered prompts/get for " +
                           prompt + " without a \"messages\" array");
  }
  // Every message's content, whatever its role, as one turn of the user's (as Claude Code does).
  nlohmann::json contents = nlohmann::json::array();
  for (const nlohmann::json& message : *messages) {
    if (message.is_object() && message.contains("content")) contents.push_back(message["content"]);
  }
  if (contents.empty()) {
    return Result::failure("the MCP server " + config_.name + "'s prompt " + prompt +
                           " has no messages");
  }
  return std::move(*map_call_result({{"content", std::move(contents)}}).content);
}

void ServerConnection::shutdown() {
  std::shared_ptr<Client> client;
  {
    std::lock_guard lock(mutex_);
    client = std::move(client_);
    restarts_left_ = 0;
    on_change_ = nullptr;
    if (status_.state != ServerState::kFailed) {
      status_.state = ServerState::kFailed;
      status_.detail = "nib stopped it";
    }
  }
}

ServerStatus ServerConnection::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace nib::mcp
