#include "ui/line_editor.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nib::ui {
namespace {

// The editor's text with '|' where the cursor is.
std::string state(const LineEditor& editor) {
  std::string shown = editor.text();
  shown.insert(editor.cursor(), "|");
  return shown;
}

// An editor holding `marked` ("ab|c": the text "abc", the cursor after "ab").
LineEditor editor_at(const std::string& marked) {
  const std::size_t cursor = marked.find('|');
  LineEditor editor;
  editor.set_text(marked.substr(0, cursor) + marked.substr(cursor + 1));
  while (editor.cursor() > cursor) editor.handle({KeyCode::kLeft});
  EXPECT_EQ(state(editor), marked);
  return editor;
}

// The state after pressing `code` in an editor at `marked`.
std::string after(const std::string& marked, KeyCode code) {
  LineEditor editor = editor_at(marked);
  EXPECT_EQ(editor.handle({code}), EditResult::kHandled);
  return state(editor);
}

std::string after_ctrl(const std::string& marked, char letter) {
  LineEditor editor = editor_at(marked);
  EXPECT_EQ(editor.handle({KeyCode::kCtrl, {}, letter}), EditResult::kHandled);
  return state(editor);
}

std::vector<std::string> view_rows(const EditorView& view) {
  std::vector<std::string> rows;
  for (const StyledLine& row : view.rows) rows.push_back(row.plain());
  return rows;
}

TEST(LineEditor, InsertsTextAtTheCursor) {
  LineEditor editor;
  EXPECT_TRUE(editor.empty());
  EXPECT_EQ(editor.handle({KeyCode::kText, "ab"}), EditResult::kHandled);
  editor.handle({KeyCode::kLeft});
  editor.handle({KeyCode::kText, "日"});
  EXPECT_EQ(state(editor), "a日|b");
  editor.handle({KeyCode::kNewline});
  EXPECT_EQ(state(editor), "a日\n|b");
  EXPECT_FALSE(editor.empty());
}

TEST(LineEditor, CleansPastedText) {
  LineEditor editor;
  editor.handle(
      {KeyCode::kPaste, "one\r\ntwo\rthree\tfour\x1b[31m red\x1b[0m\a\x1b]0;title\a!\xff"});
  EXPECT_EQ(state(editor), "one\ntwo\nthree    four red!\uFFFD|");
}

TEST(LineEditor, SetTextCleansAndPutsTheCursorAtTheEnd) {
  LineEditor editor;
  editor.set_text("a\tb\r\nc\x01");
  EXPECT_EQ(state(editor), "a    b\nc|");
}

TEST(LineEditor, MovesByCharacters) {
  EXPECT_EQ(after("a日|b", KeyCode::kLeft), "a|日b");
  EXPECT_EQ(after("a|日b", KeyCode::kRight), "a日|b");
  EXPECT_EQ(after("|ab", KeyCode::kLeft), "|ab");
  EXPECT_EQ(after("ab|", KeyCode::kRight), "ab|");
  EXPECT_EQ(after("a\n|b", KeyCode::kLeft), "a|\nb");
  EXPECT_EQ(after("a|\nb", KeyCode::kRight), "a\n|b");
  // A combining mark moves with its base character.
  EXPECT_EQ(after("xe\u0301|y", KeyCode::kLeft), "x|e\u0301y");
  EXPECT_EQ(after("x|e\u0301y", KeyCode::kRight), "xe\u0301|y");
}

TEST(LineEditor, MovesToTheEndsOfTheCurrentLine) {
  EXPECT_EQ(after("ab\ncd|e\nf", KeyCode::kHome), "ab\n|cde\nf");
  EXPECT_EQ(after("ab\nc|de\nf", KeyCode::kEnd), "ab\ncde|\nf");
  EXPECT_EQ(after_ctrl("ab\ncd|e\nf", 'a'), "ab\n|cde\nf");
  EXPECT_EQ(after_ctrl("ab\nc|de\nf", 'e'), "ab\ncde|\nf");
  EXPECT_EQ(after("a|b", KeyCode::kHome), "|ab");
  EXPECT_EQ(after("a|b", KeyCode::kEnd), "ab|");
}

TEST(LineEditor, MovesByWords) {
  EXPECT_EQ(after("foo_bar1  baz.qux|", KeyCode::kWordLeft), "foo_bar1  baz.|qux");
  EXPECT_EQ(after("foo_bar1  baz.|qux", KeyCode::kWordLeft), "foo_bar1  |baz.qux");
  EXPECT_EQ(after("foo_bar1  |baz.qux", KeyCode::kWordLeft), "|foo_bar1  baz.qux");
  EXPECT_EQ(after("|foo_bar1  baz.qux", KeyCode::kWordRight), "foo_bar1|  baz.qux");
  EXPECT_EQ(after("foo_bar1|  baz.qux", KeyCode::kWordRight), "foo_bar1  baz|.qux");
  EXPECT_EQ(after("one\n  |two", KeyCode::kWordLeft), "|one\n  two");
  EXPECT_EQ(after("日本, 語|", KeyCode::kWordLeft), "日本, |語");
  EXPECT_EQ(after("|...", KeyCode::kWordRight), "...|");
}

TEST(LineEditor, DeletesCharacters) {
  EXPECT_EQ(after("a日|b", KeyCode::kBackspace), "a|b");
  EXPECT_EQ(after("a|日b", KeyCode::kDelete), "a|b");
  EXPECT_EQ(after("a\n|b", KeyCode::kBackspace), "a|b");
  EXPECT_EQ(after("a|\nb", KeyCode::kDelete), "a|b");
  EXPECT_EQ(after("|ab", KeyCode::kBackspace), "|ab");
  EXPECT_EQ(after("ab|", KeyCode::kDelete), "ab|");
  EXPECT_EQ(after("xe\u0301|", KeyCode::kBackspace), "x|");
}

TEST(LineEditor, CtrlDDeletesForwardOrIsTheCallersOnAnEmptyEditor) {
  EXPECT_EQ(after_ctrl("a|bc", 'd'), "a|c");
  EXPECT_EQ(after_ctrl("abc|", 'd'), "abc|");
  LineEditor editor;
  EXPECT_EQ(editor.handle({KeyCode::kCtrl, {}, 'd'}), EditResult::kIgnored);
}

TEST(LineEditor, DeletesWords) {
  EXPECT_EQ(after("git commit -m|", KeyCode::kDeleteWordBack), "git commit -|");
  EXPECT_EQ(after("git commit |-m", KeyCode::kDeleteWordBack), "git |-m");
  EXPECT_EQ(after("|git commit", KeyCode::kDeleteWordBack), "|git commit");
  EXPECT_EQ(after("git| commit -m", KeyCode::kDeleteWordForward), "git| -m");
  EXPECT_EQ(after("git commit|", KeyCode::kDeleteWordForward), "git commit|");
}

TEST(LineEditor, KillsToTheEndsOfTheLine) {
  EXPECT_EQ(after_ctrl("ab|cd\nef", 'k'), "ab|\nef");
  EXPECT_EQ(after_ctrl("abcd|\nef", 'k'), "abcd|ef");  // at the end of a line: join the next
  EXPECT_EQ(after_ctrl("abcd|", 'k'), "abcd|");
  EXPECT_EQ(after_ctrl("ab\ncd|ef", 'u'), "ab\n|ef");
  EXPECT_EQ(after_ctrl("ab\n|ef", 'u'), "ab\n|ef");
}

TEST(LineEditor, EnterSubmitsUnlessItFollowsABackslash) {
  LineEditor editor = editor_at("ls \\|");
  EXPECT_EQ(editor.handle({KeyCode::kEnter}), EditResult::kHandled);
  EXPECT_EQ(state(editor), "ls \n|");
  editor.handle({KeyCode::kText, "-la"});
  EXPECT_EQ(editor.handle({KeyCode::kEnter}), EditResult::kSubmit);
  EXPECT_EQ(editor.text(), "ls \n-la");

  LineEditor empty;
  EXPECT_EQ(empty.handle({KeyCode::kEnter}), EditResult::kSubmit);
  LineEditor mid = editor_at("a\\|b");
  EXPECT_EQ(mid.handle({KeyCode::kEnter}), EditResult::kHandled);
  EXPECT_EQ(state(mid), "a\n|b");
}

TEST(LineEditor, LeavesNonEditingKeysToTheCaller) {
  for (const Key& key : std::vector<Key>{{KeyCode::kEscape},
                                         {KeyCode::kTab},
                                         {KeyCode::kShiftTab},
                                         {KeyCode::kPageUp},
                                         {KeyCode::kPageDown},
                                         {KeyCode::kCtrl, {}, 'c'},
                                         {KeyCode::kCtrl, {}, 'l'}}) {
    LineEditor editor = editor_at("a|b");
    EXPECT_EQ(editor.handle(key), EditResult::kIgnored);
    EXPECT_EQ(state(editor), "a|b");
  }
}

TEST(LineEditor, TakesASubmissionIntoTheHistory) {
  LineEditor editor;
  editor.set_history({"old"});
  editor.set_text("first");
  EXPECT_EQ(editor.take_submission(), "first");
  EXPECT_EQ(state(editor), "|");
  editor.set_text("first");
  editor.take_submission();  // the same as the newest entry
  editor.set_text(" \n ");
  EXPECT_EQ(editor.take_submission(), " \n ");  // blank
  editor.set_text("old");
  editor.take_submission();  // equal to an older entry, not the newest: kept
  EXPECT_EQ(editor.history(), (std::vector<std::string>{"old", "first", "old"}));
}

TEST(LineEditor, BrowsesTheHistoryAndRestoresTheDraft) {
  LineEditor editor;
  editor.set_history({"one", "two"});
  editor.handle({KeyCode::kText, "dra"});
  editor.handle({KeyCode::kLeft});
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "two|");
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "one|");
  editor.handle({KeyCode::kUp});  // no older entry
  EXPECT_EQ(state(editor), "one|");
  editor.handle({KeyCode::kDown});
  EXPECT_EQ(state(editor), "two|");
  editor.handle({KeyCode::kDown});
  EXPECT_EQ(state(editor), "dra|");
  editor.handle({KeyCode::kDown});  // past the draft: nothing
  EXPECT_EQ(state(editor), "dra|");
}

TEST(LineEditor, BrowsesPastAMultiLineEntryLineByLine) {
  LineEditor editor;
  editor.set_history({"older", "a\nbc"});
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "a\nbc|");
  editor.handle({KeyCode::kUp});  // within the entry first
  EXPECT_EQ(state(editor), "a|\nbc");
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "older|");
  editor.handle({KeyCode::kDown});
  EXPECT_EQ(state(editor), "a\nbc|");
  editor.handle({KeyCode::kDown});
  EXPECT_EQ(state(editor), "|");
}

TEST(LineEditor, MovesBetweenLinesKeepingTheColumn) {
  LineEditor editor = editor_at("abcdef\nab\nabcd|ef");
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "abcdef\nab|\nabcdef");  // clamped to the short line
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "abcd|ef\nab\nabcdef");  // the column it aimed for
  editor.handle({KeyCode::kDown});
  editor.handle({KeyCode::kDown});
  EXPECT_EQ(state(editor), "abcdef\nab\nabcd|ef");
  editor.handle({KeyCode::kLeft});  // any other key ends the run of vertical moves
  editor.handle({KeyCode::kUp});
  EXPECT_EQ(state(editor), "abcdef\nab|\nabcdef");
}

TEST(LineEditor, MovesBetweenLinesByDisplayColumns) {
  EXPECT_EQ(after("日本語\nabc|", KeyCode::kUp), "日|本語\nabc");
  EXPECT_EQ(after("日本|語\nabc", KeyCode::kDown), "日本語\nabc|");
  EXPECT_EQ(after("日|本語\nabc", KeyCode::kDown), "日本語\nab|c");
}

TEST(LineEditor, RendersPrefixesAndLines) {
  LineEditor editor = editor_at("ab|\ncd");
  const Style bold{.bold = true};
  const EditorView view = editor.render(20, 10, styled("> ", bold), styled("  "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"> ab", "  cd"}));
  EXPECT_EQ(view.rows[0].spans, (std::vector<Span>{{"> ", bold}, {"ab", {}}}));
  EXPECT_EQ(view.cursor_row, 0u);
  EXPECT_EQ(view.cursor_column, 4u);
}

TEST(LineEditor, RendersAnEmptyEditor) {
  const EditorView view = LineEditor{}.render(20, 10, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(view), std::vector<std::string>{"> "});
  EXPECT_EQ(view.cursor_row, 0u);
  EXPECT_EQ(view.cursor_column, 2u);
}

TEST(LineEditor, WrapsLongLinesByCharacters) {
  LineEditor editor = editor_at("abcd|efghij\nxy");
  const EditorView view = editor.render(6, 10, styled("> "), styled(". "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"> abcd", ". efgh", ". ij", ". xy"}));
  EXPECT_EQ(view.cursor_row, 1u);  // before "e", which starts the second row
  EXPECT_EQ(view.cursor_column, 2u);
}

TEST(LineEditor, NeverSplitsAWideCharacter) {
  LineEditor editor = editor_at("日本語|");
  const EditorView view = editor.render(7, 10, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"> 日本", "  語"}));
  EXPECT_EQ(view.cursor_row, 1u);
  EXPECT_EQ(view.cursor_column, 4u);
}

TEST(LineEditor, PutsACursorAtTheEndOfAFullRowOnANewRow) {
  LineEditor editor = editor_at("abcd|\nx");
  const EditorView view = editor.render(6, 10, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"> abcd", "  ", "  x"}));
  EXPECT_EQ(view.cursor_row, 1u);
  EXPECT_EQ(view.cursor_column, 2u);

  LineEditor at_end = editor_at("abcd|");
  const EditorView end_view = at_end.render(6, 10, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(end_view), (std::vector<std::string>{"> abcd", "  "}));
  EXPECT_EQ(end_view.cursor_row, 1u);
}

TEST(LineEditor, LeavesOutAPrefixThatDoesNotFit) {
  // At three columns "> " would leave one: too little for a wide character.
  LineEditor editor = editor_at("日本|");
  const EditorView view = editor.render(3, 10, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"日", "本"}));
  EXPECT_EQ(view.cursor_row, 1u);
  EXPECT_EQ(view.cursor_column, 2u);
}

TEST(LineEditor, ShowsTheWindowOfRowsHoldingTheCursor) {
  LineEditor editor = editor_at("0\n1\n2\n3\n4\n5|\n6\n7\n8\n9");
  EditorView view = editor.render(20, 3, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"  3", "  4", "  5"}));
  EXPECT_EQ(view.cursor_row, 2u);
  EXPECT_EQ(view.hidden_above, 3u);
  EXPECT_EQ(view.hidden_below, 4u);

  LineEditor top = editor_at("0\n1|\n2\n3\n4");
  view = top.render(20, 3, styled("> "), styled("  "));
  EXPECT_EQ(view_rows(view), (std::vector<std::string>{"> 0", "  1", "  2"}));
  EXPECT_EQ(view.cursor_row, 1u);
  EXPECT_EQ(view.hidden_above, 0u);
  EXPECT_EQ(view.hidden_below, 2u);
}

}  // namespace
}  // namespace nib::ui
