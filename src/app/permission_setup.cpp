#include "app/permission_setup.hpp"

#include "app/permission_rules.hpp"
#include "permissions/default_mode.hpp"

namespace nib::app {

util::Result<permissions::PermissionMode> starting_mode(
    const CliOptions& options, const std::vector<permissions::RuleSource>& sources) {
  using Result = util::Result<permissions::PermissionMode>;
  if (options.permission_mode) {
    auto mode = permissions::parse_mode(*options.permission_mode);
    if (!mode.ok()) return Result::failure("nib: --permission-mode: " + mode.error());
    return mode;
  }
  const auto setting = permissions::read_default_mode(sources);
  if (!setting.ok()) return Result::failure("nib: " + setting.error());
  return setting.value().value_or(permissions::PermissionMode::kAuto);
}

util::Result<std::shared_ptr<const permissions::RuleSet>> load_rules(
    const Configuration& configuration, const std::filesystem::path& home) {
  using Result = util::Result<std::shared_ptr<const permissions::RuleSet>>;
  auto rules = permissions::RuleSet::load(rule_sources(configuration, home));
  if (!rules.ok()) return Result::failure("nib: " + rules.error());
  return std::make_shared<const permissions::RuleSet>(std::move(rules.value()));
}

std::function<bool(std::string_view host)> hosts_opened_to_web_fetch(
    std::shared_ptr<const permissions::RuleSet> rules) {
  if (!rules) return {};
  return [rules = std::move(rules)](std::string_view host) {
    const core::CallAccess fetch{.kind = core::AccessKind::kNetwork,
                                 .url = "http://" + std::string(host) + "/",
                                 .host = std::string(host)};
    const permissions::Decision decision =
        rules->decide({.tool = "web_fetch", .access = fetch}).decision;
    return decision.verdict == permissions::Verdict::kAllow && decision.rule != nullptr &&
           decision.rule->form == permissions::Rule::Form::kDomain;
  };
}

}  // namespace nib::app
