#include "ui/transcript_items.hpp"

#include <algorithm>
#include <array>
#include <functional>

#include "ui/markdown.hpp"
#include "ui/tool_summary.hpp"
#include "util/byte_size.hpp"
#include "util/plural.hpp"

namespace nib::ui {
namespace {

constexpr Style kDim{.dim = true};
constexpr Style kGray{.color = Color::kGray};

// Rows of `text` wrapped to `width`, the first after `first`, the rest after `rest`.
void add_wrapped(StyledLines& rows, const StyledLine& first, const StyledLine& rest,
                 const StyledLine& text, std::size_t width) {
  StyledLine line = first;
  for (const Span& span : text.spans) line.add(span.text, span.style);
  for (StyledLine& row : wrap(line, width, rest)) rows.push_back(std::move(row));
}

StyledLines render_user(const UserItem& item, std::size_t width) {
  StyledLines rows;
  const Style prompt{.color = Color::kCyan, .bold = true};
  bool first = true;
  for (const std::string& line : printable_lines(item.text)) {
    add_wrapped(rows, styled(first ? "> " : "  ", prompt), styled("  "), styled(line), width);
    first = false;
  }
  return rows;
}

StyledLines render_assistant(const AssistantItem& item, std::size_t width) {
  StyledLines rows;
  const std::size_t inner = width > 4 ? width - 2 : width;
  bool first = true;
  for (StyledLine& line : render_markdown(item.markdown, inner)) {
    if (line.spans.empty() && !first) {  // a blank row between blocks: no indent to trail
      rows.emplace_back();
      continue;
    }
    StyledLine row = styled(first && !item.continuation ? "● " : "  ");
    for (Span& span : line.spans) row.add(span.text, span.style);
    rows.push_back(std::move(row));
    first = false;
  }
  return rows;
}

StyledLines render_thinking(const ThinkingItem& item, std::size_t width) {
  // Collapsed: one dim row with the thought's latest line while it streams, its first after.
  const std::vector<std::string> lines = printable_lines(item.text);
  std::string shown;
  if (item.streaming) {
    for (auto line = lines.rbegin(); line != lines.rend() && shown.empty(); ++line) shown = *line;
  } else {
    for (auto line = lines.begin(); line != lines.end() && shown.empty(); ++line) shown = *line;
  }
  StyledLine row = styled(item.streaming ? "✻ Thinking: " : "✻ ", {.dim = true, .italic = true});
  row.add(shown, {.dim = true, .italic = true});
  return {truncate(row, width)};
}

StyledLines render_notice(const NoticeItem& item, std::size_t width) {
  Style style = kDim;
  if (item.kind == NoticeKind::kWarning) style = {.color = Color::kYellow};
  if (item.kind == NoticeKind::kError) style = {.color = Color::kRed};
  StyledLines rows;
  for (const std::string& line : printable_lines(item.text)) {
    add_wrapped(rows, {}, styled("  "), styled(line, style), width);
  }
  return rows;
}

Style diff_style(const std::string& line) {
  if (line.starts_with("+++") || line.starts_with("---")) return {.bold = true};
  if (line.starts_with("+")) return {.color = Color::kGreen};
  if (line.starts_with("-")) return {.color = Color::kRed};
  if (line.starts_with("@@")) return {.color = Color::kCyan};
  return kDim;
}

StyledLine tool_header(const ToolItem& item, UiClock::time_point now) {
  StyledLine row;
  switch (item.state) {
    case ToolState::kStreaming:
      row.add("○ ", kGray).add(item.name, {.bold = true});
      row.add(" writing… (" + util::format_byte_size(item.argument_bytes) + ")", kDim);
      return row;
    case ToolState::kQueued:
      row.add("○ ", kGray).add(item.summary).add(" queued", kDim);
      return row;
    case ToolState::kRunning: {
      const auto elapsed =
          std::chrono::duration_cast<std::chrono::milliseconds>(now - item.started);
      row.add(std::string(spinner_frame(elapsed)) + " ", {.color = Color::kYellow});
      row.add(item.summary).add(" (" + format_duration(elapsed) + ")", kDim);
      return row;
    }
    case ToolState::kDone:
      break;
  }
  // A command that exited non-zero is data for the model, but a failure to the person watching.
  if (item.is_error || (item.exit_code && *item.exit_code != 0)) {
    row.add("✗ ", {.color = Color::kRed, .bold = true});
  } else {
    row.add("✓ ", {.color = Color::kGreen, .bold = true});
  }
  row.add(item.summary);
  if (item.exit_code && *item.exit_code != 0) {
    row.add(": exit " + std::to_string(*item.exit_code), {.color = Color::kRed});
  }
  // A call shown from a stored session has no duration.
  if (item.duration.count() > 0) row.add(" (" + format_duration(item.duration) + ")", kDim);
  return row;
}

void add_excerpt(StyledLines& rows, const Excerpt& excerpt, std::size_t width, bool& first,
                 const std::function<Style(const std::string&)>& style_of) {
  for (const std::string& line : excerpt.lines) {
    rows.push_back(
        truncate(styled(first ? "  ⎿ " : "    ", kGray).add(line, style_of(line)), width));
    first = false;
  }
  if (excerpt.omitted > 0) {
    rows.push_back(styled(first ? "  ⎿ " : "    ", kGray)
                       .add("… +" + std::to_string(excerpt.omitted) + " lines", kDim));
    first = false;
  }
}

StyledLines render_tool(const ToolItem& item, std::size_t width, UiClock::time_point now) {
  StyledLines rows{truncate(tool_header(item, now), width)};
  if (item.state == ToolState::kRunning && !item.activity.empty()) {
    const std::string counts =
        " · " + util::plural(static_cast<std::size_t>(item.subagent_calls_done), "call") +
        " done, " + util::plural(static_cast<std::size_t>(item.subagent_turns), "turn");
    rows.push_back(
        truncate(styled("  ⎿ ", kGray).add(item.activity, kDim).add(counts, kDim), width));
  }
  if (item.state != ToolState::kDone) return rows;
  if (!item.display.lines.empty() && !item.is_error) {
    for (StyledLine& row : diff_rows(item.display, width)) rows.push_back(std::move(row));
  } else {
    bool first = true;
    const Style style = item.is_error ? Style{.color = Color::kRed} : kDim;
    add_excerpt(rows, item.output, width, first, [style](const std::string&) { return style; });
  }
  return rows;
}

}  // namespace

const char* spinner_frame(std::chrono::milliseconds elapsed) {
  static constexpr std::array<const char*, 10> kFrames{"⠋", "⠙", "⠹", "⠸", "⠼",
                                                       "⠴", "⠦", "⠧", "⠇", "⠏"};
  return kFrames[static_cast<std::size_t>(elapsed / kSpinnerFrame) % kFrames.size()];
}

Excerpt excerpt(const std::string& text, std::size_t max_lines) {
  std::vector<std::string> lines = printable_lines(text);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  Excerpt out;
  if (lines.size() > max_lines) {
    out.omitted = lines.size() - max_lines;
    lines.resize(max_lines);
  }
  out.lines = std::move(lines);
  return out;
}

StyledLines diff_rows(const Excerpt& diff, std::size_t width) {
  StyledLines rows;
  bool first = true;
  add_excerpt(rows, diff, width, first, diff_style);
  return rows;
}

void ToolItem::finish(const core::ToolResult& result, const std::optional<std::string>& shown,
                      std::chrono::milliseconds took, std::optional<std::string> result_line) {
  state = ToolState::kDone;
  is_error = result.is_error;
  exit_code = result.exit_code;
  duration = took;
  output = result_line ? Excerpt{{std::move(*result_line)}, 0}
                       : excerpt(core::content_text(result.content, "[image]"), kToolPreviewLines);
  if (shown) display = excerpt(*shown, kToolDisplayLines);
}

bool is_final(const TranscriptItem& item) {
  if (const auto* assistant = std::get_if<AssistantItem>(&item)) return !assistant->streaming;
  if (const auto* thinking = std::get_if<ThinkingItem>(&item)) return !thinking->streaming;
  if (const auto* tool = std::get_if<ToolItem>(&item)) return tool->ended;
  return true;
}

StyledLines render_item(const TranscriptItem& item, std::size_t width, UiClock::time_point now) {
  return std::visit(
      [width, now](const auto& it) -> StyledLines {
        using T = std::decay_t<decltype(it)>;
        if constexpr (std::is_same_v<T, UserItem>) return render_user(it, width);
        if constexpr (std::is_same_v<T, AssistantItem>) return render_assistant(it, width);
        if constexpr (std::is_same_v<T, ThinkingItem>) return render_thinking(it, width);
        if constexpr (std::is_same_v<T, ToolItem>) return render_tool(it, width, now);
        if constexpr (std::is_same_v<T, NoticeItem>) return render_notice(it, width);
      },
      item);
}

}  // namespace nib::ui
