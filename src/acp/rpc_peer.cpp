#include "acp/rpc_peer.hpp"

#include <nlohmann/json.hpp>

#include "util/fd_io.hpp"
#include "util/json_text.hpp"

namespace nib::acp {

void RpcPeer::notify(const std::string& method, nlohmann::json params) {
  write(mcp::make_notification(method, std::move(params)));
}

void RpcPeer::respond(const nlohmann::json& id, nlohmann::json result) {
  write(mcp::make_response(id, std::move(result)));
}

void RpcPeer::respond_error(const nlohmann::json& id, int code, const std::string& message) {
  write(mcp::make_error_response(id, code, message));
}

util::Result<nlohmann::json> RpcPeer::request(const std::string& method, nlohmann::json params,
                                              std::stop_token stop) {
  using Result = util::Result<nlohmann::json>;
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return Result::failure("the client has gone away");
    id = next_id_++;
    waiting_.emplace(id, std::nullopt);
  }
  write(mcp::make_request(id, method, std::move(params)));
  std::unique_lock lock(mutex_);
  const bool answered = answered_.wait(lock, stop, [&] { return closed_ || waiting_[id]; });
  std::optional<mcp::Incoming> answer = std::move(waiting_[id]);
  waiting_.erase(id);
  if (!answered) return Result::failure("interrupted before the client answered");
  if (!answer) return Result::failure("the client has gone away");
  if (answer->error) return Result::failure(mcp::describe(*answer->error));
  return std::move(answer->result);
}

void RpcPeer::take_response(const mcp::Incoming& response) {
  if (!response.id.is_number_integer()) return;
  std::lock_guard lock(mutex_);
  const auto found = waiting_.find(response.id.get<std::int64_t>());
  if (found == waiting_.end()) return;
  found->second = response;
  answered_.notify_all();
}

void RpcPeer::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  answered_.notify_all();
}

void RpcPeer::write(const nlohmann::json& message) {
  std::lock_guard lock(write_mutex_);
  util::write_all(out_fd_, util::json_text(message) + "\n");
}

}  // namespace nib::acp
