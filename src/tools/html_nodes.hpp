#pragma once
// Questions about the nodes of a libgumbo tree that the HTML-to-text renderer (html_text.cpp)
// asks: children, attributes, what is left out, which elements are blocks, the text of a
// <pre>. Pure functions; thread-safe.

#include <gumbo.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::tools {

// The children of a document, element or template node; nullptr for other nodes.
const GumboVector* children(const GumboNode& node);

// The element children of `node`, in order (text, comments and whitespace skipped).
std::vector<const GumboNode*> child_elements(const GumboNode& node);

// An element's tag; GUMBO_TAG_UNKNOWN for other nodes.
GumboTag tag_of(const GumboNode& node);

// The value of an attribute, "" when absent.
std::string_view attribute(const GumboNode& node, const char* name);

// What a reader never sees, or sees only as chrome around the content: scripts, styles,
// navigation, forms' controls, embedded media, hidden elements.
bool left_out(const GumboNode& node);

// h1 to h6.
bool is_heading(GumboTag tag);

// How many line breaks an element puts around itself: 2 (a blank line) for paragraphs and
// other big blocks, 1 for containers, 0 for inline elements. Elements the renderer handles
// itself (headings, lists, tables, <pre>) are 0 here.
int block_breaks(GumboTag tag);

// True when an element below `node` is a block a table cell of data does not hold (a table,
// a list, a heading, a <pre>, a blockquote): `node` is part of a table that lays out a page.
// `depth` is the nesting of `node`; nothing deeper than kHtmlMaxDepth is looked at.
bool holds_blocks(const GumboNode& node, std::size_t depth);

// Appends the text of a <pre> as written (whitespace kept, <br> as a line break).
void append_preformatted(const GumboNode& node, std::size_t depth, std::string& out);

// "cpp" from class="language-cpp" or "lang-cpp" on a <pre> or the <code> inside it.
std::string code_language(const GumboNode& pre);

// The first `tag` element in the <head> below `root` (the <html> element), or nullptr.
const GumboNode* find_in_head(const GumboNode& root, GumboTag tag);

}  // namespace nib::tools
