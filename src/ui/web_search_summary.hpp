#pragma once
// What the user is told of a reply's hosted web searches (core::WebSearchBlock) and of the
// sources its text cites: one line per search and one per cited source, the same in print
// mode (on stderr) and in the interactive transcript. Text from the service (queries, titles,
// addresses) is cleaned of terminal control sequences. Pure functions; thread-safe.

#include <string>
#include <vector>

#include "core/messages.hpp"

namespace nib::ui {

// "searched the web: QUERY (3 results)", "searched the web: QUERY (failed: max_uses_exceeded)";
// a search without a query is "searched the web".
std::string web_search_line(const core::WebSearchBlock& search);

// "cited: TITLE <URL>" ("cited: <URL>" without a title).
std::string citation_line(const core::Citation& citation);

// The lines for a reply: each search's, in order, then each distinct cited source's. Empty for
// a reply without searches or citations.
std::vector<std::string> web_search_lines(const core::AssistantMessage& message);

}  // namespace nib::ui
