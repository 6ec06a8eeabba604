#include "tools/html_depth.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_map>
#include <vector>

namespace nib::tools {
namespace {

// Longer tag names are compared by this many characters (no HTML tag is longer).
constexpr std::size_t kMaxNameLength = 32;

bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_void(std::string_view name) {
  return one_of(
      name, {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
             "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame", "image"});
}

// Elements whose content is text up to their end tag.
bool is_raw_text(std::string_view name) {
  return one_of(name, {"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                       "noframes", "noscript"});
}

// Elements whose end tag may be left out and which a new one of their kind (or their parent's
// end) closes, so that they do not nest.
bool does_not_nest(std::string_view name) {
  return one_of(name, {"p",      "li",       "dt",    "dd",    "tr",    "td",       "th",
                       "option", "optgroup", "thead", "tbody", "tfoot", "colgroup", "caption",
                       "rb",     "rt",       "rtc",   "rp",    "html",  "head",     "body"});
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
         c == '.';
}

class Scanner {
 public:
  Scanner(std::string_view html, std::size_t max_depth) : html_(html), max_depth_(max_depth) {}

  std::size_t run() {
    while (pos_ < html_.size()) {
      const std::size_t tag_start = html_.find('<', pos_);
      if (tag_start == std::string_view::npos) break;
      pos_ = tag_start + 1;
      if (html_.substr(pos_).starts_with("!--")) {
        skip_past("-->");
      } else if (pos_ < html_.size() && (html_[pos_] == '!' || html_[pos_] == '?')) {
        skip_past(">");
      } else if (pos_ < html_.size() && html_[pos_] == '/') {
        ++pos_;
        end_tag(read_name());
      } else if (pos_ < html_.size() && std::isalpha(static_cast<unsigned char>(html_[pos_]))) {
        if (!start_tag(read_name())) return tag_start;
      }
    }
    return html_.size();
  }

 private:
  void skip_past(std::string_view end) {
    const std::size_t found = html_.find(end, pos_);
    pos_ = found == std::string_view::npos ? html_.size() : found + end.size();
  }

  std::string read_name() {
    std::string name;
    while (pos_ < html_.size() && is_name_char(html_[pos_])) {
      if (name.size() < kMaxNameLength) {
        name += static_cast<char>(std::tolower(static_cast<unsigned char>(html_[pos_])));
      }
      ++pos_;
    }
    return name;
  }

  // Skips a tag's attributes up to its '>' (quoted values may hold '>'); true when it ends
  // in "/>".
  bool skip_attributes() {
    char last = 0;
    while (pos_ < html_.size()) {
      const char c = html_[pos_++];
      if (c == '>') return last == '/';
      if ((c == '"' || c == '\'') && last == '=') {
        const std::size_t close = html_.find(c, pos_);
        pos_ = close == std::string_view::npos ? html_.size() : close + 1;
        last = c;
        continue;
      }
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') last = c;
    }
    return false;
  }

  // False when the element opened makes the nesting deeper than allowed.
  bool start_tag(const std::string& name) {
    const bool self_closed = skip_attributes();
    if (is_raw_text(name)) {
      skip_raw_text(name);
      return true;
    }
    if (is_void(name) || does_not_nest(name) || (self_closed && foreign_ > 0)) return true;
    if (open_.size() == max_depth_) return false;
    open_.push_back(name);
    ++counts_[name];
    if (name == "svg" || name == "math") ++foreign_;
    return true;
  }

  void skip_raw_text(const std::string& name) {
    while (pos_ < html_.size()) {
      const std::size_t close = html_.find("</", pos_);
      if (close == std::string_view::npos) break;
      pos_ = close + 2;
      std::string candidate;
      while (pos_ < html_.size() && candidate.size() < name.size() &&
             std::isalpha(static_cast<unsigned char>(html_[pos_]))) {
        candidate += static_cast<char>(std::tolower(static_cast<unsigned char>(html_[pos_++])));
      }
      if (candidate == name) {
        skip_past(">");
        return;
      }
    }
    pos_ = html_.size();
  }

  // Closes the nearest open element named `name`, and those opened inside it; an end tag with
  // no open element of its name is ignored, as parsers do.
  void end_tag(const std::string& name) {
    skip_past(">");
    const auto count = counts_.find(name);
    if (count == counts_.end() || count->second == 0) return;
    while (!open_.empty()) {
      const std::string closed = std::move(open_.back());
      open_.pop_back();
      --counts_[closed];
      if (closed == "svg" || closed == "math") --foreign_;
      if (closed == name) return;
    }
  }

  std::string_view html_;
  const std::size_t max_depth_;
  std::size_t pos_ = 0;
  std::vector<std::string> open_;
  std::unordered_map<std::string, std::size_t> counts_;  // open elements by name
  std::size_t foreign_ = 0;                              // open <svg> and <math> elements
};

}  // namespace

std::size_t html_length_within_depth(std::string_view html, std::size_t max_depth) {
  return Scanner(html, max_depth).run();
}

}  // namespace nib::tools
