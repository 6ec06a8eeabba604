#include "ui/interactive_view.hpp"

#include <algorithm>

#include "permissions/rule_list.hpp"
#include "ui/plan_view.hpp"
#include "ui/tool_summary.hpp"
#include "ui/transcript_items.hpp"

namespace nib::ui {
namespace {

constexpr Style kDim{.dim = true};

// A horizontal line across the screen, with `label` (dim) near its left end when given.
StyledLine rule(std::size_t width, const std::string& label = {}) {
  StyledLine line;
  std::size_t used = 0;
  if (!label.empty() && width > label.size() + 4) {
    line.add("── ", {.color = Color::kGray}).add(label, kDim).add(" ", {.color = Color::kGray});
    used = line.width();
  }
  std::string rest;
  for (std::size_t i = used; i < width; ++i) rest += "─";
  return line.add(rest, {.color = Color::kGray});
}

std::string more_lines(std::size_t count, const char* arrow) {
  if (count == 0) return {};
  return std::string(arrow) + " " + std::to_string(count) +
         (count == 1 ? " more line" : " more lines");
}

// A window of at most kMenuRows entries that keeps `selected` in view.
std::pair<std::size_t, std::size_t> menu_window(std::size_t count, std::size_t selected) {
  const std::size_t first = selected >= kMenuRows ? selected - kMenuRows + 1 : 0;
  return {first, std::min(count, first + kMenuRows)};
}

// `label_width`: the widest label of the menu, so that descriptions line up.
void add_menu_row(StyledLines& rows, bool selected, const std::string& label,
                  const std::string& description, std::size_t label_width, std::size_t width) {
  StyledLine row;
  row.add(selected ? "› " : "  ", {.color = Color::kCyan});
  row.add(label, selected ? Style{.color = Color::kCyan, .bold = true} : Style{});
  if (!description.empty()) {
    const std::size_t used = styled(label).width();
    row.add(std::string(label_width > used ? label_width - used : 0, ' ') + "  " + description,
            kDim);
  }
  rows.push_back(truncate(row, width));
}

// What the call would change: why it would fail, or a summary and the diff. The diff, or the
// reason's lines after its first, take at most `max_rows` rows, the last of them saying how many
// lines are left out (the tool's included).
void add_preview(StyledLines& rows, const core::ChangePreview& preview, std::size_t width,
                 std::size_t max_rows) {
  if (!preview.failure.empty()) {
    // Wrapped, since the reason matters more than the layout; the lines after the first (the
    // file's region most like the text looked for) within `max_rows` (none when it is 0).
    const std::vector<std::string> lines =
        printable_lines("This call would fail: " + preview.failure);
    std::size_t used = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      StyledLines wrapped =
          wrap(styled("  " + lines[i], {.color = Color::kRed}), width, styled("  "));
      const std::size_t count_row = i + 1 < lines.size() ? 1 : 0;  // "… K more lines"
      if (i > 0 && used + wrapped.size() + count_row > max_rows) {
        if (max_rows > 0) rows.push_back(styled("  " + more_lines(lines.size() - i, "…"), kDim));
        break;
      }
      if (i > 0) used += wrapped.size();
      for (StyledLine& row : wrapped) rows.push_back(std::move(row));
    }
    return;
  }
  if (!preview.summary.empty()) {
    for (StyledLine& row :
         wrap(styled("  " + printable_lines(preview.summary).front()), width, styled("  "))) {
      rows.push_back(std::move(row));
    }
  }
  if (preview.diff.empty() || max_rows == 0) return;
  Excerpt diff = excerpt(preview.diff, max_rows);
  diff.omitted += preview.omitted_lines;
  if (diff.omitted > 0 && diff.lines.size() == max_rows) {
    diff.lines.pop_back();  // room for the row that counts what is left out
    ++diff.omitted;
  }
  for (StyledLine& row : diff_rows(diff, width)) rows.push_back(std::move(row));
}

}  // namespace

StyledLines InteractiveView::bottom_rows(const ViewState& state, std::size_t width,
                                         UiClock::time_point now, std::size_t max_diff_rows,
                                         std::optional<CursorPosition>& cursor) const {
  StyledLines rows;
  rows.emplace_back();
  if (state.working) {
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(now - state.working_since);
    StyledLine row;
    row.add(std::string(spinner_frame(elapsed)) + " ", {.color = Color::kYellow});
    row.add(state.working_label + "… ", {.color = Color::kYellow});
    std::string keys = "esc to interrupt";
    if (state.movable_commands == 1) keys += " · ctrl+b to run in background";
    if (state.movable_commands > 1) {
      keys += " · ctrl+b to run all " + std::to_string(state.movable_commands) + " in background";
    }
    row.add("(" + format_duration(elapsed) + " · " + keys + ")", kDim);
    rows.push_back(truncate(row, width));
  }
  for (const std::string& message : state.queued) {
    rows.push_back(
        truncate(styled("↳ queued: ", kDim).add(printable_lines(message).front(), kDim), width));
  }
  if (state.working || !plan_finished(state.plan)) {
    for (StyledLine& row : render_plan(state.plan, width)) rows.push_back(std::move(row));
  }

  const EditorView editor =
      state.editor != nullptr
          ? state.editor->render(width, kEditorMaxRows,
                                 styled("> ", {.color = Color::kCyan, .bold = true}), styled("  "))
          : EditorView{};
  const bool rule_editing = state.approval && state.approval->editing_rules;
  const bool editing =
      (!state.approval || rule_editing) && !state.picker && state.editor != nullptr;
  rows.push_back(rule(width, editing ? more_lines(editor.hidden_above, "↑") : ""));
  if (state.approval) {
    const ApprovalView& approval = *state.approval;
    for (StyledLine& row : wrap(styled(approval.question, {.bold = true}), width)) {
      rows.push_back(std::move(row));
    }
    if (!approval.reason.empty()) {
      for (StyledLine& row : wrap(styled("  " + approval.reason, kDim), width)) {
        rows.push_back(std::move(row));
      }
    }
    if (approval.parts.size() > 1) {
      for (const std::string& part : approval.parts) {
        for (StyledLine& row : wrap(styled("  · " + part), width)) rows.push_back(std::move(row));
      }
    }
    if (approval.preview) add_preview(rows, *approval.preview, width, max_diff_rows);
    const std::string rules = permissions::joined_rules(approval.rules);
    if (rule_editing) {
      rows.push_back(styled("  Rules to save (comma-separated) · enter saves · esc goes back",
                            {.color = Color::kCyan}));
      cursor = CursorPosition{rows.size() + editor.cursor_row, editor.cursor_column};
      for (const StyledLine& row : editor.rows) rows.push_back(row);
    } else {
      const std::string keys = rules.empty() ? "  [y]es  [n]o  [a]lways  · esc no"
                                             : "  [y]es  [n]o  [a]lways, saving " + rules +
                                                   "  [e]dit the rule first  · esc no";
      for (StyledLine& row : wrap(styled(keys, {.color = Color::kCyan}), width)) {
        rows.push_back(std::move(row));
      }
    }
  } else if (state.picker) {
    rows.push_back(truncate(styled(state.picker->title, {.bold = true}), width));
    for (const std::string& detail : state.picker->details) {
      for (StyledLine& row : wrap(styled("  " + detail, kDim), width))
        rows.push_back(std::move(row));
    }
    const auto [first, last] = menu_window(state.picker->entries.size(), state.picker->selected);
    for (std::size_t i = first; i < last; ++i) {
      add_menu_row(rows, i == state.picker->selected, state.picker->entries[i], "", 0, width);
    }
    rows.push_back(styled("  ↑↓ move · enter choose · esc cancel", kDim));
  } else if (editing) {
    cursor = CursorPosition{rows.size() + editor.cursor_row, editor.cursor_column};
    for (const StyledLine& row : editor.rows) rows.push_back(row);
  }
  rows.push_back(rule(width, editing ? more_lines(editor.hidden_below, "↓") : ""));
  if (!state.approval && !state.picker && !state.completions.empty()) {
    const auto [first, last] = menu_window(state.completions.size(), state.completion_selected);
    std::size_t label_width = 0;
    for (std::size_t i = first; i < last; ++i) {
      label_width = std::max(label_width, styled(state.completions[i].label).width());
    }
    for (std::size_t i = first; i < last; ++i) {
      add_menu_row(rows, i == state.completion_selected, state.completions[i].label,
                   state.completions[i].description, label_width, width);
    }
  }
  rows.push_back(render_footer(state.footer, width));
  if (!state.hint.empty()) rows.push_back(truncate(styled(state.hint, kDim), width));
  return rows;
}

ScreenUpdate InteractiveView::update(Transcript& transcript, const ViewState& state,
                                     std::size_t width, std::size_t height,
                                     UiClock::time_point now) const {
  std::optional<CursorPosition> cursor;
  std::size_t max_diff_rows = 0;
  if (state.approval && state.approval->preview) {
    // The diff gets what the rest leaves of the screen (one row kept free, as below).
    std::optional<CursorPosition> unused;
    const std::size_t others = bottom_rows(state, width, now, 0, unused).size() + 1;
    max_diff_rows = std::max(kMinPreviewRows, height > others ? height - others : 0);
  }
  StyledLines bottom = bottom_rows(state, width, now, max_diff_rows, cursor);
  // One row is kept free so the frame never quite fills the screen.
  const std::size_t budget = height > bottom.size() + 1 ? height - bottom.size() - 1 : 1;
  ScreenUpdate update;
  update.committed = transcript.take_committable(width, budget, now);
  LiveFrame& frame = update.live;
  frame.rows = transcript.live_rows(width, now);
  const std::size_t offset = frame.rows.size();
  for (StyledLine& row : bottom) frame.rows.push_back(std::move(row));
  if (cursor) frame.cursor = CursorPosition{cursor->row + offset, cursor->column};
  return update;
}

}  // namespace nib::ui
