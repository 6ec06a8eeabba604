#include "permissions/default_mode.hpp"

namespace nib::permissions {

util::Result<std::optional<PermissionMode>> read_default_mode(
    const std::vector<RuleSource>& sources) {
  using Result = util::Result<std::optional<PermissionMode>>;
  for (auto source = sources.rbegin(); source != sources.rend(); ++source) {
    if (!source->document.is_object()) continue;
    const auto section = source->document.find("permissions");
    if (section == source->document.end() || !section->is_object()) continue;
    const auto mode = section->find("defaultMode");
    if (mode == section->end()) continue;
    const std::string where = source->file.string() + ": permissions.defaultMode: ";
    if (!mode->is_string()) return Result::failure(where + "must be a string");
    auto parsed = parse_mode(mode->get<std::string>());
    if (!parsed.ok()) return Result::failure(where + parsed.error());
    return std::optional<PermissionMode>(parsed.value());
  }
  return std::optional<PermissionMode>();
}

}  // namespace nib::permissions
