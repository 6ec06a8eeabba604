#include "app/system_prompt.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <ctime>

#include "tools/todo_write.hpp"

namespace nib::app {

namespace {

constexpr const char* kIntroduction =
    "You are nib, a coding agent working in the user's terminal. You help with software "
    "tasks by reading files, running commands and editing code with your tools, then "
    "reporting what you did and found.\n\n"
    "Guidelines:\n"
    "- Look before you answer: read the relevant files and run commands instead of guessing.\n"
    "- Calls that do not depend on each other can be made in one reply; they may run in "
    "parallel.\n"
    "- Tool results may be truncated; they say how to get the rest.\n"
    "- Be concise. Show file paths clearly. Do not invent results you did not see.\n";

// When a plan is worth keeping; said only when todo_write is offered. How to keep one is the
// tool's own description.
constexpr const char* kPlanGuideline =
    "\nFor a task of 3 or more steps, or several tasks at once, keep a plan with todo_write; "
    "skip it for a single quick change or a question.\n";

}  // namespace

std::string build_system_prompt(const SystemPromptParts& parts) {
  std::string prompt = parts.base.value_or(kIntroduction);
  if (!prompt.empty() && prompt.back() != '\n') prompt += '\n';
  // The tools are not listed here: each request carries their schemas and descriptions already.
  if (std::any_of(parts.tools.begin(), parts.tools.end(), [](const core::ToolSpec& tool) {
        return tool.name == tools::kTodoWriteToolName;
      })) {
    prompt += kPlanGuideline;
  }
  prompt += parts.skills;
  utsname system{};
  uname(&system);
  prompt += "\nWorking directory: " + parts.cwd.string() + "\nPlatform: " + system.sysname + " " +
            system.release + " (" + system.machine + ")\nToday's date: " + parts.date + "\n";
  prompt += parts.instructions;
  if (!parts.appended.empty()) prompt += "\n" + parts.appended + "\n";
  return prompt;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &local);
  return buffer;
}

}  // namespace nib::app
