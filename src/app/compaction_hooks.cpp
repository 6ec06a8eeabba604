#include "app/compaction_hooks.hpp"

#include <algorithm>
#include "app/compaction_carry.hpp"

#include <nlohmann/json.hpp>

#include "ui/footer.hpp"
#include "util/plural.hpp"

namespace nib::app {
namespace {

std::string tokens_text(std::int64_t tokens) {
  return "~" + ui::short_count(static_cast<std::size_t>(std::max<std::int64_t>(tokens, 0))) +
         " tokens";
}

// "the first request, 2 latest instructions, the plan (4 items), 3 files (a.cpp, b.cpp, c.h)"
std::string carried_summary(const CarriedContext& carried) {
  std::vector<std::string> parts;
  if (!carried.first_request.empty()) parts.emplace_back("the first request");
  if (!carried.latest_instructions.empty()) {
    parts.push_back(util::plural(carried.latest_instructions.size(), "latest instruction",
                                 "latest instructions"));
  }
  if (!carried.plan.empty()) {
    const auto items =
        static_cast<std::size_t>(std::count(carried.plan.begin(), carried.plan.end(), '\n')) + 1;
    parts.push_back("the plan (" + util::plural(items, "item", "items") + ")");
  }
  if (!carried.files.empty()) {
    std::string names;
    for (const CarriedFile& file : carried.files) names += (names.empty() ? "" : ", ") + file.path;
    parts.push_back(util::plural(carried.files.size(), "file", "files") + " (" + names + ")");
  }
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  return text.empty() ? "nothing" : text;
}

}  // namespace

std::optional<core::HistoryCompaction> compact_history(core::Provider& provider,
                                                       const core::ModelInfo& model,
                                                       const std::vector<core::Message>& history,
                                                       std::int64_t keep_recent_tokens,
                                                       const CompactionWork& work,
                                                       std::stop_token stop) {
  const std::size_t cut = session::find_cut_point(history, keep_recent_tokens);
  if (cut == 0) return std::nullopt;
  const CarriedContext carried =
      carried_context(history, cut, work.plan ? work.plan() : core::Plan{}, work.cwd);
  const std::int64_t before = session::estimate_context_tokens(history);
  if (work.notice) {
    work.notice("compacting the conversation (" + tokens_text(before) + "): summarising " +
                    util::plural(cut, "older message", "older messages") + ", carrying " +
                    carried_summary(carried) + " verbatim",
                false);
  }
  if (work.before) {
    nlohmann::json input = carried_json(carried);
    input["trigger"] = work.trigger;
    input["custom_instructions"] = work.instructions;
    input["messages_to_summarize"] = cut;
    input["context_tokens"] = before;
    work.before(input, stop);
  }
  const std::vector<core::Message> older(history.begin(),
                                         history.begin() + static_cast<std::ptrdiff_t>(cut));
  core::Usage usage;
  auto summary = session::summarize(provider, model, older, work.instructions, stop, &usage);
  if (work.spend != nullptr) work.spend->add(model.id, usage);
  if (!summary.ok()) {
    if (work.notice) work.notice("compaction failed: " + summary.error(), true);
    return std::nullopt;
  }
  std::string text = std::move(summary.value()) + carried_text(carried);
  core::Message message = session::summary_message(text);
  if (work.notice) {
    std::int64_t after = session::estimate_tokens(message);
    for (std::size_t i = cut; i < history.size(); ++i)
      after += session::estimate_tokens(history[i]);
    work.notice("compacted: " + tokens_text(before) + " → " + tokens_text(after) + "; " +
                    util::plural(cut, "message", "messages") + " summarised",
                false);
  }
  return core::HistoryCompaction{cut, std::move(message), std::move(text)};
}

void install_compaction(core::LoopOptions& loop, const session::CompactionSettings& settings,
                        CompactionWork work) {
  if (!settings.enabled) return;
  core::Provider& provider = *loop.provider;
  const core::ModelInfo model = loop.model;
  loop.before_request = [&provider, model, settings, work](
                            const std::vector<core::Message>& history, std::stop_token stop) {
    const std::int64_t tokens = session::estimate_context_tokens(history);
    if (!session::should_compact(tokens, model.context_window, settings)) {
      return std::optional<core::HistoryCompaction>();
    }
    return compact_history(provider, model, history, settings.keep_recent_tokens, work, stop);
  };
  loop.on_context_overflow = [&provider, model, work](const std::vector<core::Message>& history,
                                                      std::stop_token stop) {
    // The service refused the request, so the usual share of recent messages may be what is
    // too large: only the latest message (with the call a tool result answers) stays verbatim.
    return compact_history(provider, model, history, 0, work, stop);
  };
}

}  // namespace nib::app
