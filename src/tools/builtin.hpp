#pragma once
// The built-in tool set, assembled in one place: a new tool is one file plus one line here.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/tool.hpp"
#include "process/command_launcher.hpp"
#include "process/job_table.hpp"
#include "tools/editor_files.hpp"
#include "tools/todo_write.hpp"
#include "util/result.hpp"

namespace nib::tools {

struct BuiltinOptions {
  // How edit and write treat a file not read in the session (see UnseenFiles): `nib tool`
  // trusts it, a model session refuses it.
  bool trust_unread_files = false;
  // Variables of nib's environment that bash commands do not get (BashToolOptions).
  std::vector<std::string> withheld_environment;
  // What confines bash's commands (BashToolOptions::launcher); none: nothing.
  std::shared_ptr<const process::CommandLauncher> command_launcher;
  // The process's background jobs: with them, bash offers run_in_background and the job tools
  // (job_output, job_kill, job_list) join the set.
  std::shared_ptr<process::JobTable> jobs;
  // The hosts web_fetch may reach on non-public addresses (FetchPolicy::private_host_allowed).
  std::function<bool(std::string_view host)> private_web_host_allowed;
  // Where todo_write keeps the plan: the front end's, which it draws; null gives the set a
  // plan of its own (a subagent's, `nib tool`'s).
  std::shared_ptr<PlanBoard> plan;
  // The editor's text of its open files, for read, edit and write (editor_files.hpp); null:
  // files on disk.
  std::shared_ptr<const EditorFiles> editor_files;
};

// Every built-in tool, in the order the model sees them: one session's set, sharing one record
// of the files the model has seen. It holds both ways of changing files, edit and write, and
// apply_patch; each model is offered the one it edits with (core::offered_to).
std::vector<core::ToolPtr> builtin_tools(const BuiltinOptions& options = {});

// Keeps only the tools named in `names`, in the built-in order. An unknown name is a failure
// naming the tool and listing the available ones.
util::Result<std::vector<core::ToolPtr>> select_tools(std::vector<core::ToolPtr> tools,
                                                      const std::vector<std::string>& names);

// Leaves out the tools named in `names` (nib's names or Claude Code's: "Bash", "web_fetch"). A
// name with a pattern ("Bash(rm:*)") is a failure: that is a deny rule's job, and leaving out
// less than it names would let through what the user meant to stop.
util::Result<std::vector<core::ToolPtr>> leave_out_tools(std::vector<core::ToolPtr> tools,
                                                         const std::vector<std::string>& names);

}  // namespace nib::tools
