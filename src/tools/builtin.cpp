#include "tools/builtin.hpp"

#include <algorithm>

#include "core/claude_tool_names.hpp"
#include "tools/apply_patch.hpp"
#include "tools/bash.hpp"
#include "tools/edit.hpp"
#include "tools/file_tracker.hpp"
#include "tools/find.hpp"
#include "tools/grep.hpp"
#include "tools/job_tools.hpp"
#include "tools/ls.hpp"
#include "tools/read.hpp"
#include "tools/todo_write.hpp"
#include "tools/web_fetch.hpp"
#include "tools/write.hpp"

namespace nib::tools {

std::vector<core::ToolPtr> builtin_tools(const BuiltinOptions& options) {
  // One tracker for the set: what read shows is what edit and write check against.
  const auto files = std::make_shared<FileTracker>(
      options.trust_unread_files ? UnseenFiles::kTrustCurrent : UnseenFiles::kRefuse);
  BashToolOptions bash;
  bash.withheld_environment = options.withheld_environment;
  bash.launcher = options.command_launcher;
  bash.jobs = options.jobs;
  WebFetchOptions web_fetch;
  web_fetch.fetch.private_host_allowed = options.private_web_host_allowed;
  std::vector<core::ToolPtr> tools = {
      make_read_tool(files, options.editor_files),
      make_bash_tool(std::move(bash)),
      make_edit_tool(files, options.editor_files),
      make_write_tool(files, options.editor_files),
      make_apply_patch_tool(files, options.editor_files),
      make_find_tool(),
      make_ls_tool(),
      make_grep_tool(),
      make_web_fetch_tool(std::move(web_fetch)),
      make_todo_write_tool(options.plan ? options.plan : std::make_shared<PlanBoard>())};
  if (options.jobs) {
    for (core::ToolPtr& tool : make_job_tools(options.jobs)) tools.push_back(std::move(tool));
  }
  return tools;
}

util::Result<std::vector<core::ToolPtr>> select_tools(std::vector<core::ToolPtr> tools,
                                                      const std::vector<std::string>& names) {
  for (const auto& name : names) {
    const bool known = std::any_of(tools.begin(), tools.end(),
                                   [&](const core::ToolPtr& tool) { return tool->name() == name; });
    if (!known) {
      std::string available;
      for (const auto& tool : tools) available += (available.empty() ? "" : ", ") + tool->name();
      return util::Result<std::vector<core::ToolPtr>>::failure(
          "unknown tool \"" + name + "\" in --tools; available: " + available);
    }
  }
  // Naming edit or write keeps apply_patch, the edit tool of the models that edit with patches.
  std::erase_if(tools, [&](const core::ToolPtr& tool) {
    return !core::list_names_tool(names, tool->name());
  });
  return tools;
}

util::Result<std::vector<core::ToolPtr>> leave_out_tools(std::vector<core::ToolPtr> tools,
                                                         const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (name.find('(') != std::string::npos) {
      return util::Result<std::vector<core::ToolPtr>>::failure(
          "nib cannot leave out part of a tool (" + name +
          "); write it as a deny rule in .nib/settings.json (permissions.deny) instead");
    }
  }
  // Leaving out Edit or Write leaves out apply_patch too: it would change the same files.
  std::erase_if(
      tools, [&](const core::ToolPtr& tool) { return core::list_names_tool(names, tool->name()); });
  return tools;
}

}  // namespace nib::tools
