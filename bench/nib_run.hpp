#pragma once
// What the benchmarks that start nib share: the environment that points it at the mock model,
// a wait for a run that must succeed, and the time from a `nib -p hello` process's start to the
// model's first request (loop_bench times nib alone, mcp_bench with MCP servers configured). Not
// thread-safe.

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"

namespace nib::bench {

inline std::map<std::string, std::string> mock_model_env(const testing::MockModelServer& server) {
  return {{"OPENAI_BASE_URL", server.base_url()}, {"NIB_MODEL", "mock-model"}};
}

// Waits for nib's exit and insists that it succeeded: a failed run measures nothing.
inline testing::NibResult finish_successfully(testing::NibProcess& process, const char* what) {
  auto result = process.wait();
  if (result.exit_code != 0) {
    throw std::runtime_error(std::string(what) + ": nib exited with " +
                             std::to_string(result.exit_code) + "\nstderr:\n" + result.err);
  }
  return result;
}

struct FirstRequestTimes {
  double to_request_ms = 0;  // spawn -> the first request at the mock
  double to_exit_ms = 0;     // spawn -> nib's exit after the one text reply
};

// Runs `nib -p hello` plus `extra_args` in `dir` against a fresh mock model that answers "ok".
// Throws when no request arrives within `hang_limit` or nib fails: a failed run measures
// nothing.
inline FirstRequestTimes time_first_request(const std::filesystem::path& dir,
                                            const std::vector<std::string>& extra_args,
                                            const std::filesystem::path& nib,
                                            std::chrono::seconds hang_limit) {
  testing::MockModelServer server;
  server.enqueue(testing::MockReply::text("ok"));
  std::vector<std::string> args{"-p", "hello"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  const auto spawned = std::chrono::steady_clock::now();
  testing::NibProcess process(args, dir, mock_model_env(server), nib);
  if (!server.wait_for_requests(1, hang_limit)) throw std::runtime_error("no request arrived");
  finish_successfully(process, "first request");
  const auto exited = std::chrono::steady_clock::now();
  return {ms_between(spawned, server.requests().at(0).arrived_at), ms_between(spawned, exited)};
}

// A benchmark's main: `run`'s exit status, or 1 with "NAME: why" on stderr when it throws (a
// run that failed, a mock that could not start).
inline int bench_main(const char* name, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << '\n';
    return 1;
  }
}

}  // namespace nib::bench
