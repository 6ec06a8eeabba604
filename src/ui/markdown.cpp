#include "ui/markdown.hpp"

#include <md4c.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "ui/markdown_blocks.hpp"
#include "util/display_width.hpp"

namespace nib::ui {
namespace {

// GitHub's dialect: tables, strikethrough, task lists and bare URL / e-mail / www. links. Raw
// HTML stays recognised (no MD_FLAG_NOHTML): md4c hands an HTML block over verbatim, so it is
// shown exactly as written rather than with Markdown applied to its inside.
constexpr unsigned kParserFlags = MD_DIALECT_GITHUB;
constexpr Style kDim{.dim = true};
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kQuotePrefix = "│ ";
constexpr std::size_t kQuotePrefixWidth = 2;
// Bullets by depth of bullet lists; deeper lists keep the last.
constexpr std::string_view kBullets[] = {"• ", "◦ ", "▪ "};

// A block that encloses others and puts something in front of each of their rows.
struct Container {
  enum class Kind { kDocument, kQuote, kList, kItem };
  Kind kind = Kind::kDocument;
  bool tight = false;        // a list, or an item of one, without blank rows between items
  bool ordered = false;      // a list
  unsigned next_number = 1;  // an ordered list: its next item's number
  std::string marker;        // an item: what its first row starts with ("• ", "3. ", "☐ ")
  std::size_t marker_width = 0;
  bool marker_shown = false;  // an item: its first row has been emitted
};

enum class Leaf { kNone, kParagraph, kHeading, kCode, kHtml, kTable };

// An attribute's text (a link's URL, a code block's language) with its entities decoded.
std::string attribute_text(const MD_ATTRIBUTE& attribute) {
  std::string text;
  if (attribute.size == 0) return text;
  for (unsigned part = 0; attribute.substr_offsets[part] < attribute.size; ++part) {
    const MD_OFFSET begin = attribute.substr_offsets[part];
    const std::string_view piece(attribute.text + begin,
                                 attribute.substr_offsets[part + 1] - begin);
    if (attribute.substr_types[part] == MD_TEXT_ENTITY) {
      text += md::decode_entity(piece);
    } else if (attribute.substr_types[part] == MD_TEXT_NULLCHAR) {
      text += kReplacement;
    } else {
      text += piece;
    }
  }
  return text;
}

// An autolink's text is its URL, give or take the scheme md4c adds to "www." and e-mail links.
bool is_autolink(std::string_view text, std::string_view url) {
  const auto is_schemed = [&](std::string_view scheme) {
    return url.size() == scheme.size() + text.size() && url.starts_with(scheme) &&
           url.ends_with(text);
  };
  return url == text || is_schemed("http://") || is_schemed("mailto:");
}

// The last `columns` of a row's prefix: nesting deeper than the screen is wide keeps the
// innermost marker, the one that tells what the text is.
StyledLine keep_last_columns(const StyledLine& prefix, std::size_t columns) {
  std::size_t excess = prefix.width() - std::min(prefix.width(), columns);
  if (excess == 0) return prefix;
  StyledLine out;
  for (const Span& span : prefix.spans) {
    std::size_t pos = 0;
    while (excess > 0 && pos < span.text.size()) {
      std::size_t length = 0;
      const auto width = util::codepoint_width(util::decode_utf8(span.text, pos, length));
      excess -= std::min<std::size_t>(excess, static_cast<std::size_t>(width));
      pos += length;
    }
    out.add(std::string_view(span.text).substr(pos), span.style);
  }
  return out;
}

void trim_trailing_spaces(StyledLine& line) {
  while (!line.spans.empty()) {
    std::string& text = line.spans.back().text;
    text.erase(text.find_last_not_of(' ') + 1);
    if (!text.empty()) return;
    line.spans.pop_back();
  }
}

// Turns md4c's callbacks into rows. Inline content collects in the open leaf block (paragraph,
// heading, code, HTML, table); when the leaf ends it is laid out to the columns its
// containers leave, and each row gets their prefixes.
class Renderer {
 public:
  explicit Renderer(std::size_t width) : width_(std::max<std::size_t>(width, 1)) {
    stack_.emplace_back();
  }

  StyledLines take_rows() {
    finish_leaf();
    return std::move(rows_);
  }

  void enter_block(MD_BLOCKTYPE type, const void* detail);
  void leave_block(MD_BLOCKTYPE type);
  void enter_span(MD_SPANTYPE type, const void* detail);
  void leave_span(MD_SPANTYPE type);
  void text(MD_TEXTTYPE type, std::string_view text);

 private:
  void push(Container container) { stack_.push_back(std::move(container)); }
  void pop();
  Container item_of(const MD_BLOCK_LI_DETAIL& detail) const;
  void start_leaf(Leaf kind);
  void ensure_leaf();
  void finish_leaf();
  StyledLine& target();
  Style inline_style(bool code) const;
  void add_text(std::string_view text, bool code);

  std::size_t prefix_width() const;
  std::size_t available() const { return width_ - prefix_width(); }
  StyledLine prefix(std::size_t depth);
  void emit_block(const StyledLines& rows);
  void emit_row(const StyledLine& prefix, const StyledLine& content);

  const std::size_t width_;
  StyledLines rows_;
  std::vector<Container> stack_;  // the document first
  // How many containers stayed open since the last block was emitted: the innermost of them
  // encloses both that block and the next, and decides whether a blank row separates them.
  std::size_t common_depth_ = 1;
  bool any_block_ = false;

  Leaf leaf_ = Leaf::kNone;
  bool implicit_ = false;  // the leaf is the text of a tight list item (md4c sends no P)
  Style leaf_style_;
  StyledLines lines_;  // a paragraph or heading, split at hard breaks
  std::string verbatim_;
  std::string language_;
  md::Table table_;
  bool in_header_ = false;

  int emphasis_ = 0;
  int strong_ = 0;
  int strike_ = 0;
  int link_ = 0;
  int image_ = 0;
  bool image_has_alt_ = false;
  std::string link_url_;
  std::string link_text_;
};

void Renderer::pop() {
  stack_.pop_back();
  common_depth_ = std::min(common_depth_, stack_.size());
}

Container Renderer::item_of(const MD_BLOCK_LI_DETAIL& detail) const {
  const Container& list = stack_.back();  // md4c opens an item inside its list
  Container item{.kind = Container::Kind::kItem, .tight = list.tight};
  if (list.ordered) item.marker = std::to_string(list.next_number) + ". ";
  if (detail.is_task) {
    item.marker += detail.task_mark == ' ' ? "☐ " : "☑ ";
  } else if (!list.ordered) {
    const auto depth = std::count_if(stack_.begin(), stack_.end(), [](const Container& c) {
      return c.kind == Container::Kind::kList && !c.ordered;
    });
    item.marker = kBullets[std::min<std::size_t>(depth, std::size(kBullets)) - 1];
  }
  item.marker_width = util::display_width(item.marker);
  return item;
}

void Renderer::enter_block(MD_BLOCKTYPE type, const void* detail) {
  // The text of a tight list item ends where a nested block begins.
  if (implicit_) finish_leaf();
  switch (type) {
    case MD_BLOCK_QUOTE:
      push({.kind = Container::Kind::kQuote});
      break;
    case MD_BLOCK_UL:
      push({.kind = Container::Kind::kList,
            .tight = static_cast<const MD_BLOCK_UL_DETAIL*>(detail)->is_tight != 0});
      break;
    case MD_BLOCK_OL: {
      const auto* list = static_cast<const MD_BLOCK_OL_DETAIL*>(detail);
      push({.kind = Container::Kind::kList,
            .tight = list->is_tight != 0,
            .ordered = true,
            .next_number = list->start});
      break;
    }
    case MD_BLOCK_LI: {
      Container item = item_of(*static_cast<const MD_BLOCK_LI_DETAIL*>(detail));
      ++stack_.back().next_number;
      push(std::move(item));
      break;
    }
    case MD_BLOCK_HR:
      emit_block({md::thematic_break(available())});
      break;
    case MD_BLOCK_H:
      start_leaf(Leaf::kHeading);
      leaf_style_ = {.color = Color::kCyan,
                     .bold = true,
                     .underline = static_cast<const MD_BLOCK_H_DETAIL*>(detail)->level == 1};
      break;
    case MD_BLOCK_CODE:
      start_leaf(Leaf::kCode);
      language_ = attribute_text(static_cast<const MD_BLOCK_CODE_DETAIL*>(detail)->lang);
      break;
    case MD_BLOCK_HTML:
      start_leaf(Leaf::kHtml);
      break;
    case MD_BLOCK_P:
      start_leaf(Leaf::kParagraph);
      break;
    case MD_BLOCK_TABLE:
      start_leaf(Leaf::kTable);
      break;
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      in_header_ = type == MD_BLOCK_THEAD;
      break;
    case MD_BLOCK_TR:
      table_.rows.emplace_back();
      break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: {
      if (table_.rows.empty()) table_.rows.emplace_back();
      table_.rows.back().emplace_back();
      if (table_.rows.size() > 1) break;
      const MD_ALIGN align = static_cast<const MD_BLOCK_TD_DETAIL*>(detail)->align;
      table_.alignments.push_back(align == MD_ALIGN_RIGHT    ? md::Align::kRight
                                  : align == MD_ALIGN_CENTER ? md::Align::kCenter
                                                             : md::Align::kLeft);
      break;
    }
    case MD_BLOCK_DOC:
      break;
  }
}

void Renderer::leave_block(MD_BLOCKTYPE type) {
  switch (type) {
    case MD_BLOCK_QUOTE:
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      finish_leaf();
      pop();
      break;
    case MD_BLOCK_LI:
      finish_leaf();
      if (!stack_.back().marker_shown) emit_block({StyledLine{}});  // an empty item
      pop();
      break;
    case MD_BLOCK_H:
    case MD_BLOCK_CODE:
    case MD_BLOCK_HTML:
    case MD_BLOCK_P:
    case MD_BLOCK_TABLE:
      finish_leaf();
      break;
    default:
      break;
  }
}

void Renderer::enter_span(MD_SPANTYPE type, const void* detail) {
  ensure_leaf();
  switch (type) {
    case MD_SPAN_EM:
      ++emphasis_;
      break;
    case MD_SPAN_STRONG:
      ++strong_;
      break;
    case MD_SPAN_DEL:
      ++strike_;
      break;
    case MD_SPAN_A:
      ++link_;
      link_url_ = attribute_text(static_cast<const MD_SPAN_A_DETAIL*>(detail)->href);
      link_text_.clear();
      break;
    case MD_SPAN_IMG:
      ++image_;
      image_has_alt_ = false;
      target().add("[image", inline_style(false));
      break;
    default:
      break;
  }
}

void Renderer::leave_span(MD_SPANTYPE type) {
  switch (type) {
    case MD_SPAN_EM:
      --emphasis_;
      break;
    case MD_SPAN_STRONG:
      --strong_;
      break;
    case MD_SPAN_DEL:
      --strike_;
      break;
    case MD_SPAN_A:
      --link_;
      if (!link_url_.empty() && !is_autolink(link_text_, link_url_)) {
        Style style = inline_style(false);
        style.dim = true;
        md::append_inline(target(), " (" + link_url_ + ")", style);
      }
      break;
    case MD_SPAN_IMG:
      target().add("]", inline_style(false));
      --image_;
      break;
    default:
      break;
  }
}

void Renderer::text(MD_TEXTTYPE type, std::string_view text) {
  if (leaf_ == Leaf::kCode || leaf_ == Leaf::kHtml) {
    verbatim_ += type == MD_TEXT_NULLCHAR ? kReplacement : text;
    return;
  }
  ensure_leaf();
  switch (type) {
    case MD_TEXT_BR:
      if (leaf_ == Leaf::kTable) {
        add_text(" ", false);
      } else {
        lines_.emplace_back();
      }
      break;
    case MD_TEXT_SOFTBR:
      add_text(" ", false);
      break;
    case MD_TEXT_NULLCHAR:
      add_text(kReplacement, false);
      break;
    case MD_TEXT_ENTITY:
      add_text(md::decode_entity(text), false);
      break;
    case MD_TEXT_CODE:
      add_text(text, true);
      break;
    default:
      add_text(text, false);
      break;
  }
}

void Renderer::start_leaf(Leaf kind) {
  leaf_ = kind;
  implicit_ = false;
  leaf_style_ = {};
  lines_.assign(1, StyledLine{});
  verbatim_.clear();
  language_.clear();
  table_ = {};
  in_header_ = false;
}

void Renderer::ensure_leaf() {
  if (leaf_ != Leaf::kNone) return;
  start_leaf(Leaf::kParagraph);
  implicit_ = true;
}

void Renderer::finish_leaf() {
  if (leaf_ == Leaf::kNone) return;
  const std::size_t columns = available();
  StyledLines rows;
  switch (leaf_) {
    case Leaf::kCode:
      rows = md::code_rows(verbatim_, language_, columns);
      break;
    case Leaf::kHtml:
      rows = md::html_rows(verbatim_, columns);
      break;
    case Leaf::kTable:
      rows = md::table_rows(table_, columns);
      break;
    default:
      for (const StyledLine& line : lines_) {
        for (StyledLine& row : wrap(line, columns)) rows.push_back(std::move(row));
      }
      break;
  }
  leaf_ = Leaf::kNone;
  implicit_ = false;
  emit_block(rows);
}

StyledLine& Renderer::target() {
  if (leaf_ != Leaf::kTable) return lines_.back();
  if (table_.rows.empty()) table_.rows.emplace_back();
  if (table_.rows.back().empty()) table_.rows.back().emplace_back();
  return table_.rows.back().back();
}

Style Renderer::inline_style(bool code) const {
  Style style = leaf_style_;
  if (leaf_ == Leaf::kTable && in_header_) style.bold = true;
  if (emphasis_ > 0) style.italic = true;
  if (strong_ > 0) style.bold = true;
  if (strike_ > 0 || image_ > 0) style.dim = true;
  if (link_ > 0) style.underline = true;
  if (code) style.color = Color::kCyan;
  return style;
}

void Renderer::add_text(std::string_view text, bool code) {
  if (image_ > 0 && !image_has_alt_) {
    target().add(": ", inline_style(false));
    image_has_alt_ = true;
  }
  md::append_inline(target(), text, inline_style(code));
  if (link_ > 0) link_text_ += text;
}

std::size_t Renderer::prefix_width() const {
  std::size_t columns = 0;
  for (const Container& container : stack_) {
    if (container.kind == Container::Kind::kQuote) columns += kQuotePrefixWidth;
    if (container.kind == Container::Kind::kItem) columns += container.marker_width;
  }
  // Nesting deeper than the screen is wide still leaves one column for the text.
  return std::min(columns, width_ - 1);
}

StyledLine Renderer::prefix(std::size_t depth) {
  StyledLine line;
  for (std::size_t level = 1; level < depth; ++level) {
    Container& container = stack_[level];
    if (container.kind == Container::Kind::kQuote) line.add(kQuotePrefix, kDim);
    if (container.kind != Container::Kind::kItem) continue;
    if (container.marker_shown) {
      line.add(std::string(container.marker_width, ' '));
    } else {
      line.add(container.marker);
      container.marker_shown = true;
    }
  }
  return keep_last_columns(line, width_ - 1);
}

void Renderer::emit_block(const StyledLines& rows) {
  if (rows.empty()) return;
  if (any_block_ && !stack_[common_depth_ - 1].tight) emit_row(prefix(common_depth_), {});
  emit_row(prefix(stack_.size()), rows.front());
  // Built once: every row after the first has the same prefix, however deep the nesting.
  const StyledLine continuation = rows.size() > 1 ? prefix(stack_.size()) : StyledLine{};
  for (std::size_t row = 1; row < rows.size(); ++row) emit_row(continuation, rows[row]);
  any_block_ = true;
  common_depth_ = stack_.size();
}

void Renderer::emit_row(const StyledLine& prefix, const StyledLine& content) {
  StyledLine row = prefix;
  md::append_line(row, content);
  trim_trailing_spaces(row);
  // Only a character wider than the one column left can overflow; "…" shows it was there.
  if (row.width() > width_) row = truncate(row, width_);
  rows_.push_back(std::move(row));
}

// md4c is C: an exception must not unwind through it. A failure stops the parse instead.
template <typename Call>
int guarded(void* renderer, Call call) {
  try {
    call(*static_cast<Renderer*>(renderer));
    return 0;
  } catch (...) {
    return 1;
  }
}

}  // namespace

StyledLines render_markdown(std::string_view source, std::size_t width) {
  Renderer renderer(width);
  MD_PARSER parser{};
  parser.flags = kParserFlags;
  parser.enter_block = [](MD_BLOCKTYPE type, void* detail, void* self) {
    return guarded(self, [&](Renderer& r) { r.enter_block(type, detail); });
  };
  parser.leave_block = [](MD_BLOCKTYPE type, void*, void* self) {
    return guarded(self, [&](Renderer& r) { r.leave_block(type); });
  };
  parser.enter_span = [](MD_SPANTYPE type, void* detail, void* self) {
    return guarded(self, [&](Renderer& r) { r.enter_span(type, detail); });
  };
  parser.leave_span = [](MD_SPANTYPE type, void*, void* self) {
    return guarded(self, [&](Renderer& r) { r.leave_span(type); });
  };
  parser.text = [](MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* self) {
    return guarded(self, [&](Renderer& r) { r.text(type, std::string_view(text, size)); });
  };
  // md4c 0.4.8 reads one byte past the end of an unfinished inline link ("[text](http" at the
  // very end, which streaming produces all the time) and can take what lies there for more of
  // the link; the NUL a std::string keeps after its text makes that read harmless.
  const std::string terminated(source.substr(0, std::numeric_limits<MD_SIZE>::max()));
  md_parse(terminated.c_str(), static_cast<MD_SIZE>(terminated.size()), &parser, &renderer);
  return renderer.take_rows();
}

std::size_t last_block_boundary(std::string_view source) {
  std::size_t boundary = 0;
  std::string_view fence;  // the open fence's marker ("```", "~~~~"), empty outside code
  bool previous_blank = false;
  for (std::size_t start = 0; start < source.size();) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    const std::string_view line = source.substr(start, end - start);
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string_view body = line.substr(indent);
    const bool blank = body.find_first_not_of(" \t\r") == std::string_view::npos;
    if (fence.empty() && previous_blank && !blank && indent == 0 && line[0] != '\t' &&
        end < source.size()) {
      boundary = start;  // only a complete next line shows that the block above has ended
    }
    if (indent < 4 && (body.starts_with("```") || body.starts_with("~~~"))) {
      const std::size_t run = std::min(body.find_first_not_of(body[0]), body.size());
      if (fence.empty()) {
        fence = body.substr(0, run);
      } else if (body[0] == fence[0] && run >= fence.size() &&
                 body.substr(run).find_first_not_of(" \t\r") == std::string_view::npos) {
        fence = {};
      }
    }
    previous_blank = blank && fence.empty();
    start = end + 1;
  }
  return boundary;
}

}  // namespace nib::ui
