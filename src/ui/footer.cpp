#include "ui/footer.hpp"

#include <cstdio>

namespace nib::ui {
namespace {

constexpr Style kDim{.dim = true};

std::string short_path(const std::string& cwd, const std::string& home) {
  if (!home.empty() && cwd.starts_with(home) &&
      (cwd.size() == home.size() || cwd[home.size()] == '/')) {
    return "~" + cwd.substr(home.size());
  }
  return cwd;
}

}  // namespace

std::string short_count(std::size_t count) {
  char buffer[32];
  if (count < 1000) return std::to_string(count);
  if (count < 1'000'000) {
    std::snprintf(buffer, sizeof buffer, count < 10'000 ? "%.1fk" : "%.0fk",
                  static_cast<double>(count) / 1e3);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1fM", static_cast<double>(count) / 1e6);
  }
  return buffer;
}

StyledLine render_footer(const FooterInfo& info, std::size_t width) {
  StyledLine line;
  line.add(info.model, {.color = Color::kCyan});
  if (!info.thinking.empty()) line.add(" (" + info.thinking + ")", {.color = Color::kCyan});
  if (!info.permission_mode.empty()) {
    // yolo runs everything unconfined: it must not go unnoticed.
    const Style style = info.permission_mode == "yolo" ? Style{.color = Color::kRed, .bold = true}
                        : info.permission_mode == "read-only" ? Style{.color = Color::kYellow}
                                                              : kDim;
    line.add(" · ", kDim);
    line.add(info.permission_mode, style);
  }
  line.add(" · " + short_path(info.cwd, info.home), kDim);
  if (info.running_jobs > 0) {
    line.add(" · ", kDim);
    line.add(std::to_string(info.running_jobs) + (info.running_jobs == 1 ? " job" : " jobs"),
             {.color = Color::kGreen});
  }
  if (info.context_window > 0) {
    const std::size_t percent = info.context_tokens * 100 / info.context_window;
    // Past 80% compaction is near: say so in colour.
    const Style style = percent >= 80 ? Style{.color = Color::kYellow} : kDim;
    line.add(" · ", kDim);
    line.add(std::to_string(percent) + "% of " + short_count(info.context_window) + " context",
             style);
  }
  const auto input = static_cast<std::size_t>(
      info.usage.input_tokens + info.usage.cache_read_tokens + info.usage.cache_write_tokens);
  if (input > 0 || info.usage.output_tokens > 0) {
    line.add(" · ↑" + short_count(input) + " ↓" +
                 short_count(static_cast<std::size_t>(info.usage.output_tokens)),
             kDim);
  }
  const core::Usage& last = info.last_reply;
  const std::int64_t prompt = last.input_tokens + last.cache_read_tokens + last.cache_write_tokens;
  if (last.cache_read_tokens > 0 && prompt > 0) {
    line.add(" · " + std::to_string(last.cache_read_tokens * 100 / prompt) + "% cached", kDim);
  } else if (last.cache_write_tokens > 0) {
    line.add(" · cache written", kDim);
  }
  if (info.cost_usd) {
    char cost[32];
    std::snprintf(cost, sizeof cost, " · $%.4f", *info.cost_usd);
    line.add(cost, kDim);
  }
  return truncate(line, width);
}

}  // namespace nib::ui
