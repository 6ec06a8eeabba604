#include "mcp/client.hpp"

#include <algorithm>

#include "mcp/limits.hpp"

namespace nib::mcp {
namespace {

std::string seconds_text(std::chrono::milliseconds duration) {
  const auto count = duration.count();
  if (count % 1000 == 0) return std::to_string(count / 1000) + " s";
  return std::to_string(count) + " ms";
}

ServerTool parse_tool(const nlohmann::json& item) {
  ServerTool tool;
  tool.name = item.value("name", std::string());
  tool.title = item.value("title", std::string());
  tool.description = item.value("description", std::string());
  tool.input_schema = item.value("inputSchema", nlohmann::json());
  if (const auto annotations = item.find("annotations");
      annotations != item.end() && annotations->is_object()) {
    tool.read_only = annotations->value("readOnlyHint", false);
    if (tool.title.empty()) tool.title = annotations->value("title", std::string());
  }
  return tool;
}

ServerPrompt parse_prompt(const nlohmann::json& item) {
  ServerPrompt prompt;
  prompt.name = item.value("name", std::string());
  prompt.description = item.value("description", std::string());
  if (const auto arguments = item.find("arguments");
      arguments != item.end() && arguments->is_array()) {
    for (const nlohmann::json& argument : *arguments) {
      if (!argument.is_object()) continue;
      prompt.arguments.push_back({argument.value("name", std::string()),
                                  argument.value("description", std::string()),
                                  argument.value("required", false)});
    }
  }
  return prompt;
}

}  // namespace

Client::Client(std::unique_ptr<Transport> transport, core::Clock& clock)
    : transport_(std::move(transport)), clock_(clock) {}

Client::~Client() {
  transport_->close();
}

util::Result<ServerHello> Client::connect(std::stop_token stop, std::chrono::milliseconds timeout) {
  using Result = util::Result<ServerHello>;
  const util::Status opened =
      transport_->open({.on_message = [this](Incoming message) { on_message(std::move(message)); },
                        .on_closed = [this](const std::string& reason) { on_closed(reason); }});
  if (!opened.ok()) return Result::failure(opened.error());
  const nlohmann::json params = {{"protocolVersion", kProtocolVersion},
                                 {"capabilities", nlohmann::json::object()},
                                 {"clientInfo", {{"name", "nib"}, {"version", "0.1.0"}}}};
  auto answer = request("initialize", params, stop, timeout);
  if (!answer.ok()) return Result::failure(answer.error());
  const nlohmann::json& result = answer.value();
  if (!result.is_object()) return Result::failure("initialize's answer is not an object");
  ServerHello hello;
  hello.protocol_version = result.value("protocolVersion", std::string());
  const bool accepted =
      std::any_of(std::begin(kAcceptedProtocolVersions), std::end(kAcceptedProtocolVersions),
                  [&](const char* v) { return hello.protocol_version == v; });
  if (!accepted) {
    return Result::failure("the server speaks MCP revision \"" + hello.protocol_version +
                           "\"; nib speaks 2025-11-25 and 2025-06-18");
  }
  if (const auto info = result.find("serverInfo"); info != result.end() && info->is_object()) {
    hello.server_name = info->value("name", std::string());
    hello.server_version = info->value("version", std::string());
  }
  hello.instructions = result.value("instructions", std::string());
  if (const auto capabilities = result.find("capabilities");
      capabilities != result.end() && capabilities->is_object()) {
    hello.has_tools = capabilities->contains("tools");
    hello.has_prompts = capabilities->contains("prompts");
  }
  const util::Status sent =
      transport_->send(make_notification("notifications/initialized", nullptr));
  if (!sent.ok()) return Result::failure(sent.error());
  return hello;
}

util::Result<nlohmann::json> Client::request(const std::string& method, nlohmann::json params,
                                             std::stop_token stop,
                                             std::chrono::milliseconds timeout,
                                             RequestFailure* failure) {
  using Result = util::Result<nlohmann::json>;
  const auto fail = [&](RequestFailure::Kind kind, std::string message) {
    if (failure) *failure = {kind, message};
    return Result::failure(std::move(message));
  };
  const auto deadline = clock_.now() + timeout;
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return fail(RequestFailure::Kind::kClosed, closed_reason_);
    id = next_id_++;
    pending_.emplace(id, Pending{});
  }
  const auto forget = [&] {
    std::lock_guard lock(mutex_);
    pending_.erase(id);
  };
  const util::Status sent = transport_->send(make_request(id, method, std::move(params)));
  if (!sent.ok()) {
    forget();
    return fail(RequestFailure::Kind::kClosed, sent.error());
  }
  // Before the lock: a stop already requested runs the callback right here.
  std::stop_callback wake(stop, [this] {
    std::lock_guard inner(mutex_);
    changed_.notify_all();
  });
  std::unique_lock lock(mutex_);
  while (true) {
    Pending& pending = pending_.at(id);
    if (pending.response) {
      Incoming response = std::move(*pending.response);
      pending_.erase(id);
      if (response.error) {
        return fail(response.error->code == kNoAnswer ? RequestFailure::Kind::kClosed
                                                      : RequestFailure::Kind::kError,
                    response.error->message);
      }
      return std::move(response.result);
    }
    if (closed_) {
      pending_.erase(id);
      return fail(RequestFailure::Kind::kClosed, closed_reason_);
    }
    const bool stopped = stop.stop_requested();
    if (stopped || clock_.now() >= deadline) {
      pending_.erase(id);
      lock.unlock();
      const std::string reason = stopped ? "the user interrupted the request"
                                         : "no answer within " + seconds_text(timeout);
      // The server may stop working on it; its late answer, if any, is dropped.
      transport_->send(
          make_notification("notifications/cancelled", {{"requestId", id}, {"reason", reason}}));
      transport_->abandon(id);
      return stopped ? fail(RequestFailure::Kind::kStopped,
                            "interrupted: " + method + " was cancelled before the answer came")
                     : fail(RequestFailure::Kind::kTimedOut,
                            reason + " to " + method + " (the server was asked to cancel it)");
    }
    clock_.wait_until(changed_, lock, deadline);
  }
}

util::Result<nlohmann::json> Client::list_page(const std::string& method, const std::string& cursor,
                                               std::stop_token stop,
                                               std::chrono::milliseconds timeout) {
  nlohmann::json params = nlohmann::json::object();
  if (!cursor.empty()) params["cursor"] = cursor;
  return request(method, std::move(params), stop, timeout);
}

template <typename Item>
util::Result<std::vector<Item>> Client::list_all(const std::string& method, const char* field,
                                                 Item (*parse)(const nlohmann::json&),
                                                 std::stop_token stop,
                                                 std::chrono::milliseconds timeout) {
  using Result = util::Result<std::vector<Item>>;
  std::vector<Item> items;
  std::string cursor;
  for (int page = 0; page < kMaxListPages; ++page) {
    auto answer = list_page(method, cursor, stop, timeout);
    if (!answer.ok()) return Result::failure(method + ": " + answer.error());
    const nlohmann::json& result = answer.value();
    const auto list = result.is_object() ? result.find(field) : result.end();
    if (!result.is_object() || list == result.end() || !list->is_array()) {
      return Result::failure(method + ": the answer has no \"" + field + "\" array");
    }
    for (const nlohmann::json& item : *list) {
      if (item.is_object()) items.push_back(parse(item));
    }
    const auto next = result.find("nextCursor");
    if (next == result.end() || !next->is_string() || next->get<std::string>().empty()) {
      return items;
    }
    cursor = next->get<std::string>();
  }
  return Result::failure(method + ": the server's list did not end within " +
                         std::to_string(kMaxListPages) + " pages");
}

util::Result<std::vector<ServerTool>> Client::list_tools(std::stop_token stop,
                                                         std::chrono::milliseconds timeout) {
  return list_all<ServerTool>("tools/list", "tools", &parse_tool, stop, timeout);
}

util::Result<std::vector<ServerPrompt>> Client::list_prompts(std::stop_token stop,
                                                             std::chrono::milliseconds timeout) {
  return list_all<ServerPrompt>("prompts/list", "prompts", &parse_prompt, stop, timeout);
}

void Client::set_on_list_changed(std::function<void(ListKind)> callback) {
  std::lock_guard lock(mutex_);
  on_list_changed_ = std::move(callback);
}

void Client::set_on_closed(std::function<void(const std::string&)> callback) {
  std::lock_guard lock(mutex_);
  on_closed_callback_ = std::move(callback);
}

bool Client::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

std::string Client::closed_reason() const {
  std::lock_guard lock(mutex_);
  return closed_reason_;
}

std::string Client::diagnostics() const {
  return transport_->diagnostics();
}

void Client::on_message(Incoming message) {
  switch (message.kind) {
    case Incoming::Kind::kResponse: {
      if (!message.id.is_number_integer()) return;
      std::lock_guard lock(mutex_);
      const auto pending = pending_.find(message.id.get<std::int64_t>());
      if (pending == pending_.end()) return;  // cancelled or timed out: dropped
      pending->second.response = std::move(message);
      changed_.notify_all();
      return;
    }
    case Incoming::Kind::kRequest:
      // ping must be answered; nib offers no client features (roots, sampling, elicitation).
      if (message.method == "ping") {
        transport_->send(make_response(message.id, nlohmann::json::object()));
      } else {
        transport_->send(make_error_response(message.id, kMethodNotFound,
                                             "nib does not support " + message.method));
      }
      return;
    case Incoming::Kind::kNotification:
      if (message.method == "notifications/tools/list_changed" ||
          message.method == "notifications/prompts/list_changed") {
        std::function<void(ListKind)> callback;
        {
          std::lock_guard lock(mutex_);
          callback = on_list_changed_;
        }
        if (callback) {
          callback(message.method == "notifications/tools/list_changed" ? ListKind::kTools
                                                                        : ListKind::kPrompts);
        }
      }
      return;
  }
}

void Client::on_closed(const std::string& reason) {
  std::function<void(const std::string&)> callback;
  {
    std::lock_guard lock(mutex_);
    callback = on_closed_callback_;
  }
  // First, so that whoever sees a call fail also sees what the callback recorded.
  if (callback) callback(reason);
  std::lock_guard lock(mutex_);
  closed_ = true;
  closed_reason_ = reason;
  changed_.notify_all();
}

}  // namespace nib::mcp
