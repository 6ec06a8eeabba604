#include "sandbox/confinement_switch.hpp"

namespace nib::sandbox {

ConfinementSwitch::ConfinementSwitch(std::shared_ptr<const CommandSandbox> sandbox,
                                     std::function<bool()> wanted)
    : sandbox_(std::move(sandbox)), wanted_(std::move(wanted)) {}

core::Confinement ConfinementSwitch::confinement(std::string_view command,
                                                 process::LaunchMode mode) const {
  if (!sandbox_ || (wanted_ && !wanted_())) return core::Confinement::kUnconfinedByUser;
  return sandbox_->confinement(command, mode);
}

std::string ConfinementSwitch::unavailable() const {
  return sandbox_ ? sandbox_->unavailable() : "";
}

util::Result<process::Launch> ConfinementSwitch::launch(process::SpawnRequest request,
                                                        process::LaunchMode mode) const {
  if (!sandbox_) {
    return util::Result<process::Launch>::failure(
        "the sandbox is switched off (--no-sandbox or \"sandbox\": {\"enabled\": false}), so "
        "nothing can confine the command");
  }
  return sandbox_->launch(std::move(request), mode);
}

std::string ConfinementSwitch::describe() const {
  if (!sandbox_) {
    return "The sandbox is switched off: commands run with the user's rights (\"network\" and "
           "\"unsandboxed\" change nothing).";
  }
  return sandbox_->describe() + (wanted_ ? " (In yolo mode there is no sandbox.)" : "");
}

}  // namespace nib::sandbox
