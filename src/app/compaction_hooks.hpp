#pragma once
// Wires compaction into a run: before each request, a context past the model's window minus
// the reserve is compacted; a request the service refused as too large is compacted and sent
// once more. The summary comes from the run's own model; the loop applies the compaction to its
// history and announces it, and the session recorder records it. Also the compaction the user
// asks for (/compact). Not thread-safe: it runs on the loop's thread.

#include <functional>
#include <optional>
#include <string>

#include "core/agent_loop.hpp"
#include "core/history_edit.hpp"
#include "session/compaction.hpp"

namespace nib::app {

// Receives one line per compaction started, or failed.
using CompactionNotice = std::function<void(const std::string& text, bool is_error)>;

// A summary of the older part of `history`, keeping about `keep_recent_tokens` of the latest
// messages verbatim; `instructions` (may be empty) steer the summary. Nothing when there was
// nothing to summarise or the summary failed.
std::optional<core::HistoryCompaction> compact_history(
    core::Provider& provider, const core::ModelInfo& model,
    const std::vector<core::Message>& history, std::int64_t keep_recent_tokens,
    const std::string& instructions, std::stop_token stop, const CompactionNotice& notice);

// Sets loop.before_request and loop.on_context_overflow. `before_compacting` (optional) is
// called before each automatic compaction (the PreCompact hooks).
void install_compaction(core::LoopOptions& loop, const session::CompactionSettings& settings,
                        CompactionNotice notice,
                        std::function<void(std::stop_token)> before_compacting = {});

}  // namespace nib::app
