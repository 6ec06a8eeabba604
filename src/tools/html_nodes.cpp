#include "tools/html_nodes.hpp"

#include <algorithm>

#include "tools/limits.hpp"

namespace nib::tools {
namespace {

bool has_attribute(const GumboNode& node, const char* name) {
  return node.type == GUMBO_NODE_ELEMENT &&
         gumbo_get_attribute(&node.v.element.attributes, name) != nullptr;
}

}  // namespace

const GumboVector* children(const GumboNode& node) {
  if (node.type == GUMBO_NODE_DOCUMENT) return &node.v.document.children;
  if (node.type == GUMBO_NODE_ELEMENT || node.type == GUMBO_NODE_TEMPLATE) {
    return &node.v.element.children;
  }
  return nullptr;
}

// The element children of `node`, in order (text, comments and whitespace skipped).
std::vector<const GumboNode*> child_elements(const GumboNode& node) {
  std::vector<const GumboNode*> elements;
  if (const GumboVector* list = children(node)) {
    for (unsigned i = 0; i < list->length; ++i) {
      const auto* child = static_cast<const GumboNode*>(list->data[i]);
      if (child->type == GUMBO_NODE_ELEMENT) elements.push_back(child);
    }
  }
  return elements;
}

GumboTag tag_of(const GumboNode& node) {
  return node.type == GUMBO_NODE_ELEMENT ? node.v.element.tag : GUMBO_TAG_UNKNOWN;
}

std::string_view attribute(const GumboNode& node, const char* name) {
  if (node.type != GUMBO_NODE_ELEMENT) return {};
  const GumboAttribute* found = gumbo_get_attribute(&node.v.element.attributes, name);
  return found == nullptr ? std::string_view() : std::string_view(found->value);
}

// What a reader never sees, or sees only as chrome around the content.
bool left_out(const GumboNode& node) {
  switch (tag_of(node)) {
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_MAP:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_DATALIST:
    case GUMBO_TAG_NOEMBED:
    case GUMBO_TAG_NOFRAMES:
    case GUMBO_TAG_TITLE:
      return true;
    default:
      return has_attribute(node, "hidden") || attribute(node, "aria-hidden") == "true";
  }
}

// How many line breaks an element puts around itself: 2 (a blank line) for paragraphs and
// other big blocks, 1 for containers, 0 for inline elements.
int block_breaks(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_P:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_ADDRESS:
      return 2;
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_HGROUP:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_SUMMARY:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_OPTION:
      return 1;
    default:
      return 0;
  }
}

bool is_heading(GumboTag tag) {
  return tag >= GUMBO_TAG_H1 && tag <= GUMBO_TAG_H6;
}

bool holds_blocks(const GumboNode& node, std::size_t depth) {
  if (depth > kHtmlMaxDepth) return false;
  for (const GumboNode* child : child_elements(node)) {
    switch (tag_of(*child)) {
      case GUMBO_TAG_TABLE:
      case GUMBO_TAG_PRE:
      case GUMBO_TAG_UL:
      case GUMBO_TAG_OL:
      case GUMBO_TAG_BLOCKQUOTE:
        return true;
      default:
        if (is_heading(tag_of(*child)) || holds_blocks(*child, depth + 1)) return true;
    }
  }
  return false;
}

// The text of a <pre> as written: whitespace kept, <br> as a line break.
void append_preformatted(const GumboNode& node, std::size_t depth, std::string& out) {
  if (depth > kHtmlMaxDepth) return;
  const GumboVector* list = children(node);
  if (list == nullptr) return;
  for (unsigned i = 0; i < list->length; ++i) {
    const auto& child = *static_cast<const GumboNode*>(list->data[i]);
    if (child.type == GUMBO_NODE_TEXT || child.type == GUMBO_NODE_WHITESPACE ||
        child.type == GUMBO_NODE_CDATA) {
      out += child.v.text.text;
    } else if (tag_of(child) == GUMBO_TAG_BR) {
      out += '\n';
    } else if (child.type == GUMBO_NODE_ELEMENT && !left_out(child)) {
      append_preformatted(child, depth + 1, out);
    }
  }
}

// "cpp" from class="language-cpp" or "lang-cpp" on a <pre> or the <code> inside it.
std::string code_language(const GumboNode& pre) {
  std::vector<const GumboNode*> candidates = {&pre};
  for (const GumboNode* child : child_elements(pre)) {
    if (tag_of(*child) == GUMBO_TAG_CODE) candidates.push_back(child);
  }
  for (const GumboNode* node : candidates) {
    std::string_view classes = attribute(*node, "class");
    while (!classes.empty()) {
      const std::size_t end = std::min(classes.find(' '), classes.size());
      const std::string_view name = classes.substr(0, end);
      for (const std::string_view prefix : {"language-", "lang-"}) {
        if (name.starts_with(prefix) && name.size() > prefix.size()) {
          return std::string(name.substr(prefix.size()));
        }
      }
      classes.remove_prefix(std::min(end + 1, classes.size()));
    }
  }
  return "";
}

const GumboNode* find_in_head(const GumboNode& root, GumboTag tag) {
  for (const GumboNode* child : child_elements(root)) {
    if (tag_of(*child) != GUMBO_TAG_HEAD) continue;
    for (const GumboNode* element : child_elements(*child)) {
      if (tag_of(*element) == tag) return element;
    }
  }
  return nullptr;
}

}  // namespace nib::tools
