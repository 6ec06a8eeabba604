#pragma once
// The system prompt: who nib is, the tools, the working directory, the platform and the date.

#include <filesystem>
#include <string>
#include <vector>

#include "core/tool.hpp"

namespace nib::app {

std::string build_system_prompt(const std::vector<core::ToolSpec>& tools,
                                const std::filesystem::path& cwd, const std::string& date);

// Today's date as YYYY-MM-DD in local time.
std::string today();

}  // namespace nib::app
