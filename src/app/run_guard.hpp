#pragma once
// What decides, for every front end alike, whether a call may run and how its command is
// confined. main builds one per nib and hands it to print mode, the interactive mode, `nib mcp
// serve` and `nib tool`, which differ only in how they ask (a person, or nobody). It owns:
// - the permission policy: the rules of every settings file, --ask, and the permission mode,
//   which it owns (Shift+Tab changes it here; everything that follows the mode reads it);
// - what in the working tree is protected (workspace::ProtectedTree), asked by the policy
//   before an edit and by the sandbox before a command;
// - the command sandbox, unless the user switched it off, behind the launcher bash gets, which
//   follows the mode as it changes (yolo runs commands without it) and hides the home
//   directory's secret places from commands unless a rule allows reading them;
// - the hooks, whose input reads the session and the mode from their owners at each event.
// The checks of a call always come in one order (guard()): the PreToolUse hooks, then the
// policy, then, once it ran, the PostToolUse hooks; subagents inherit them whole.
// Not thread-safe to build; its parts are thread-safe as they document.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/settings.hpp"
#include "core/agent_loop.hpp"
#include "hooks/hook_set.hpp"
#include "permissions/approval_policy.hpp"
#include "process/command_launcher.hpp"
#include "sandbox/confinement_switch.hpp"
#include "tools/builtin.hpp"
#include "util/result.hpp"
#include "util/user_places.hpp"
#include "workspace/protected_tree.hpp"

namespace nib::app {

struct GuardOptions {
  const Configuration* configuration = nullptr;  // outlives the guard
  // The user's places: one home for the rules, the policy and the sandbox (the one the tools
  // resolve `~` to, util/user_places.hpp), and the sandbox's cache directory.
  util::UserPlaces places;
  std::filesystem::path cwd;                                              // the working tree
  permissions::PermissionMode mode = permissions::PermissionMode::kAuto;  // at the start
  std::vector<std::string> ask_tools;                                     // --ask
  bool sandbox_off = false;                       // --no-sandbox (settings may switch it off too)
  std::vector<std::string> withheld_environment;  // kept from commands and hooks
};

class RunGuard;

// The guard the flags and settings ask for: --permission-mode, else the settings' defaultMode,
// else auto; --ask; --no-sandbox. Warnings go to `warnings` for the front end to show.
util::Result<std::unique_ptr<RunGuard>> make_guard(const CliOptions& options,
                                                   const Configuration& configuration,
                                                   const util::UserPlaces& places,
                                                   const std::filesystem::path& cwd,
                                                   std::vector<std::string> withheld_environment);

class RunGuard {
 public:
  // A broken rule, hook or sandbox section fails naming its file (exit status 2).
  static util::Result<std::unique_ptr<RunGuard>> create(GuardOptions options);

  permissions::ApprovalPolicy& approvals() { return *approvals_; }
  const permissions::PermissionPolicy& policy() const { return approvals_->policy(); }
  std::shared_ptr<const permissions::RuleSet> rules() const { return rules_; }
  // The launcher bash and background jobs get: the sandbox while the mode wants it.
  std::shared_ptr<const process::CommandLauncher> launcher() const { return launcher_; }
  // The sandbox, when the user has one switched on (whatever the mode); null otherwise.
  std::shared_ptr<sandbox::CommandSandbox> sandbox() const { return sandbox_; }
  std::shared_ptr<hooks::HookSet> hooks() const { return hooks_; }
  // The built-in tools' options every front end starts from: commands confined by launcher()
  // and without the withheld variables, web_fetch opened to the hosts the rules name. The
  // front end adds its jobs and plan.
  tools::BuiltinOptions tool_options() const;
  const std::filesystem::path& working_tree() const { return options_.cwd; }
  // Hook entries skipped, and the sandbox's start-up line: for the front end to show.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // The hooks' input follows the session `session_file` names from now on ("" for none): its
  // id and transcript, read at each event, beside the mode as it is then.
  void follow_session(std::function<std::string()> session_file);

  // Sets the checks of every call on `loop`: the PreToolUse hooks, the policy asking through
  // `ask` (a person; empty: nobody, and a call that needs asking is refused) and saving
  // "always" answers with `save_rules`, and the PostToolUse hooks. Before the loop's options are
  // lent to subagents, which take them whole.
  // `grants`: the allow rules a custom command's allowed-tools give its run (null: none).
  void guard(core::LoopOptions& loop, permissions::AskUser ask,
             permissions::RuleSaver save_rules = {},
             std::shared_ptr<const permissions::RuleSet> grants = nullptr);
  core::Gate gate(permissions::AskUser ask, permissions::RuleSaver save_rules = {},
                  std::shared_ptr<const permissions::RuleSet> grants = nullptr);
  core::PreToolCheck pre_tool() const;
  core::AfterTool after_tool() const;

 private:
  RunGuard() = default;

  GuardOptions options_;
  std::shared_ptr<const permissions::RuleSet> rules_;
  std::shared_ptr<const workspace::ProtectedTree> protected_tree_;
  std::shared_ptr<permissions::ApprovalPolicy> approvals_;
  std::shared_ptr<sandbox::CommandSandbox> sandbox_;
  std::shared_ptr<const sandbox::ConfinementSwitch> launcher_;
  std::shared_ptr<hooks::HookSet> hooks_;
  std::vector<std::string> warnings_;
};

}  // namespace nib::app
