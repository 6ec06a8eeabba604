#pragma once
// Whether a call may run, must be asked about, or is refused: the permission mode, the rules
// and --ask decide it here, once, for every front end (the approval policy turns the verdict
// into a gate). A call is judged only on what its tool says it touches (core::CallAccess): its
// kind, its paths as the tool opens them and their targets, its command and how the launcher
// will run it, its URL's host. No tool is known here by name. Order: a deny rule refuses; a
// hook asking (hooks/tool_hooks) or a tool --ask names asks; in yolo everything else runs; an
// ask rule asks; then the mode decides, an allow rule allowing what the mode would ask about
// (for a command leaving the sandbox, only a rule that says so: rule.hpp). read-only refuses
// what changes something whatever the rules say.
//
// Grants: a custom command's allowed-tools (Claude Code's front matter) spare the questions of
// ask mode for what they name during the run the command starts, where no rule of the user's
// speaks: such a call runs as it would in auto mode. They never undo a deny or ask rule, a
// built-in default, a hook asking, --ask or read-only mode, and never allow what auto mode asks
// about (a command leaving the sandbox or using the network, an edit outside the tree or of a
// protected path, an MCP tool), since a repository may have written the command file.
//
// The policy owns the permission mode: it starts as the options say and set_mode changes it
// (Shift+Tab); everything that follows the mode (the sandbox, the hooks' input, the footer)
// reads mode() at each use.
//
// Thread-safe: assess() only reads the options and the mode (which set_mode may change from
// another thread); the rule checks it calls must be thread-safe.

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <optional>

#include "core/tool_call.hpp"
#include "permissions/permission_mode.hpp"
#include "permissions/rule_set.hpp"

namespace nib::permissions {

// Why a path in the working tree must not change without the user ("git runs the hooks in
// .git/hooks"), or nothing: the one owner of what is protected (workspace/protected_tree.hpp).
using Protection = std::function<std::optional<std::string>(const std::filesystem::path&)>;

struct PolicyOptions {
  PermissionMode mode = PermissionMode::kAuto;  // at the start
  std::filesystem::path working_tree;  // absolute: edits inside it need no approval in auto
  std::filesystem::path home;          // for rules naming ~/ paths
  std::vector<std::string> ask_tools;  // --ask: tools whose calls always ask ("all")
  // The permission rules of every settings file; null: the built-in defaults only.
  std::shared_ptr<const RuleSet> rules;
  Protection protection;  // empty: nothing in the tree is protected
};

enum class CallVerdict { kAllow, kAsk, kDeny };

struct Assessment {
  CallVerdict verdict = CallVerdict::kAllow;
  // Why it asks or refuses, for the user and the model ("bash asks for the network: ...").
  std::string reason;
  std::string source;  // who decided: "permission rule ...", "read-only mode", ...
  // What would allow it: the rules "always" saves, and the words for a print-mode refusal.
  std::vector<std::string> rules_to_save;
  std::vector<std::string> parts;  // a bash command's simple commands, as split
};

class PermissionPolicy {
 public:
  explicit PermissionPolicy(PolicyOptions options);

  // `grants`: allow rules in force for this run only (see above); null for none.
  Assessment assess(const core::GateRequest& request, const RuleSet* grants = nullptr) const;

  // The mode now; the interactive mode changes it between (and during) runs (Shift+Tab).
  PermissionMode mode() const { return mode_.load(); }
  void set_mode(PermissionMode mode) { mode_.store(mode); }

 private:
  // What `mode` says of a call no rule decided.
  Assessment by_mode(const core::GateRequest& request, const core::CallAccess& access,
                     const CallDecision& ruled, PermissionMode mode) const;
  Assessment command_by_mode(const core::GateRequest& request, const core::CallAccess& access,
                             const CallDecision& ruled, PermissionMode mode) const;
  Assessment change_by_mode(const core::GateRequest& request, const core::CallAccess& access,
                            PermissionMode mode) const;
  Assessment asks(const core::GateRequest& request, const core::CallAccess& access,
                  const CallDecision& ruled, std::string reason, std::string source) const;

  const PolicyOptions options_;  // options_.mode is the mode at the start only
  std::atomic<PermissionMode> mode_;
};

}  // namespace nib::permissions
