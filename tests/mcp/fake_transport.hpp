#pragma once
// An in-memory Transport for client tests: every message the client sends is recorded and handed
// to `serve`, which plays the server (answering at once, later through deliver(), or never).
// Thread-safe.

#include <functional>
#include <mutex>
#include <vector>

#include "mcp/transport.hpp"

namespace nib::mcp::testing {

class FakeTransport final : public Transport {
 public:
  // Plays the server: given what the client sent, the messages the server answers with.
  using Serve = std::function<std::vector<nlohmann::json>(const nlohmann::json& sent)>;
  explicit FakeTransport(Serve serve) : serve_(std::move(serve)) {}

  util::Status open(TransportHandlers handlers) override {
    std::lock_guard lock(mutex_);
    handlers_ = std::move(handlers);
    return util::Status::success();
  }
  util::Status send(const nlohmann::json& message) override {
    {
      std::lock_guard lock(mutex_);
      if (closed_) return util::Status::failure("closed");
      sent_.push_back(message);
    }
    for (const nlohmann::json& reply : serve_(message)) deliver(reply);
    return util::Status::success();
  }
  void close() override {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  std::string diagnostics() const override { return "stderr:\nfake trouble\n"; }

  void deliver(const nlohmann::json& message) {
    auto incoming = parse_message(message.dump());
    handlers_.on_message(std::move(incoming.value()));
  }
  void die(const std::string& reason) { handlers_.on_closed(reason); }
  std::vector<nlohmann::json> sent() {
    std::lock_guard lock(mutex_);
    return sent_;
  }

 private:
  Serve serve_;
  std::mutex mutex_;
  TransportHandlers handlers_;
  std::vector<nlohmann::json> sent_;
  bool closed_ = false;
};

// A server that answers initialize with `version` and a tools capability, and nothing else.
inline std::vector<nlohmann::json> answer_initialize(const nlohmann::json& sent,
                                                     const std::string& version = "2025-11-25") {
  if (sent.value("method", "") != "initialize") return {};
  return {make_response(sent["id"], {{"protocolVersion", version},
                                     {"capabilities", {{"tools", nlohmann::json::object()}}},
                                     {"serverInfo", {{"name", "fake"}, {"version", "1"}}}})};
}

}  // namespace nib::mcp::testing
