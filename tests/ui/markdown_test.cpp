#include "ui/markdown.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace nib::ui {
namespace {

using Rows = std::vector<std::string>;

Rows plain_rows(const StyledLines& rows) {
  Rows out;
  for (const StyledLine& row : rows) out.push_back(row.plain());
  return out;
}

Rows render(std::string_view source, std::size_t width = 40) {
  return plain_rows(render_markdown(source, width));
}

// The style of the first span that contains `text`; fails the test when there is none.
Style style_of(const StyledLines& rows, std::string_view text) {
  for (const StyledLine& row : rows) {
    for (const Span& span : row.spans) {
      if (span.text.find(text) != std::string::npos) return span.style;
    }
  }
  ADD_FAILURE() << "no span contains \"" << text << "\"";
  return {};
}

// Every construct the renderer knows, closed, with wide characters, entities and a control
// character; the property tests run it at many widths and cut off at every length.
constexpr std::string_view kMixedDocument =
    "# Heading with *emphasis*\n"
    "\n"
    "A paragraph with **strong**, `code`, ~~gone~~, a [link](https://example.com/path) and "
    "<https://auto.link>; 日本語のテキスト wraps too. &amp; &#x27; \x1b[31m red?\n"
    "\n"
    "- first item that is long enough to wrap\n"
    "  - nested with `code`\n"
    "    - deeper still, also quite long\n"
    "- [ ] open task\n"
    "- [x] done task\n"
    "\n"
    "1. one\n"
    "\n"
    "   second paragraph of one\n"
    "2. two\n"
    "\n"
    "> quoted text that goes on and on\n"
    ">\n"
    "> > nested quote\n"
    "\n"
    "```cpp\n"
    "int main() {\n"
    "\treturn 0;  // a comment long enough to be cut at narrow widths 日本語\n"
    "}\n"
    "```\n"
    "\n"
    "    indented code\n"
    "\n"
    "***\n"
    "\n"
    "| Left | Center | Right |\n"
    "|:-----|:------:|------:|\n"
    "| a | 中文 | 1.5 |\n"
    "| longer cell text | b | 22 |\n"
    "\n"
    "<div>\n"
    "raw <b>html</b>\n"
    "</div>\n"
    "\n"
    "Last line with ![an image](img.png) and a hard  \n"
    "break.\n";

TEST(Markdown, WrapsParagraphsWithOneBlankRowBetweenBlocks) {
  EXPECT_EQ(render("one two three four five six\n\nnext paragraph", 14),
            (Rows{"one two three", "four five six", "", "next paragraph"}));
  EXPECT_EQ(render("\n\n  lonely  \n\n\n"), (Rows{"lonely"}));
  EXPECT_TRUE(render("").empty());
}

TEST(Markdown, BreaksRowsAtHardBreaksOnly) {
  EXPECT_EQ(render("soft\nbreak and hard  \nbreak\\\nagain"),
            (Rows{"soft break and hard", "break", "again"}));
}

TEST(Markdown, HeadingsAreBoldCyanWithoutHashes) {
  const StyledLines rows = render_markdown("# Top\n\n## Sub *it*\n\nSetext\n---", 40);
  EXPECT_EQ(plain_rows(rows), (Rows{"Top", "", "Sub it", "", "Setext"}));
  EXPECT_EQ(style_of(rows, "Top"), (Style{.color = Color::kCyan, .bold = true, .underline = true}));
  EXPECT_EQ(style_of(rows, "Sub"), (Style{.color = Color::kCyan, .bold = true}));
  EXPECT_TRUE(style_of(rows, "it").italic);
  EXPECT_FALSE(style_of(rows, "Setext").underline);
}

TEST(Markdown, StylesInlineSpans) {
  const StyledLines rows = render_markdown("*em* **strong** `a  code` ~~strike~~ ***both***", 80);
  EXPECT_EQ(plain_rows(rows), (Rows{"em strong a  code strike both"}));
  EXPECT_EQ(style_of(rows, "em"), (Style{.italic = true}));
  EXPECT_EQ(style_of(rows, "strong"), (Style{.bold = true}));
  EXPECT_EQ(style_of(rows, "a  code"), (Style{.color = Color::kCyan}));
  EXPECT_EQ(style_of(rows, "strike"), (Style{.dim = true}));
  EXPECT_EQ(style_of(rows, "both"), (Style{.bold = true, .italic = true}));
}

TEST(Markdown, ShowsALinksUrlUnlessTheTextIsTheUrl) {
  const StyledLines rows = render_markdown(
      "[docs](https://x.dev/a) <https://y.dev> www.z.dev me@w.dev [](https://e.dev) [t]()", 120);
  EXPECT_EQ(plain_rows(rows),
            (Rows{"docs (https://x.dev/a) https://y.dev www.z.dev me@w.dev  (https://e.dev) t"}));
  EXPECT_EQ(style_of(rows, "docs"), (Style{.underline = true}));
  EXPECT_EQ(style_of(rows, "(https://x.dev/a)"), (Style{.dim = true}));
  EXPECT_EQ(style_of(rows, "https://y.dev"), (Style{.underline = true}));
  EXPECT_EQ(style_of(rows, "www.z.dev"), (Style{.underline = true}));
  EXPECT_EQ(style_of(rows, "me@w.dev"), (Style{.underline = true}));
  EXPECT_EQ(render("[https://v.dev](https://v.dev)"), (Rows{"https://v.dev"}));
}

TEST(Markdown, ShowsImagesAsTheirAltText) {
  const StyledLines rows = render_markdown("see ![a *cat*](cat.png) and ![](x.png)", 80);
  EXPECT_EQ(plain_rows(rows), (Rows{"see [image: a cat] and [image]"}));
  EXPECT_EQ(style_of(rows, "[image: a "), (Style{.dim = true}));
  EXPECT_EQ(style_of(rows, "cat"), (Style{.dim = true, .italic = true}));
}

TEST(Markdown, NestsBulletListsWithHangingIndents) {
  EXPECT_EQ(render("- first item wraps here\n  - second level item\n    - third level\n"
                   "      - fourth\n- back",
                   16),
            (Rows{"• first item", "  wraps here", "  ◦ second level", "    item", "    ▪ third",
                  "      level", "      ▪ fourth", "• back"}));
}

TEST(Markdown, NumbersOrderedListsFromTheirStart) {
  EXPECT_EQ(render("3. three\n4. four is long\n\n   more\n\n- x", 12),
            (Rows{"3. three", "", "4. four is", "   long", "", "   more", "", "• x"}));
  EXPECT_EQ(render("9. nine\n10. ten wraps\n", 10), (Rows{"9. nine", "10. ten", "    wraps"}));
  EXPECT_EQ(render("1. a\n   1. b\n   2. c"), (Rows{"1. a", "   1. b", "   2. c"}));
}

TEST(Markdown, MarksTaskItems) {
  EXPECT_EQ(render("- [ ] todo\n- [x] done\n- plain\n\n1. [X] numbered"),
            (Rows{"☐ todo", "☑ done", "• plain", "", "1. ☑ numbered"}));
}

TEST(Markdown, SeparatesItemsOfLooseListsOnly) {
  EXPECT_EQ(render("- a\n- b\n  - c\n- d\n\nafter"),
            (Rows{"• a", "• b", "  ◦ c", "• d", "", "after"}));
  EXPECT_EQ(render("- a\n\n- b\n\n  b2\n- c"), (Rows{"• a", "", "• b", "", "  b2", "", "• c"}));
  EXPECT_EQ(render("- \n- b"), (Rows{"•", "• b"}));
}

TEST(Markdown, NestsOtherBlocksInsideItems) {
  EXPECT_EQ(render("- code:\n\n  ```sh\n  make\n  ```\n- > quoted\n  > text", 20),
            (Rows{"• code:", "", "    sh", "    make", "", "• │ quoted text"}));
}

TEST(Markdown, PrefixesQuotedRows) {
  const StyledLines rows =
      render_markdown("> quoted *words* that wrap\n>\n> > nested\n> - item\n\nout", 14);
  EXPECT_EQ(plain_rows(rows),
            (Rows{"│ quoted words", "│ that wrap", "│", "│ │ nested", "│", "│ • item", "", "out"}));
  EXPECT_EQ(style_of(rows, "│"), (Style{.dim = true}));
  EXPECT_EQ(style_of(rows, "quoted"), Style{});
  EXPECT_EQ(style_of(rows, "words"), (Style{.italic = true}));
  EXPECT_EQ(render("> ```\n> code\n> ```"), (Rows{"│   code"}));
}

TEST(Markdown, SetsCodeBlocksApartAndCutsLongLines) {
  const StyledLines rows =
      render_markdown("```python extra\nshort\n\tx = 'abcdefghijklmnop'\n\n```\nafter", 16);
  EXPECT_EQ(plain_rows(rows),
            (Rows{"  python", "  short", "      x = 'abcde", "  fghijklmnop'", "", "", "after"}));
  EXPECT_EQ(style_of(rows, "python"), (Style{.dim = true}));
  EXPECT_EQ(style_of(rows, "short"), (Style{.color = Color::kYellow}));
  EXPECT_EQ(render("text\n\n    indented\n      more\n"),
            (Rows{"text", "", "  indented", "    more"}));
}

TEST(Markdown, CutsCodeWithoutSplittingWideCharacters) {
  EXPECT_EQ(render("```\n日本語です\n```", 7), (Rows{"  日本", "  語で", "  す"}));
  EXPECT_EQ(render("```\naé日\n```", 4), (Rows{"  aé", "  日"}));
}

TEST(Markdown, DrawsThematicBreaksUpToFortyColumns) {
  std::string rule;
  for (int column = 0; column < 40; ++column) rule += "─";
  const StyledLines rows = render_markdown("a\n\n---\n\nb", 80);
  EXPECT_EQ(plain_rows(rows), (Rows{"a", "", rule, "", "b"}));
  EXPECT_EQ(style_of(rows, "─"), (Style{.dim = true}));
  EXPECT_EQ(render_markdown("***", 7).front().width(), 7u);
}

TEST(Markdown, AlignsTableColumns) {
  const StyledLines rows = render_markdown(
      "| Left | Center | Right |\n|:--|:-:|--:|\n| a | b | 1 |\n| long cell | mid | 22 |", 80);
  EXPECT_EQ(plain_rows(rows), (Rows{"Left      │ Center │ Right", "──────────┼────────┼──────",
                                    "a         │   b    │     1", "long cell │  mid   │    22"}));
  EXPECT_EQ(style_of(rows, "Center"), (Style{.bold = true}));
  EXPECT_EQ(style_of(rows, "long cell"), Style{});
  EXPECT_EQ(style_of(rows, "┼"), (Style{.dim = true}));
}

TEST(Markdown, ShrinksTheWidestTableColumnsAndWrapsTheirCells) {
  EXPECT_EQ(
      render("| id | description |\n|---|---|\n| 1 | a rather long description |\n", 20),
      (Rows{"id │ description", "───┼────────────────", "1  │ a rather long", "   │ description"}));
  EXPECT_EQ(render("| 名前 | 説明 |\n|---|---|\n| 山田 | 日本語のテキスト |\n", 15),
            (Rows{"名前 │ 説明", "─────┼─────────", "山田 │ 日本語の", "     │ テキスト"}));
}

TEST(Markdown, ListsTableCellsWhenColumnsCannotFit) {
  EXPECT_EQ(render("| key | value |\n|---|---|\n| a | first |\n| b | second |\n", 8),
            (Rows{"key: a", "value:", "first", "", "key: b", "value:", "second"}));
  EXPECT_EQ(render("| only | header |\n|---|---|\n", 6), (Rows{"only", "header"}));
}

TEST(Markdown, ShowsHtmlAsWritten) {
  EXPECT_EQ(render("<div class=\"x\">\n  <b>bold</b>\n</div>\n\ntext <kbd>Ctrl</kbd> &lt;b&gt;"),
            (Rows{"<div class=\"x\">", "  <b>bold</b>", "</div>", "", "text <kbd>Ctrl</kbd> <b>"}));
}

TEST(Markdown, DecodesEntities) {
  EXPECT_EQ(render("&amp; &lt; &gt; &quot; &#39; &#x27; &copy; &mdash; &#9731; &unknown; &#0;"),
            (Rows{"& < > \" ' ' © — ☃ &unknown; \xEF\xBF\xBD"}));
  EXPECT_EQ(render("[x](https://e.dev/?a=1&amp;b=2)"), (Rows{"x (https://e.dev/?a=1&b=2)"}));
}

bool has_control_character(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) return true;
    if (byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      return true;
    }
  }
  return false;
}

TEST(Markdown, KeepsControlCharactersFromTheTerminal) {
  EXPECT_EQ(render("a\x1b[2Jb \x7f c\xc2\x9b"), (Rows{"a?[2Jb ? c?"}));
  const std::string_view hostile =
      "# h\x1b]0;title\x07\n\n`c\x1b`\n\n[l](http://x/\x1b) &#27; "
      "&#x9b;\n\n```\x1b\nk\x1b\x08\r\n```\n\n"
      "| a\x1b | b |\n|---|---|\n| \x1b | \x05 |\n\n<p>\x1b</p>\n\n- \x1b\n\n> \x1b\n\ninvalid "
      "\xff\xfe";
  for (const std::size_t width : {3u, 40u}) {
    for (const StyledLine& row : render_markdown(hostile, width)) {
      EXPECT_FALSE(has_control_character(row.plain())) << row.plain();
    }
  }
}

TEST(Markdown, WrapsWideCharactersByColumns) {
  EXPECT_EQ(render("日本語のテキストを折り返す", 10), (Rows{"日本語のテ", "キストを折", "り返す"}));
  EXPECT_EQ(render("- 日本語の箇条書きです", 9),
            (Rows{"• 日本語", "  の箇条", "  書きで", "  す"}));
}

TEST(Markdown, RendersUnfinishedConstructsWhileStreaming) {
  EXPECT_EQ(render("Intro\n\n```py\nx = 1\nif x"),
            (Rows{"Intro", "", "  py", "  x = 1", "  if x"}));
  EXPECT_EQ(render("```"), Rows{});
  EXPECT_EQ(render("text **bold and *em"), (Rows{"text **bold and *em"}));
  EXPECT_EQ(render("| a | b |\n|--|"), (Rows{"| a | b | |--|"}));
  EXPECT_EQ(render("- item\n- "), (Rows{"• item", "•"}));
  // md4c reads one byte past an unfinished link at the very end; what follows in memory must
  // not leak into it.
  EXPECT_EQ(render(std::string_view("see [docs](https://x.dev/a) more").substr(0, 26)),
            (Rows{"see [docs](https://x.dev/a"}));
  // Every prefix of a document renders, within the width.
  for (std::size_t length = 0; length <= kMixedDocument.size(); ++length) {
    for (const StyledLine& row : render_markdown(kMixedDocument.substr(0, length), 24)) {
      ASSERT_LE(row.width(), 24u) << "cut at " << length << ": " << row.plain();
    }
  }
}

TEST(Markdown, NeverExceedsTinyWidths) {
  for (std::size_t width = 1; width <= 10; ++width) {
    const StyledLines rows = render_markdown(kMixedDocument, width);
    EXPECT_FALSE(rows.empty());
    for (const StyledLine& row : rows) {
      ASSERT_LE(row.width(), width) << row.plain();
      ASSERT_FALSE(has_control_character(row.plain()));
    }
  }
  EXPECT_EQ(render("- a\n  - b\n    - c", 3), (Rows{"• a", "◦ b", "▪ c"}));
  EXPECT_EQ(render_markdown("x", 0), render_markdown("x", 1));
}

TEST(Markdown, RendersAMegabyteInOnePass) {
  // Linear time: a quadratic step would make this test take minutes, not milliseconds.
  std::string source;
  while (source.size() < (1u << 20)) source += kMixedDocument;
  const StyledLines rows = render_markdown(source, 80);
  EXPECT_GT(rows.size(), source.size() / 100);
  for (const StyledLine& row : rows) ASSERT_LE(row.width(), 80u);
}

}  // namespace
}  // namespace nib::ui

namespace nib::ui {
namespace {

TEST(MarkdownBlockBoundary, IsAfterTheLastBlankLineOutsideCode) {
  EXPECT_EQ(last_block_boundary("one\n\ntwo\n"), 5u);
  EXPECT_EQ(last_block_boundary("one\n\ntwo"), 0u);  // the next line may still be growing
  EXPECT_EQ(last_block_boundary("a\n\nb\n\nc\n"), 6u);
  EXPECT_EQ(last_block_boundary("no blank line\nat all\n"), 0u);
  // Not inside a fence, and not before an indented line (a list item's or code's continuation).
  EXPECT_EQ(last_block_boundary("x\n\n```\ncode\n\nmore\n"), 3u);
  EXPECT_EQ(last_block_boundary("x\n\n```\ncode\n\nmore\n```\n\nafter\n"), 23u);
  EXPECT_EQ(last_block_boundary("- item\n\n  continued\n"), 0u);
  EXPECT_EQ(last_block_boundary("~~~~\n```\n\nstill code\n~~~~\n\nout\n"), 27u);
}

}  // namespace
}  // namespace nib::ui
