#pragma once
// Test tools whose progress the test controls: each call announces that it started and then
// blocks until the test opens its gate (or, when it honours the stop token, until an abort).
// Thread-safe.

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/tool.hpp"

namespace nib::testing {

class GatedTool final : public core::Tool {
 public:
  // Calls block until open(id) for their "id" argument (or open_all()). With honour_stop false
  // the tool ignores aborts, like a misbehaving extension.
  // A call claims {"resource": key} exclusively, or shared with "shared": true. With delegates
  // the tool takes no tool slot (like a task, whose subagent's calls take theirs).
  GatedTool(std::string name, bool concurrency_safe, bool honour_stop = true,
            bool delegates = false);

  core::ToolOutput execute(const nlohmann::json& args, std::stop_token stop,
                           const core::ToolContext& context) override;
  std::vector<core::ResourceClaim> claims(const core::CallAccess& access,
                                          const nlohmann::json& args) const override;

  void open(const std::string& id);
  void open_all();
  // Blocks until the call with this id has started executing.
  void await_started(const std::string& id);
  // Blocks until `count` calls have started (in total).
  void await_started_count(std::size_t count);
  std::vector<std::string> start_order();
  std::size_t max_concurrent();

 private:
  const bool honour_stop_;
  std::mutex mutex_;
  std::condition_variable_any changed_;  // _any: waits can also end on a stop request
  std::set<std::string> open_;
  bool all_open_ = false;
  std::vector<std::string> started_;
  std::size_t running_ = 0;
  std::size_t max_running_ = 0;
};

// A tool that returns its "text" argument immediately (concurrency-safe).
core::ToolPtr make_echo_tool(std::string name = "echo", bool concurrency_safe = true);

}  // namespace nib::testing
