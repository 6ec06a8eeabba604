#pragma once
// Markdown for the terminal: the assistant's replies (CommonMark with GitHub's tables,
// strikethrough, task lists and bare-URL autolinks, parsed by md4c) laid out as styled rows.
// Pure function; thread-safe.
//
// The look, in the 8 basic colours: headings bold cyan (level 1 also underlined), *emphasis*
// italic, **strong** bold, `code` cyan, ~~strike~~ dim, links underlined with " (url)" dim
// after them, images "[image: alt]" dim; lists "• ◦ ▪" by depth, "N." and "☐ ☑" with hanging
// indents; quotes behind a dim "│ "; code blocks indented two columns in yellow (the one other
// colour that reads on light and dark themes alike), their language dim above, long lines cut
// rather than wrapped; tables with " │ " columns and a "─┼─" rule under the bold header; HTML
// shown as written. One blank row separates blocks, except between the items of a tight list.
// Control characters never reach the output.
//
// Re-rendering the whole reply as it streams in is the intended use: time is linear in the
// source, and an unfinished construct (an open ``` fence, a half-typed **bold) renders as what
// it is so far.

#include <cstddef>
#include <string_view>

#include "ui/styled_text.hpp"

namespace nib::ui {

// `source` as rows of at most `width` display columns (a width below 1 counts as 1).
StyledLines render_markdown(std::string_view source, std::size_t width);

// Where `source` can be cut so that the part before renders the same on its own and the part
// after starts a new top-level block: just after the last blank line that is outside fenced
// code and followed by an unindented line; 0 when there is none. Lets a long streaming reply
// be rendered (and committed) in finished pieces instead of again from the start.
std::size_t last_block_boundary(std::string_view source);

}  // namespace nib::ui
