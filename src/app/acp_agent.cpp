#include "app/acp_agent.hpp"

#include <map>
#include <memory>

#include "acp/client_servers.hpp"
#include "acp/rpc_peer.hpp"
#include "app/acp_session.hpp"
#include "mcp/json_rpc.hpp"
#include "mcp/line_reader.hpp"
#include "session/session_store.hpp"
#include "session/session_summary.hpp"

namespace nib::app {
namespace {

using nlohmann::json;

inline constexpr int kProtocolVersion = 1;
// ACP's code for an unknown session (its ErrorCode "resource not found").
inline constexpr int kResourceNotFound = -32002;

// A request's parameters that could not be used: the error to answer with.
struct BadParams {
  int code = mcp::kInvalidParams;
  std::string message;
};

class AcpAgent {
 public:
  AcpAgent(const CliOptions& options, const util::UserPlaces& places, std::filesystem::path cwd,
           int out_fd, std::ostream& log)
      : options_(options), places_(places), cwd_(std::move(cwd)), peer_(out_fd), log_(log) {}

  ~AcpAgent() { close(); }

  void handle(const std::string& line) {
    auto parsed = mcp::parse_message(line);
    if (!parsed.ok()) {
      peer_.respond_error(nullptr, mcp::kParseError, "not a JSON-RPC message: " + parsed.error());
      return;
    }
    mcp::Incoming& message = parsed.value();
    if (message.kind == mcp::Incoming::Kind::kResponse) return peer_.take_response(message);
    if (message.kind == mcp::Incoming::Kind::kNotification) {
      if (message.method == "session/cancel") {
        if (AcpSession* session = find(message.params)) session->cancel();
      }
      return;  // unknown notifications are ignored, as JSON-RPC wants
    }
    const json params = message.params.is_object() ? message.params : json::object();
    try {
      answer(message.id, message.method, params);
    } catch (const std::exception& error) {
      // A parameter of the wrong type (nlohmann's type_error): the client's mistake, never nib's
      // end.
      peer_.respond_error(message.id, mcp::kInvalidParams, error.what());
    }
  }

  // The client is gone: every prompt stops and every question waiting for it is refused.
  void close() {
    peer_.close();
    for (auto& [id, session] : sessions_) session->cancel();
    sessions_.clear();  // waits for each prompt's end
  }

 private:
  void answer(const json& id, const std::string& method, const json& params) {
    if (method == "initialize") return peer_.respond(id, initialize_result(params));
    if (method == "authenticate") return peer_.respond(id, json::object());
    if (method == "session/new") return open(id, params, std::nullopt);
    if (method == "session/load") {
      return open(id, params, params.value("sessionId", json()).get<std::string>());
    }
    if (method == "session/list") return peer_.respond(id, list(params));
    AcpSession* session = find(params);
    if (session == nullptr && (method == "session/prompt" || method == "session/set_mode")) {
      return peer_.respond_error(id, kResourceNotFound,
                                 "no session " + params.value("sessionId", json()).dump());
    }
    if (method == "session/prompt") {
      if (session->busy()) {
        return peer_.respond_error(id, mcp::kInvalidRequest,
                                   "a prompt is already running in this session");
      }
      return session->prompt(id, params.value("prompt", json()));
    }
    if (method == "session/set_mode") {
      const util::Status set = session->set_mode(params.value("modeId", json()).get<std::string>());
      if (!set.ok()) return peer_.respond_error(id, mcp::kInvalidParams, set.error());
      return peer_.respond(id, json::object());
    }
    peer_.respond_error(id, mcp::kMethodNotFound, "nib's ACP agent does not support " + method);
  }

  json initialize_result(const json& params) {
    client_capabilities_ = params.value("clientCapabilities", json::object());
    return {
        {"protocolVersion", kProtocolVersion},
        {"agentCapabilities",
         {{"loadSession", true},
          {"promptCapabilities", {{"image", true}, {"audio", false}, {"embeddedContext", true}}},
          {"mcpCapabilities", {{"http", true}, {"sse", false}}},
          {"sessionCapabilities", {{"list", json::object()}}}}},
        {"authMethods",
         json::array({{{"id", "environment"},
                       {"name", "API key in the environment"},
                       {"description",
                        "nib uses the key of its provider from the environment it was started "
                        "in (OPENAI_API_KEY, ANTHROPIC_API_KEY) or from models.json"}}})},
        {"agentInfo", {{"name", "nib"}, {"title", "nib"}, {"version", NIB_VERSION}}}};
  }

  void open(const json& id, const json& params, std::optional<std::string> load) {
    const json cwd = params.value("cwd", json());
    if (!cwd.is_string() || !std::filesystem::path(cwd.get<std::string>()).is_absolute()) {
      return peer_.respond_error(id, mcp::kInvalidParams, "cwd must be an absolute path");
    }
    std::error_code error;
    if (!std::filesystem::is_directory(cwd.get<std::string>(), error)) {
      return peer_.respond_error(id, mcp::kInvalidParams,
                                 "cwd is not a directory: " + cwd.get<std::string>());
    }
    auto servers = acp::client_servers(params.value("mcpServers", json()));
    if (!servers.ok()) return peer_.respond_error(id, mcp::kInvalidParams, servers.error());
    auto opened = AcpSession::open({.options = &options_,
                                    .places = places_,
                                    .cwd = std::filesystem::path(cwd.get<std::string>()),
                                    .client_servers = std::move(servers.value()),
                                    .load = load,
                                    .client_capabilities = client_capabilities_},
                                   peer_, log_);
    if (!opened.ok()) {
      return peer_.respond_error(id, load ? kResourceNotFound : mcp::kInternalError,
                                 opened.error());
    }
    std::unique_ptr<AcpSession> session = std::move(opened.value());
    json result = {{"modes", session->modes()}};
    if (load) {
      // The conversation first, then the answer (ACP's session/load).
      for (json& update : session->replay()) {
        peer_.notify("session/update",
                     {{"sessionId", session->id()}, {"update", std::move(update)}});
      }
    } else {
      result["sessionId"] = session->id();
    }
    AcpSession& kept = *session;
    sessions_[session->id()] = std::move(session);
    peer_.respond(id, std::move(result));
    kept.announce_commands();
  }

  json list(const json& params) const {
    const json asked = params.value("cwd", json());
    const std::filesystem::path cwd = asked.is_string() ? asked.get<std::string>() : cwd_.string();
    json sessions = json::array();
    const auto store = session::SessionStore::for_user(places_);
    if (!store.ok()) return {{"sessions", sessions}};
    for (const session::SessionSummary& summary : store.value().list(cwd)) {
      json entry = {{"sessionId", summary.id},
                    {"cwd", summary.cwd.empty() ? cwd.string() : summary.cwd}};
      if (!summary.first_prompt.empty()) entry["title"] = summary.first_prompt;
      if (!summary.started_at.empty()) entry["updatedAt"] = summary.started_at;
      sessions.push_back(std::move(entry));
    }
    return {{"sessions", std::move(sessions)}};
  }

  AcpSession* find(const json& params) {
    const json id = params.is_object() ? params.value("sessionId", json()) : json();
    if (!id.is_string()) return nullptr;
    const auto found = sessions_.find(id.get<std::string>());
    return found == sessions_.end() ? nullptr : found->second.get();
  }

  const CliOptions& options_;
  const util::UserPlaces& places_;
  const std::filesystem::path cwd_;
  acp::RpcPeer peer_;
  std::ostream& log_;
  json client_capabilities_;
  std::map<std::string, std::unique_ptr<AcpSession>> sessions_;
};

}  // namespace

int run_acp_agent(const CliOptions& options, const util::UserPlaces& places,
                  const std::filesystem::path& cwd, int in_fd, int out_fd, std::ostream& log,
                  std::stop_token stop) {
  AcpAgent agent(options, places, cwd, out_fd, log);
  const mcp::LinesEnd end =
      mcp::read_lines(in_fd, stop, [&agent](const std::string& line) { agent.handle(line); });
  // The client is gone (or nib is stopping): nothing it started may run on without it.
  agent.close();
  return end == mcp::LinesEnd::kEndOfInput ? 0 : 130;
}

}  // namespace nib::app
