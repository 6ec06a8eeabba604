#include "app/compaction_hooks.hpp"

namespace nib::app {

std::optional<core::HistoryCompaction> compact_history(
    core::Provider& provider, const core::ModelInfo& model,
    const std::vector<core::Message>& history, std::int64_t keep_recent_tokens,
    const std::string& instructions, std::stop_token stop, const CompactionNotice& notice) {
  const std::size_t cut = session::find_cut_point(history, keep_recent_tokens);
  if (cut == 0) return std::nullopt;
  const std::vector<core::Message> older(history.begin(),
                                         history.begin() + static_cast<std::ptrdiff_t>(cut));
  notice("compacting the conversation: summarising " + std::to_string(cut) + " older messages",
         false);
  auto summary = session::summarize(provider, model, older, instructions, stop);
  if (!summary.ok()) {
    notice("compaction failed: " + summary.error(), true);
    return std::nullopt;
  }
  return core::HistoryCompaction{cut, session::summary_message(summary.value()),
                                 std::move(summary.value())};
}

void install_compaction(core::LoopOptions& loop, const session::CompactionSettings& settings,
                        CompactionNotice notice,
                        std::function<void(std::stop_token)> before_compacting) {
  if (!settings.enabled) return;
  core::Provider& provider = *loop.provider;
  const core::ModelInfo model = loop.model;
  loop.before_request = [&provider, model, settings, notice, before_compacting](
                            const std::vector<core::Message>& history, std::stop_token stop) {
    const std::int64_t tokens = session::estimate_context_tokens(history);
    if (!session::should_compact(tokens, model.context_window, settings)) {
      return std::optional<core::HistoryCompaction>();
    }
    if (before_compacting) before_compacting(stop);
    return compact_history(provider, model, history, settings.keep_recent_tokens, "", stop, notice);
  };
  loop.on_context_overflow = [&provider, model, notice, before_compacting](
                                 const std::vector<core::Message>& history, std::stop_token stop) {
    if (before_compacting) before_compacting(stop);
    // The service refused the request, so the usual share of recent messages may be what is
    // too large: only the latest message (with the call a tool result answers) stays verbatim.
    return compact_history(provider, model, history, 0, "", stop, notice);
  };
}

}  // namespace nib::app
