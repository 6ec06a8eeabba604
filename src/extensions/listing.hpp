#pragma once
// One entry of a listing the model reads (agents for the task tool, skills for the system
// prompt). Pure; thread-safe.

#include <string>
#include <string_view>

namespace nib::extensions {

// "- <name>: <description>\n": the description cut at kMaxListedDescriptionBytes (on a UTF-8
// boundary, with util::cut_marker), its further lines indented by two spaces under the entry.
std::string listing_entry(std::string_view name, std::string_view description);

}  // namespace nib::extensions
