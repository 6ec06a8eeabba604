#include "app/permission_setup.hpp"

namespace nib::app {

util::Result<permissions::PermissionMode> starting_mode(const CliOptions& options,
                                                        const Configuration& configuration) {
  using Result = util::Result<permissions::PermissionMode>;
  if (options.permission_mode) {
    auto mode = permissions::parse_mode(*options.permission_mode);
    if (!mode.ok()) return Result::failure("nib: --permission-mode: " + mode.error());
    return mode;
  }
  for (auto source = configuration.sources.rbegin(); source != configuration.sources.rend();
       ++source) {
    const auto section = source->document.find("permissions");
    if (section == source->document.end() || !section->is_object()) continue;
    const auto mode = section->find("defaultMode");
    if (mode == section->end()) continue;
    if (!mode->is_string()) {
      return Result::failure("nib: " + source->file.string() +
                             ": permissions.defaultMode: must be a string");
    }
    auto parsed = permissions::parse_mode(mode->get<std::string>());
    if (!parsed.ok()) {
      return Result::failure("nib: " + source->file.string() +
                             ": permissions.defaultMode: " + parsed.error());
    }
    return parsed;
  }
  return permissions::PermissionMode::kAuto;
}

permissions::PolicyOptions policy_options(permissions::PermissionMode mode,
                                          const CliOptions& options,
                                          const std::filesystem::path& cwd,
                                          permissions::SandboxState sandbox) {
  return {
      .mode = mode, .working_tree = cwd, .sandbox = std::move(sandbox), .ask_tools = options.ask};
}

}  // namespace nib::app
