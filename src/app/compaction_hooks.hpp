#pragma once
// Wires compaction into a run: before each request, a context past the threshold
// (session::should_compact) is compacted; a request the service refused as too large is
// compacted and sent once more. Also the compaction the user asks for (/compact). Each one:
// says what it is about to do, lets the PreCompact hooks see it, asks the run's own model for
// the summary, carries the task verbatim past it (compaction_carry.hpp), and says what it did.
// The loop applies the compaction to its history and announces it, and the session recorder
// records it. Not thread-safe: it runs on the loop's thread.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/agent_loop.hpp"
#include "core/history_edit.hpp"
#include "core/plan.hpp"
#include "core/spend_meter.hpp"
#include "session/compaction.hpp"

namespace nib::app {

// Receives one line before each compaction and one after it (or its failure).
using CompactionNotice = std::function<void(const std::string& text, bool is_error)>;

// What a compaction needs besides the history and the model.
struct CompactionWork {
  std::string trigger = "auto";      // the PreCompact hooks' trigger: "auto" or "manual"
  std::string instructions;          // the user's steer for the summary (/compact's text)
  std::function<core::Plan()> plan;  // the plan as it stands (optional)
  std::filesystem::path cwd;         // where carried files are looked for
  // The PreCompact hooks (optional), given the fields of their input: trigger,
  // custom_instructions, what is carried (carried_json) and how much is summarised.
  std::function<void(const nlohmann::json& input, std::stop_token stop)> before;
  core::SpendMeter* spend = nullptr;  // the summary request is paid for too (optional)
  CompactionNotice notice;
};

// A summary of the older part of `history`, keeping about `keep_recent_tokens` of the latest
// messages verbatim, with what compaction_carry carries. Nothing when there was nothing to
// summarise or the summary failed (said through work.notice).
std::optional<core::HistoryCompaction> compact_history(core::Provider& provider,
                                                       const core::ModelInfo& model,
                                                       const std::vector<core::Message>& history,
                                                       std::int64_t keep_recent_tokens,
                                                       const CompactionWork& work,
                                                       std::stop_token stop);

// Sets loop.before_request and loop.on_context_overflow.
void install_compaction(core::LoopOptions& loop, const session::CompactionSettings& settings,
                        CompactionWork work);

}  // namespace nib::app
