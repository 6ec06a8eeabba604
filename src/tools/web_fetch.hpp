#pragma once
// The `web_fetch` tool: GETs an http or https URL (web_fetcher.hpp: redirects, timeouts, the
// size cap, public addresses only unless allowed) and gives the model its text (web_content.hpp:
// HTML as Markdown-like text with its links, JSON and text as they are, PDFs page by page),
// at most `max_chars` characters of it; a longer text is saved whole in a private log whose
// path the result gives. Concurrency-safe: it changes nothing, and calls share no state.

#include <string_view>

#include "core/tool.hpp"
#include "process/temp_log.hpp"
#include "tools/web_fetcher.hpp"

namespace nib::tools {

struct WebFetchOptions {
  // What may be connected to, and the time and size limits. Non-public addresses are refused
  // unless allowed here (tests allow their local server; a WebFetch(domain:...) allow rule opens
  // its host).
  FetchPolicy fetch;
  // Creates the log for a text longer than the model is shown; `prefix` is "web_fetch".
  process::LogCreator create_log = process::create_private_log;
};

core::ToolPtr make_web_fetch_tool(WebFetchOptions options = {});

}  // namespace nib::tools
