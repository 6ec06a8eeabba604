#pragma once
// How far into an HTML page libgumbo may be let: its parse time grows with the square of how
// deeply elements nest (20,000 nested <div>s take over a second, 100,000 half a minute), and it
// cannot be stopped once started, so a hostile page could hold a web_fetch call for minutes. A
// quick scan of the tags (no tree) estimates the nesting, and the page is parsed only up to
// where the estimate passes a limit. The estimate counts the elements still open, leaves out
// void and raw-text elements, self-closed foreign ones (<svg>'s) and those whose end tag is
// optional and that do not nest in themselves (<p>, <li>, <td>, ...), and matches an end tag
// to the nearest open element of its name; libgumbo's real nesting is within a few times it.
// Pure; thread-safe.

#include <cstddef>
#include <string_view>

namespace nib::tools {

// The length of the longest start of `html` in which elements nest at most `max_depth` deep by
// the estimate above (`html.size()` when they never nest deeper).
std::size_t html_length_within_depth(std::string_view html, std::size_t max_depth);

}  // namespace nib::tools
