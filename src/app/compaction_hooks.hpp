#pragma once
// Wires compaction into a run: before each request, a context past the model's window minus
// the reserve is compacted; a request the service refused as too large is compacted and sent
// once more. The summary comes from the run's own model, and the compaction is recorded in the
// session file. Not thread-safe: the hooks run on the loop's thread.

#include <ostream>

#include "app/session_setup.hpp"
#include "core/agent_loop.hpp"
#include "session/compaction.hpp"

namespace nib::app {

// Sets loop.before_request and loop.on_context_overflow. `notices` receives one line per
// compaction (or its failure). `session` must outlive the loop.
void install_compaction(core::LoopOptions& loop, RunSession& session,
                        const session::CompactionSettings& settings, std::ostream& notices);

}  // namespace nib::app
