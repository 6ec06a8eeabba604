#include "app/permission_rules.hpp"

#include "permissions/rule_suggestion.hpp"
#include "process/json_file.hpp"

namespace nib::app {

std::vector<permissions::RuleSource> rule_sources(const Configuration& configuration,
                                                  const std::filesystem::path& home) {
  std::vector<permissions::RuleSource> sources;
  for (const SettingsSource& source : configuration.sources) {
    const std::filesystem::path project = source.scope == SettingsSource::Scope::kUser
                                              ? home
                                              : source.file.parent_path().parent_path();
    sources.push_back({source.file, source.document, project, source.text});
  }
  return sources;
}

util::Status save_local_rules(const std::filesystem::path& project, permissions::RuleList list,
                              const std::vector<std::string>& rules) {
  const std::filesystem::path file = project / ".nib" / "settings.local.json";
  auto document = process::read_json_file(file);
  if (!document.ok()) {
    return util::Status::failure(document.error() + "; fix it, then save the rule again");
  }
  return process::write_json_file(
      file, permissions::with_rules_added(std::move(document.value()), list, rules));
}

}  // namespace nib::app
