#pragma once
// The launcher every front end hands to bash (and background jobs): the command sandbox while
// the run wants one, asked afresh for each command. The user may have switched the sandbox off
// for good (--no-sandbox, "sandbox": {"enabled": false}: no sandbox at all), and the permission
// mode may switch it off for a while (yolo), read live at each command, so a session that
// starts in yolo and moves to auto confines its next command again. Either way a command then
// runs unconfined as the user chose (core::Confinement::kUnconfinedByUser): nothing to ask.
// Thread-safe as the sandbox is; `wanted` must be callable from any thread.

#include <functional>
#include <memory>

#include "process/command_launcher.hpp"
#include "sandbox/command_sandbox.hpp"

namespace nib::sandbox {

class ConfinementSwitch final : public process::CommandLauncher {
 public:
  // `sandbox`: null when the user switched it off. `wanted`: false while the mode runs commands
  // without it (yolo); empty: always wanted.
  ConfinementSwitch(std::shared_ptr<const CommandSandbox> sandbox, std::function<bool()> wanted);

  core::Confinement confinement(std::string_view command, process::LaunchMode mode) const override;
  std::string unavailable() const override;
  util::Result<process::Launch> launch(process::SpawnRequest request,
                                       process::LaunchMode mode) const override;
  std::string describe() const override;

  // The sandbox, when there is one (switched on by the user, whatever the mode).
  const CommandSandbox* sandbox() const { return sandbox_.get(); }

 private:
  const std::shared_ptr<const CommandSandbox> sandbox_;
  const std::function<bool()> wanted_;
};

}  // namespace nib::sandbox
