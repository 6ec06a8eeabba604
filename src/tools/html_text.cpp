#include "tools/html_text.hpp"

#include <gumbo.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

#include "tools/html_depth.hpp"
#include "tools/html_nodes.hpp"
#include "tools/limits.hpp"
#include "tools/web_url.hpp"
#include "util/ascii.hpp"

namespace nib::tools {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

void trim_line_end(std::string& line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
}

// The longest run of `c` in `text`.
std::size_t longest_run(std::string_view text, char c) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char ch : text) {
    run = ch == c ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// Turns the URLs a page writes into the ones a link shows.
class LinkResolver {
 public:
  explicit LinkResolver(std::string base) : base_(std::move(base)) {}

  // The absolute URL of `reference`, or nothing for a link not worth showing: empty, to a
  // part of the same page ("#..."), or in a scheme a reader cannot follow (javascript:,
  // data:). mailto: and tel: links are kept as written.
  std::optional<std::string> resolve(std::string_view reference) const {
    reference = util::ascii_trim(reference);
    if (reference.empty() || reference.front() == '#') return std::nullopt;
    const std::size_t colon = reference.find(':');
    const std::size_t first_delimiter = reference.find_first_of("/?#");
    if (colon != std::string_view::npos && colon > 0 && colon < first_delimiter) {
      const std::string scheme = util::ascii_lower(reference.substr(0, colon));
      if (scheme == "mailto" || scheme == "tel") return std::string(reference);
      if (scheme != "http" && scheme != "https") return std::nullopt;
    }
    return resolve_url(base_, reference);
  }

 private:
  std::string base_;
};

// Inline text rendered on its own (a link's text, a table cell), with whether whitespace stood
// before and after it.
struct InlinePiece {
  std::string text;
  bool space_before = false;
  bool space_after = false;
};

class Renderer {
 public:
  Renderer(const LinkResolver& links, bool inline_only)
      : links_(links), inline_only_(inline_only) {}

  void children_of(const GumboNode& node, std::size_t depth) {
    const GumboVector* list = children(node);
    if (list == nullptr) return;
    for (unsigned i = 0; i < list->length; ++i) {
      render(*static_cast<const GumboNode*>(list->data[i]), depth);
    }
  }

  void render(const GumboNode& node, std::size_t depth) {
    if (depth > kHtmlMaxDepth) {
      too_deep_ = true;
      return;
    }
    switch (node.type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA:
      case GUMBO_NODE_WHITESPACE:
        text(node.v.text.text);
        return;
      case GUMBO_NODE_ELEMENT:
        if (!left_out(node)) element(node, depth);
        return;
      case GUMBO_NODE_DOCUMENT:
        children_of(node, depth + 1);
        return;
      default:
        return;  // comments, templates
    }
  }

  std::string take_text() {
    block_break(0);
    return std::move(out_);
  }

  InlinePiece take_inline() { return {std::move(line_), space_before_, space_pending_}; }

  bool too_deep() const { return too_deep_; }

 private:
  struct Indent {
    std::string first;  // before the first line (a list marker)
    std::string rest;   // before the lines after it
    bool first_used = false;
  };
  struct List {
    bool ordered = false;
    long next = 1;
  };

  void element(const GumboNode& node, std::size_t depth) {
    const GumboTag tag = node.v.element.tag;
    if (is_heading(tag)) return heading(node, depth, static_cast<int>(tag - GUMBO_TAG_H1) + 1);
    switch (tag) {
      case GUMBO_TAG_BR:
        line_break();
        return;
      case GUMBO_TAG_HR:
        block_break(2);
        if (!inline_only_) emit_line("---");
        block_break(2);
        return;
      case GUMBO_TAG_PRE:
      case GUMBO_TAG_LISTING:
      case GUMBO_TAG_XMP:
      case GUMBO_TAG_PLAINTEXT:
        preformatted(node, depth);
        return;
      case GUMBO_TAG_UL:
      case GUMBO_TAG_MENU:
      case GUMBO_TAG_DIR:
        list(node, depth, false);
        return;
      case GUMBO_TAG_OL:
        list(node, depth, true);
        return;
      case GUMBO_TAG_LI:
        list_item(node, depth);
        return;
      case GUMBO_TAG_BLOCKQUOTE:
        indented(node, depth, {"> ", "> "}, 2);
        return;
      case GUMBO_TAG_DD:
        indented(node, depth, {"  ", "  "}, 1);
        return;
      case GUMBO_TAG_TABLE:
        table(node, depth);
        return;
      case GUMBO_TAG_A:
        link(node, depth);
        return;
      case GUMBO_TAG_IMG:
        image(node);
        return;
      case GUMBO_TAG_CODE:
      case GUMBO_TAG_KBD:
      case GUMBO_TAG_SAMP:
      case GUMBO_TAG_TT:
        code(node, depth);
        return;
      case GUMBO_TAG_STRONG:
      case GUMBO_TAG_B:
        marked(node, depth, "**");
        return;
      case GUMBO_TAG_EM:
      case GUMBO_TAG_I:
        marked(node, depth, "*");
        return;
      default: {
        const int breaks = block_breaks(tag);
        block_break(breaks);
        children_of(node, depth + 1);
        block_break(breaks);
      }
    }
  }

  // Collapses whitespace as a browser does; a no-break space counts as a space.
  void text(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const bool nbsp = text[i] == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0';
      if (is_space(text[i]) || nbsp) {
        if (line_.empty() && !space_pending_) space_before_ = true;
        space_pending_ = true;
        if (nbsp) ++i;
        continue;
      }
      if (space_pending_ && !line_.empty()) line_ += ' ';
      space_pending_ = false;
      line_ += text[i];
    }
  }

  // Markup (or already rendered text) added to the line as it is.
  void raw(std::string_view markup) {
    if (markup.empty()) return;
    if (space_pending_ && !line_.empty()) line_ += ' ';
    space_pending_ = false;
    line_ += markup;
  }

  void space() {
    if (line_.empty() && !space_pending_) space_before_ = true;
    space_pending_ = true;
  }

  // Ends the current line (if any) and asks for `newlines` line breaks before what follows.
  void block_break(int newlines) {
    if (inline_only_) {
      if (newlines > 0) space();
      return;
    }
    if (!line_.empty()) {
      emit_line(line_);
      line_.clear();
    }
    space_pending_ = false;
    newlines_wanted_ = std::max(newlines_wanted_, newlines);
  }

  void line_break() {
    if (inline_only_) return space();
    if (line_.empty()) {
      if (!out_.empty()) newlines_wanted_ = std::min(newlines_wanted_ + 1, 2);
      return;
    }
    block_break(1);
  }

  // The next line goes on a line of its own (at least).
  void next_line() { newlines_wanted_ = std::max(newlines_wanted_, 1); }

  void emit_line(std::string_view content) {
    if (!out_.empty()) {
      const int newlines = std::max(newlines_wanted_, 1);
      for (int i = 0; i < newlines; ++i) {
        out_ += '\n';
        if (i + 1 < newlines) {
          std::string blank;
          // An indent whose first line is still to come (a quote or item about to begin) is
          // not part of the blank line before it.
          for (const Indent& indent : indents_) {
            if (indent.first_used) blank += indent.rest;
          }
          trim_line_end(blank);
          out_ += blank;
        }
      }
    }
    std::string line;
    for (Indent& indent : indents_) {
      line += indent.first_used ? indent.rest : indent.first;
      indent.first_used = true;
    }
    line += content;
    trim_line_end(line);
    out_ += line;
    newlines_wanted_ = 0;
  }

  InlinePiece inline_of(const GumboNode& node, std::size_t depth) {
    Renderer inner(links_, true);
    inner.children_of(node, depth + 1);
    too_deep_ = too_deep_ || inner.too_deep_;
    return inner.take_inline();
  }

  // Adds `piece` as `before` + its text + `after`, keeping the whitespace around it.
  void add_piece(const InlinePiece& piece, std::string_view before, std::string_view after) {
    if (piece.space_before) space();
    if (!piece.text.empty()) raw(std::string(before) + piece.text + std::string(after));
    if (piece.space_after) space();
  }

  void marked(const GumboNode& node, std::size_t depth, std::string_view mark) {
    add_piece(inline_of(node, depth), mark, mark);
  }

  void code(const GumboNode& node, std::size_t depth) {
    const InlinePiece piece = inline_of(node, depth);
    const std::size_t run = longest_run(piece.text, '`');
    const std::string fence(run + 1, '`');
    const std::string pad = run > 0 ? " " : "";
    add_piece(piece, fence + pad, pad + fence);
  }

  void link(const GumboNode& node, std::size_t depth) {
    const InlinePiece piece = inline_of(node, depth);
    const std::optional<std::string> url = links_.resolve(attribute(node, "href"));
    if (!url || piece.text == *url) return add_piece(piece, "", "");
    add_piece(piece, "[", "](" + *url + ")");
  }

  void image(const GumboNode& node) {
    InlinePiece alt;
    {
      Renderer inner(links_, true);
      inner.text(attribute(node, "alt"));
      alt = inner.take_inline();
    }
    if (alt.text.empty()) return;
    const std::optional<std::string> url = links_.resolve(attribute(node, "src"));
    raw("![" + alt.text + "]" + (url ? "(" + *url + ")" : ""));
  }

  void heading(const GumboNode& node, std::size_t depth, int level) {
    const InlinePiece piece = inline_of(node, depth);
    if (inline_only_) return add_piece(piece, "", "");
    block_break(2);
    if (!piece.text.empty())
      raw(std::string(static_cast<std::size_t>(level), '#') + " " + piece.text);
    block_break(2);
  }

  void preformatted(const GumboNode& node, std::size_t depth) {
    std::string content;
    append_preformatted(node, depth + 1, content);
    if (inline_only_) return text(content);
    while (!content.empty() && (content.back() == '\n' || content.back() == '\r')) {
      content.pop_back();
    }
    if (content.starts_with('\n')) content.erase(0, 1);
    block_break(2);
    const std::string fence(std::max<std::size_t>(3, longest_run(content, '`') + 1), '`');
    emit_line(fence + code_language(node));
    std::size_t start = 0;
    while (start <= content.size() && !content.empty()) {
      const std::size_t end = std::min(content.find('\n', start), content.size());
      std::string_view line(content.data() + start, end - start);
      if (line.ends_with('\r')) line.remove_suffix(1);
      next_line();
      emit_line(line);
      start = end + 1;
    }
    next_line();
    emit_line(fence);
    block_break(2);
  }

  void list(const GumboNode& node, std::size_t depth, bool ordered) {
    if (inline_only_) return children_of(node, depth + 1);
    const int breaks = lists_.empty() ? 2 : 1;
    block_break(breaks);
    long start = 1;
    if (const std::string_view given = attribute(node, "start"); ordered && !given.empty()) {
      start = std::strtol(std::string(given).c_str(), nullptr, 10);
    }
    lists_.push_back({ordered, start});
    children_of(node, depth + 1);
    lists_.pop_back();
    block_break(breaks);
  }

  void list_item(const GumboNode& node, std::size_t depth) {
    if (inline_only_) {
      space();
      children_of(node, depth + 1);
      return space();
    }
    std::string marker = "- ";
    if (!lists_.empty() && lists_.back().ordered) {
      marker = std::to_string(lists_.back().next++) + ". ";
    }
    const std::string rest(marker.size(), ' ');
    indented(node, depth, {std::move(marker), rest}, 1);
  }

  void indented(const GumboNode& node, std::size_t depth, Indent indent, int breaks) {
    if (inline_only_) return children_of(node, depth + 1);
    block_break(breaks);
    indents_.push_back(std::move(indent));
    children_of(node, depth + 1);
    block_break(breaks);
    indents_.pop_back();
  }

  void table(const GumboNode& node, std::size_t depth) {
    if (inline_only_) return children_of(node, depth + 1);
    std::vector<const GumboNode*> rows;
    const GumboNode* caption = nullptr;
    for (const GumboNode* child : child_elements(node)) {
      const GumboTag tag = tag_of(*child);
      if (tag == GUMBO_TAG_TR) rows.push_back(child);
      if (tag == GUMBO_TAG_CAPTION) caption = child;
      if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
        for (const GumboNode* row : child_elements(*child)) {
          if (tag_of(*row) == GUMBO_TAG_TR) rows.push_back(row);
        }
      }
    }
    std::vector<std::vector<const GumboNode*>> cells;
    std::size_t columns = 0;
    bool layout = false;
    for (const GumboNode* row : rows) {
      auto& row_cells = cells.emplace_back();
      for (const GumboNode* cell : child_elements(*row)) {
        const GumboTag tag = tag_of(*cell);
        if (tag != GUMBO_TAG_TD && tag != GUMBO_TAG_TH) continue;
        row_cells.push_back(cell);
        layout = layout || holds_blocks(*cell, depth + 3);
      }
      columns = std::max(columns, row_cells.size());
    }
    block_break(2);
    if (caption != nullptr) children_of(*caption, depth + 1);
    block_break(1);
    if (layout || columns <= 1) {
      // A table that lays out a page: its cells' contents, one after the other.
      for (const auto& row : cells) {
        for (const GumboNode* cell : row) {
          block_break(1);
          children_of(*cell, depth + 3);
          block_break(1);
        }
      }
    } else {
      grid(cells, columns, depth);
    }
    block_break(2);
  }

  void grid(const std::vector<std::vector<const GumboNode*>>& cells, std::size_t columns,
            std::size_t depth) {
    bool first = true;
    for (const auto& row : cells) {
      std::vector<std::string> texts;
      for (const GumboNode* cell : row) {
        std::string text;
        for (const char c : inline_of(*cell, depth + 2).text) {
          if (c == '|') text += '\\';
          text += c;
        }
        texts.push_back(std::move(text));
        const long span =
            std::strtol(std::string(attribute(*cell, "colspan")).c_str(), nullptr, 10);
        for (long extra = 1; extra < span && texts.size() < columns; ++extra) texts.emplace_back();
      }
      texts.resize(std::max(texts.size(), columns));
      std::string line = "|";
      for (const std::string& text : texts) line += " " + text + " |";
      next_line();
      emit_line(line);
      if (first) {
        std::string rule = "|";
        for (std::size_t i = 0; i < texts.size(); ++i) rule += " --- |";
        next_line();
        emit_line(rule);
        first = false;
      }
    }
  }

  const LinkResolver& links_;
  const bool inline_only_;
  std::string out_;             // finished lines
  std::string line_;            // the current line's text
  bool space_pending_ = false;  // whitespace came after the line's last character
  bool space_before_ = false;   // whitespace came before the line's first character
  int newlines_wanted_ = 0;     // line breaks before the next line: 1, or 2 for a blank line
  std::vector<Indent> indents_;
  std::vector<List> lists_;
  bool too_deep_ = false;
};

struct GumboDocument {
  explicit GumboDocument(std::string_view html) {
    options.max_errors = 0;  // nib does not report parse errors; keeping them costs memory
    output = gumbo_parse_with_options(&options, html.data(), html.size());
  }
  ~GumboDocument() { gumbo_destroy_output(&options, output); }
  GumboDocument(const GumboDocument&) = delete;
  GumboDocument& operator=(const GumboDocument&) = delete;

  GumboOptions options = kGumboDefaultOptions;
  GumboOutput* output = nullptr;
};

}  // namespace

HtmlText html_to_text(std::string_view html, const std::string& page_url) {
  const std::size_t parsed_length = html_length_within_depth(html, kHtmlMaxParseDepth);
  const GumboDocument document(html.substr(0, parsed_length));
  const GumboNode& root = *document.output->root;
  std::string base = page_url;
  if (const GumboNode* base_element = find_in_head(root, GUMBO_TAG_BASE)) {
    if (auto resolved = resolve_url(page_url, attribute(*base_element, "href"))) base = *resolved;
  }
  const LinkResolver links(base);

  HtmlText result;
  if (const GumboNode* title = find_in_head(root, GUMBO_TAG_TITLE)) {
    Renderer inner(links, true);
    inner.children_of(*title, 1);
    result.title = inner.take_inline().text;
  }
  Renderer renderer(links, false);
  renderer.render(root, 0);
  result.text = renderer.take_text();
  if (parsed_length < html.size()) {
    result.text += "\n\n[The rest of the page is left out: its elements nest more than " +
                   std::to_string(kHtmlMaxParseDepth) + " deep there.]";
  }
  if (renderer.too_deep()) {
    result.text += "\n\n[Parts of the page nested deeper than " + std::to_string(kHtmlMaxDepth) +
                   " elements are left out.]";
  }
  return result;
}

}  // namespace nib::tools
