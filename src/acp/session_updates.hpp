#pragma once
// What an ACP client shows of a session: the `update` objects of session/update notifications
// (agent_message_chunk, agent_thought_chunk, tool_call, tool_call_update, plan, usage_update,
// user_message_chunk), made from a run's events as they come, or from a stored history when a
// session is loaded. A call's title is the one the terminal shows (ui::ToolPresenter), its kind
// and locations come from what the tool says the call touches (core::Tool::access), and a call
// that writes files carries the diff of each file from before it ran to after. Not thread-safe:
// one translator belongs to one session, fed from the run's thread.

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/events.hpp"
#include "core/messages.hpp"
#include "core/tool_registry.hpp"

namespace nib::acp {

// The files a text diff is shown for at most (larger ones get the result's text only).
inline constexpr std::size_t kMaxDiffFileBytes = 512 * 1024;
// A running command's output is shown as its last this many bytes, and sent at most once per
// kLiveOutputInterval, so that a chatty command costs the editor a bounded stream.
inline constexpr std::size_t kLiveOutputTailBytes = 16 * 1024;
inline constexpr std::chrono::milliseconds kLiveOutputInterval{250};

// ACP's tool kind of a call of `name`: read, edit, search, execute, fetch, think or other.
std::string tool_kind(const core::ToolRegistry& tools, const std::string& name);

// The ACP content block of a content block of nib's: text, or an image with its data.
nlohmann::json content_block(const core::ContentBlock& block);

// The cost of a run's usage in US dollars; nothing when the prices are unknown.
using UsageCost = std::function<std::optional<double>(const core::Usage&)>;

class SessionUpdates {
 public:
  // `tools` must outlive the translator. `context_window`: the model's, in tokens (0: unknown).
  SessionUpdates(const core::ToolRegistry& tools, std::filesystem::path cwd,
                 std::int64_t context_window, UsageCost cost);

  // The updates `event` makes, in order (often none).
  std::vector<nlohmann::json> on_event(const core::Event& event);

  // A stored conversation as the updates that would have shown it: the user's messages, the
  // model's text and thinking, and each tool call with its final status and result.
  std::vector<nlohmann::json> replay(const std::vector<core::Message>& history);

 private:
  struct OpenCall {
    std::string name;
    std::string arguments;
    // The files the call writes, with their text before it ran (nothing: no such file).
    std::vector<std::pair<std::filesystem::path, std::optional<std::string>>> before;
    std::string live;  // the last kLiveOutputTailBytes of its output so far
    std::optional<std::chrono::steady_clock::time_point> live_sent;
  };

  // `live`: the call is about to run, so the files it writes are read now for its diff (a
  // replayed call has no "before" to show).
  nlohmann::json call_started(const std::string& id, const std::string& name,
                              const std::string& arguments, bool live);
  nlohmann::json call_ended(const std::string& id, const core::ToolResult& result);
  std::optional<nlohmann::json> usage(const core::Usage& reply);
  std::optional<nlohmann::json> live_output(const core::ToolOutputEvent& output);

  const core::ToolRegistry& tools_;
  std::filesystem::path cwd_;
  std::int64_t context_window_;
  UsageCost cost_;
  std::map<std::string, OpenCall> calls_;  // by id, from tool_start to tool_end
  std::optional<double> spent_usd_;        // the session's, so far
};

}  // namespace nib::acp
