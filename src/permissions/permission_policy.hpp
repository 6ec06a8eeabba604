#pragma once
// Whether a call may run, must be asked about, or is refused: the permission mode, the rules,
// the sandbox's state and --ask decide it here, once, for every front end (the approval policy
// turns the verdict into a gate). Order: a deny rule refuses; a hook asking (hooks/tool_hooks)
// or a tool --ask names asks; in yolo
// everything else runs; an ask rule asks; then the mode decides, an allow rule allowing what
// the mode would ask about. read-only refuses what changes something whatever the rules say.
//
// Thread-safe: assess() only reads the options and the mode (which set_mode may change from
// another thread); the rule checks it calls must be thread-safe.

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/tool_call.hpp"
#include "permissions/permission_mode.hpp"
#include "permissions/rule_set.hpp"

namespace nib::permissions {

// How commands run: confined by the sandbox, and if not, the line that says why.
struct SandboxState {
  bool confining = false;
  std::string unavailable;  // why commands cannot be confined, and the fix; "" when confining
  // True for a command that settings say always runs outside the sandbox.
  std::function<bool(const std::string& command)> runs_outside;
};

struct PolicyOptions {
  PermissionMode mode = PermissionMode::kAuto;
  std::filesystem::path working_tree;  // absolute: edits inside it need no approval in auto
  SandboxState sandbox;
  std::filesystem::path home;          // for rules naming ~/ paths
  std::vector<std::string> ask_tools;  // --ask: tools whose calls always ask ("all")
  // The permission rules of every settings file; null: the built-in defaults only.
  std::shared_ptr<const RuleSet> rules;
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

  Assessment assess(const core::GateRequest& request) const;

  // The mode now; the interactive mode changes it between (and during) runs (Shift+Tab).
  PermissionMode mode() const { return mode_.load(); }
  void set_mode(PermissionMode mode) { mode_.store(mode); }

 private:
  Assessment by_mode(const core::GateRequest& request, const CallDecision& ruled) const;
  Assessment bash_by_mode(const core::GateRequest& request, const CallDecision& ruled) const;
  Assessment change_by_mode(const core::GateRequest& request) const;
  Assessment asks(const core::GateRequest& request, const CallDecision& ruled, std::string reason,
                  std::string source) const;

  const PolicyOptions options_;  // options_.mode is the mode at the start only
  std::atomic<PermissionMode> mode_;
};

}  // namespace nib::permissions
