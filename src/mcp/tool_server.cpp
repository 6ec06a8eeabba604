#include "mcp/tool_server.hpp"

#include <algorithm>
#include <list>
#include <mutex>
#include <thread>

#include "core/tool_scheduler.hpp"
#include "mcp/call_result.hpp"
#include "mcp/json_rpc.hpp"
#include "mcp/limits.hpp"
#include "mcp/line_reader.hpp"
#include "util/fd_io.hpp"
#include "util/json_text.hpp"

namespace nib::mcp {
namespace {

class ToolServer {
 public:
  ToolServer(const ToolServerOptions& options, int out_fd) : options_(options), out_fd_(out_fd) {}
  ~ToolServer() { stop_all(); }

  void handle(const std::string& line) {
    auto parsed = parse_message(line);
    if (!parsed.ok()) {
      write(make_error_response(nullptr, kParseError, "not a JSON-RPC message: " + parsed.error()));
      return;
    }
    Incoming& message = parsed.value();
    if (message.kind == Incoming::Kind::kResponse) return;  // nib sends no requests
    if (message.kind == Incoming::Kind::kNotification) {
      if (message.method == "notifications/cancelled" && message.params.is_object()) {
        cancel(message.params.value("requestId", nlohmann::json()));
      }
      return;
    }
    if (message.method == "initialize") {
      write(make_response(message.id, initialize_result(message.params)));
    } else if (message.method == "ping") {
      write(make_response(message.id, nlohmann::json::object()));
    } else if (message.method == "tools/list") {
      write(make_response(message.id, {{"tools", tool_list()}}));
    } else if (message.method == "tools/call") {
      call(std::move(message));
    } else {
      write(make_error_response(message.id, kMethodNotFound,
                                "nib's MCP server does not support " + message.method));
    }
  }

  void stop_all() {
    std::list<Call> calls;
    {
      std::lock_guard lock(mutex_);
      calls.swap(calls_);
    }
    for (Call& running : calls) running.thread.request_stop();
    calls.clear();  // joins
  }

 private:
  struct Call {
    nlohmann::json id;
    std::jthread thread;
    bool done = false;
  };

  nlohmann::json initialize_result(const nlohmann::json& params) const {
    std::string version = kProtocolVersion;
    const std::string asked = params.is_object() ? params.value("protocolVersion", "") : "";
    for (const char* accepted : kAcceptedProtocolVersions) {
      if (asked == accepted) version = asked;
    }
    return {{"protocolVersion", version},
            {"capabilities", {{"tools", {{"listChanged", false}}}}},
            {"serverInfo", {{"name", "nib"}, {"version", options_.version}}},
            {"instructions", "nib's file and shell tools, run in " + options_.cwd.string() +
                                 ". Read a file before editing it."}};
  }

  nlohmann::json tool_list() const {
    nlohmann::json tools = nlohmann::json::array();
    for (const core::ToolSpec& spec : options_.tools->specs()) {
      tools.push_back({{"name", spec.name},
                       {"description", spec.description},
                       {"inputSchema", spec.parameters},
                       {"annotations", {{"readOnlyHint", spec.concurrency_safe}}}});
    }
    return tools;
  }

  void call(Incoming message) {
    const nlohmann::json& params = message.params;
    const auto named = params.is_object() ? params.find("name") : params.end();
    const std::string name = params.is_object() && named != params.end() && named->is_string()
                                 ? named->get<std::string>()
                                 : "";
    if (options_.tools->find(name) == nullptr) {
      write(make_error_response(message.id, kInvalidParams,
                                "Unknown tool: " + name + " (tools/list names the tools)"));
      return;
    }
    const nlohmann::json arguments = params.is_object()
                                         ? params.value("arguments", nlohmann::json::object())
                                         : nlohmann::json::object();
    std::lock_guard lock(mutex_);
    take_finished();
    Call& running = calls_.emplace_back();
    running.id = message.id;
    running.thread = std::jthread([this, &running, name, arguments](std::stop_token stop) {
      core::SchedulerOptions scheduler_options;
      scheduler_options.tools = options_.tools;
      scheduler_options.pre_tool = options_.pre_tool;
      scheduler_options.gate = options_.gate;
      scheduler_options.after_tool = options_.after_tool;
      scheduler_options.cwd = options_.cwd;
      core::ToolScheduler scheduler(scheduler_options);
      const core::ToolCall tool_call{"mcp-" + util::json_text(running.id), name,
                                     util::json_text(arguments)};
      const core::ToolResultMessage results = scheduler.execute_batch({tool_call}, stop);
      const core::ToolResult& result = results.results.at(0);
      // A cancelled request gets no answer (the client has stopped waiting for one).
      if (!stop.stop_requested()) {
        write(make_response(running.id, {{"content", content_blocks(result.content)},
                                         {"isError", result.is_error}}));
      }
      std::lock_guard done(mutex_);
      running.done = true;
    });
  }

  void cancel(const nlohmann::json& id) {
    std::lock_guard lock(mutex_);
    for (Call& running : calls_) {
      if (running.id == id) running.thread.request_stop();
    }
  }

  // Joins the calls that have ended (mutex_ held; they no longer need it).
  void take_finished() {
    for (auto it = calls_.begin(); it != calls_.end();) {
      it = it->done ? calls_.erase(it) : std::next(it);
    }
  }

  void write(const nlohmann::json& message) {
    std::lock_guard lock(write_mutex_);
    util::write_all(out_fd_, util::json_text(message) + "\n");
  }

  const ToolServerOptions& options_;
  const int out_fd_;
  std::mutex mutex_;
  std::mutex write_mutex_;
  std::list<Call> calls_;
};

}  // namespace

int serve_tools(const ToolServerOptions& options, int in_fd, int out_fd, std::stop_token stop) {
  ToolServer server(options, out_fd);
  const LinesEnd end =
      read_lines(in_fd, stop, [&server](const std::string& line) { server.handle(line); });
  // Stdin ended: the client is shutting down (MCP's stdio shutdown), and nothing it started may
  // run on without it. Stopped: likewise.
  server.stop_all();
  return end == LinesEnd::kEndOfInput ? 0 : 130;
}

}  // namespace nib::mcp
