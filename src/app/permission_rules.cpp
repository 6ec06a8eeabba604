#include "app/permission_rules.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "permissions/rule_suggestion.hpp"
#include "process/atomic_write.hpp"

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
  nlohmann::json document;
  std::optional<struct stat> existing;
  if (struct stat info{}; ::stat(file.c_str(), &info) == 0) {
    existing = info;
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return util::Status::failure(file.string() + ": cannot be read");
    document = nlohmann::json::parse(text.str(), nullptr, false);
    if (document.is_discarded()) {
      return util::Status::failure(file.string() +
                                   ": is not valid JSON; fix it, then save the rule again");
    }
  }
  std::error_code error;
  std::filesystem::create_directories(file.parent_path(), error);
  if (error) {
    return util::Status::failure("cannot create " + file.parent_path().string() + ": " +
                                 error.message());
  }
  const std::string bytes =
      permissions::with_rules_added(std::move(document), list, rules).dump(2) + "\n";
  const process::AtomicWriteResult written = process::atomic_write(file, bytes, existing);
  if (!written.ok()) {
    return util::Status::failure("cannot write " + file.string() + ": " + written.failed_step +
                                 ": " + std::strerror(written.error_number));
  }
  return util::Status::success();
}

}  // namespace nib::app
