#pragma once
// One session of `nib acp` (acp_agent.hpp): a working tree's runs (run_setup.hpp) opened as
// every front end opens them (run_assembly.hpp), with the client as the one who sees and is
// asked. A prompt runs on a thread of its own, so that the connection keeps reading (a cancel,
// the client's answers) meanwhile; its events reach the client as session/update notifications
// and its questions as session/request_permission requests, and its response carries the stop
// reason. Called from the connection's thread; the prompt's thread only talks to the peer.

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "acp/rpc_peer.hpp"
#include "acp/session_updates.hpp"
#include "app/cli.hpp"
#include "app/run_assembly.hpp"
#include "app/run_setup.hpp"
#include "core/provider.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"

namespace nib::app {

struct AcpSessionRequest {
  const CliOptions* options = nullptr;  // `nib acp`'s flags
  util::UserPlaces places;
  std::filesystem::path cwd;           // absolute
  nlohmann::json client_servers;       // acp::client_servers' document, or null
  std::optional<std::string> load;     // session/load: the id of the stored session to continue
  nlohmann::json client_capabilities;  // initialize's: whether the client offers its files
};

class AcpSession {
 public:
  // Opens the session; a failure says why (the response's error). Warnings go to `log`.
  static util::Result<std::unique_ptr<AcpSession>> open(const AcpSessionRequest& request,
                                                        acp::RpcPeer& peer, std::ostream& log);
  // Cancels a running prompt, waits for it, and runs the SessionEnd hooks of a session that
  // started.
  ~AcpSession();

  const std::string& id() const { return *id_; }
  // session/new's and session/load's `modes`: the mode now and those the client may choose.
  nlohmann::json modes() const;
  // The stored conversation, as updates (session/load).
  std::vector<nlohmann::json> replay();
  // Sends available_commands_update when the commands offered changed since it was last sent.
  void announce_commands();

  // Whether a prompt is running.
  bool busy() const;
  // Runs `prompt` (session/prompt's params.prompt), answering request `id` when it ends.
  void prompt(nlohmann::json id, nlohmann::json prompt);
  // session/cancel: the running prompt stops as an abort stops it and answers "cancelled".
  void cancel();
  // session/set_mode; a failure names the modes.
  util::Status set_mode(const std::string& mode_id);

 private:
  AcpSession(acp::RpcPeer& peer, std::ostream& log, CliOptions options,
             std::unique_ptr<RunSetup> setup, RunResources run, std::shared_ptr<std::string> id);

  void run_prompt(const nlohmann::json& id, const nlohmann::json& prompt, std::stop_token stop);
  void update(nlohmann::json update);
  permissions::ApprovalReply ask(const permissions::ApprovalQuestion& question,
                                 std::stop_token stop);
  void save_rules(const std::vector<std::string>& rules);
  FrontEndWiring wiring();

  acp::RpcPeer& peer_;
  std::ostream& log_;   // stderr: what cannot reach the client (it may be gone)
  CliOptions options_;  // `nib acp`'s, as this session opened with them
  std::unique_ptr<RunSetup> setup_;
  RunResources run_;
  std::unique_ptr<core::Provider> provider_;
  // The session's id, shared with what asks the client for files (set once, when it opens).
  std::shared_ptr<std::string> id_ = std::make_shared<std::string>();
  bool yolo_offered_ = false;  // yolo is offered only to a session started in it
  bool started_ = false;       // the SessionStart hooks have run (prompt thread)
  std::string session_source_;
  acp::SessionUpdates updates_;  // the prompt thread's (or, before any, the connection's)
  nlohmann::json announced_commands_;
  std::mutex rejected_mutex_;
  std::set<std::string> rejected_rules_;  // "reject always": refused without asking again
  mutable std::mutex prompt_mutex_;
  std::jthread prompt_;
  bool prompt_running_ = false;
};

}  // namespace nib::app
