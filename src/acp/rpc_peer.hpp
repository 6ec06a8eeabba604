#pragma once
// One side of a JSON-RPC 2.0 connection over a pair of descriptors, one message a line (ACP's
// stdio transport): writes responses, notifications and its own requests, each line whole, from
// any thread; and waits for the answers to its requests, which the reading thread hands over
// (take_response). Thread-safe.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "mcp/json_rpc.hpp"
#include "util/result.hpp"

namespace nib::acp {

class RpcPeer {
 public:
  explicit RpcPeer(int out_fd) : out_fd_(out_fd) {}

  void notify(const std::string& method, nlohmann::json params);
  void respond(const nlohmann::json& id, nlohmann::json result);
  void respond_error(const nlohmann::json& id, int code, const std::string& message);

  // Sends a request and waits for its answer: the result, or a failure saying why there is none
  // (the peer answered with an error, went away, or `stop` came first).
  util::Result<nlohmann::json> request(const std::string& method, nlohmann::json params,
                                       std::stop_token stop);

  // An answer read from the peer; one to no request of ours is dropped.
  void take_response(const mcp::Incoming& response);
  // The peer is gone: every request waiting, and every one made later, fails.
  void close();

 private:
  void write(const nlohmann::json& message);

  const int out_fd_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::condition_variable_any answered_;
  std::int64_t next_id_ = 0;
  std::map<std::int64_t, std::optional<mcp::Incoming>> waiting_;
  bool closed_ = false;
};

}  // namespace nib::acp
