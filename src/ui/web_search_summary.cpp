#include "ui/web_search_summary.hpp"

#include <string_view>

#include "util/plural.hpp"
#include "util/terminal_sanitize.hpp"

namespace nib::ui {
namespace {

// The service's text on one line: line breaks and tabs made spaces first (the cleaning would
// take a "\r" for a progress bar's redraw and keep only what follows it, hiding the start of a
// title or URL), then cleaned.
std::string one_line(std::string_view text) {
  std::string flat(text);
  for (char& c : flat) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return util::sanitize_terminal_output(flat);
}

}  // namespace

std::string web_search_line(const core::WebSearchBlock& search) {
  std::string line = "searched the web";
  if (!search.query.empty()) line += ": " + one_line(search.query);
  if (!search.error.empty()) {
    line += " (failed: " + one_line(search.error) + ")";
  } else {
    line += " (" + util::plural(search.results.size(), "result") + ")";
  }
  return line;
}

std::string citation_line(const core::Citation& citation) {
  std::string line = "cited: ";
  if (!citation.title.empty()) line += one_line(citation.title) + " ";
  return line + "<" + one_line(citation.url) + ">";
}

std::vector<std::string> web_search_lines(const core::AssistantMessage& message) {
  std::vector<std::string> lines;
  for (const core::WebSearchBlock& search : core::web_searches_of(message)) {
    lines.push_back(web_search_line(search));
  }
  for (const core::Citation& citation : core::citations_of(message)) {
    lines.push_back(citation_line(citation));
  }
  return lines;
}

}  // namespace nib::ui
