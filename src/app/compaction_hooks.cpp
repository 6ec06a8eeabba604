#include "app/compaction_hooks.hpp"

namespace nib::app {
namespace {

// Summarises the older part of the session's history; false when there was nothing to
// summarise or the summary failed (the run then goes on, or fails, as it would have).
// Keeps about `keep_recent_tokens` of the latest messages verbatim.
bool compact(core::Provider& provider, const core::ModelInfo& model, RunSession& session,
             std::int64_t keep_recent_tokens, std::stop_token stop, std::ostream& notices) {
  auto& history = session.history();
  const std::size_t cut = session::find_cut_point(history, keep_recent_tokens);
  if (cut == 0) return false;
  const std::vector<core::Message> older(history.begin(),
                                         history.begin() + static_cast<std::ptrdiff_t>(cut));
  notices << "nib: compacting the conversation: summarising " << cut << " older messages\n"
          << std::flush;
  const auto outcome = session::summarize(provider, model, older, "", stop);
  if (!outcome.summary) {
    notices << "nib: compaction failed: " << outcome.error << '\n' << std::flush;
    return false;
  }
  session.compact(cut, *outcome.summary);
  return true;
}

}  // namespace

void install_compaction(core::LoopOptions& loop, RunSession& session,
                        const session::CompactionSettings& settings, std::ostream& notices) {
  if (!settings.enabled) return;
  core::Provider& provider = *loop.provider;
  const core::ModelInfo model = loop.model;
  loop.before_request = [&provider, model, &session, settings, &notices](
                            std::vector<core::Message>& history, std::stop_token stop) {
    const std::int64_t tokens = session::estimate_context_tokens(history);
    if (!session::should_compact(tokens, model.context_window, settings)) return;
    compact(provider, model, session, settings.keep_recent_tokens, stop, notices);
  };
  loop.on_context_overflow = [&provider, model, &session, &notices](std::vector<core::Message>&,
                                                                    std::stop_token stop) {
    // The service refused the request, so the usual share of recent messages may be what is
    // too large: only the latest exchange stays verbatim.
    return compact(provider, model, session, 0, stop, notices);
  };
}

}  // namespace nib::app
