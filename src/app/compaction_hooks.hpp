#pragma once
// Wires compaction into a run: before each request, a context past the model's window minus
// the reserve is compacted; a request the service refused as too large is compacted and sent
// once more. The summary comes from the run's own model, and the compaction is recorded in the
// session file. Also the compaction the user asks for (/compact). Not thread-safe: it runs on
// the loop's thread.

#include <functional>
#include <string>

#include "app/session_setup.hpp"
#include "core/agent_loop.hpp"
#include "session/compaction.hpp"

namespace nib::app {

// Receives one line per compaction started, or failed.
using CompactionNotice = std::function<void(const std::string& text, bool is_error)>;

// Summarises the older part of the session's history, keeping about `keep_recent_tokens` of
// the latest messages verbatim; `instructions` (may be empty) steer the summary. False when
// there was nothing to summarise or the summary failed.
bool compact_session(core::Provider& provider, const core::ModelInfo& model, RunSession& session,
                     std::int64_t keep_recent_tokens, const std::string& instructions,
                     std::stop_token stop, const CompactionNotice& notice);

// Sets loop.before_request and loop.on_context_overflow. `session` must outlive the loop.
void install_compaction(core::LoopOptions& loop, RunSession& session,
                        const session::CompactionSettings& settings, CompactionNotice notice);

}  // namespace nib::app
