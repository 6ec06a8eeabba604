#pragma once
// The system prompt: who nib is (or the user's own prompt), when to keep a plan (when todo_write
// is offered), the skills the model may load, the working directory, the platform, the date,
// the project's instruction files and any text the user appends. The tools are not listed:
// their schemas, sent with every request, describe them.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/tool.hpp"

namespace nib::app {

struct SystemPromptParts {
  std::vector<core::ToolSpec> tools;
  std::filesystem::path cwd;
  std::string date;                 // YYYY-MM-DD
  std::string instructions;         // instructions_section() of the project's files
  std::string skills;               // skills_prompt_section(); "" without the skill tool
  std::optional<std::string> base;  // --system-prompt: replaces nib's own introduction
  std::string appended;             // --append-system-prompt: added at the end
};

std::string build_system_prompt(const SystemPromptParts& parts);

// Today's date as YYYY-MM-DD in local time.
std::string today();

}  // namespace nib::app
