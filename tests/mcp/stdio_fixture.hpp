#pragma once
// Configs for the fake stdio server (fixtures/fake_server.py) in a chosen mode, for the tests of
// the stdio transport, the connection and the server set.

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "mcp/server_config.hpp"
#include "mcp/server_connection.hpp"

namespace nib::mcp::testing {

inline std::string fake_server_path() {
  return std::string(NIB_SOURCE_DIR) + "/tests/mcp/fixtures/fake_server.py";
}

inline ServerConfig fake_server(const std::string& name, const std::string& mode, Pairs env = {}) {
  ServerConfig config;
  config.name = name;
  config.command = "python3";
  config.args = {fake_server_path(), mode};
  config.env = std::move(env);
  config.file = "test.json";
  return config;
}

inline std::vector<std::string> process_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) entries.emplace_back(*entry);
  return entries;
}

inline ConnectionOptions fake_connection_options(
    std::chrono::milliseconds startup = std::chrono::seconds(30),
    std::chrono::milliseconds call = std::chrono::seconds(120)) {
  return {startup, call, &core::steady_clock(),
          real_transports(std::filesystem::current_path(), process_environment())};
}

}  // namespace nib::mcp::testing
