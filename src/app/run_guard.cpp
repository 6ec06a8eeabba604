#include "app/run_guard.hpp"

#include "app/hook_setup.hpp"
#include "app/permission_rules.hpp"
#include "app/permission_setup.hpp"
#include "app/sandbox_setup.hpp"
#include "hooks/tool_hooks.hpp"
#include "util/secret_places.hpp"

namespace nib::app {
namespace {

// The secret places of the home directory (util/secret_places.hpp) that no rule of the user's
// allows reading: the sandbox hides them from commands.
std::vector<std::filesystem::path> hidden_places(const permissions::RuleSet& rules,
                                                 const std::filesystem::path& home,
                                                 const std::filesystem::path& cwd) {
  std::vector<std::filesystem::path> hidden;
  if (home.empty()) return hidden;
  for (std::string_view place : util::kSecretPlaces) {
    const std::filesystem::path path = home / place;
    core::CallAccess reading{.kind = core::AccessKind::kRead, .paths = {{"", path, path}}};
    const permissions::Decision decision = rules.decide({"read", reading, cwd, home}).decision;
    const bool allowed = decision.verdict == permissions::Verdict::kAllow &&
                         decision.rule != nullptr && !decision.rule->origin.file.empty();
    if (!allowed) hidden.push_back(path);
  }
  return hidden;
}

}  // namespace

util::Result<std::unique_ptr<RunGuard>> make_guard(const CliOptions& options,
                                                   const Configuration& configuration,
                                                   const util::UserPlaces& places,
                                                   const std::filesystem::path& cwd,
                                                   std::vector<std::string> withheld_environment) {
  const auto mode = starting_mode(options, rule_sources(configuration, places.home));
  if (!mode.ok()) return util::Result<std::unique_ptr<RunGuard>>::failure(mode.error());
  return RunGuard::create({.configuration = &configuration,
                           .places = places,
                           .cwd = cwd,
                           .mode = mode.value(),
                           .ask_tools = options.ask,
                           .sandbox_off = options.no_sandbox,
                           .withheld_environment = std::move(withheld_environment)});
}

util::Result<std::unique_ptr<RunGuard>> RunGuard::create(GuardOptions options) {
  using Result = util::Result<std::unique_ptr<RunGuard>>;
  std::unique_ptr<RunGuard> guard(new RunGuard());
  const Configuration& configuration = *options.configuration;
  // One home for the rules, the tools' `~` and the sandbox.
  const std::filesystem::path home = options.places.home;
  auto rules = load_rules(configuration, home);
  if (!rules.ok()) return Result::failure(rules.error());
  guard->rules_ = std::move(rules.value());

  auto hook_config = load_hook_config(configuration);
  if (!hook_config.ok()) return Result::failure(hook_config.error());
  guard->warnings_ = hook_config.value().warnings;
  guard->protected_tree_ = std::make_shared<const workspace::ProtectedTree>(
      options.cwd, hook_scripts(hook_config.value(), options.cwd));
  guard->hooks_ =
      make_hook_set(std::move(hook_config.value()), options.cwd, options.withheld_environment);

  guard->approvals_ = std::make_shared<permissions::ApprovalPolicy>(permissions::PolicyOptions{
      .mode = options.mode,
      .working_tree = options.cwd,
      .home = home,
      .ask_tools = options.ask_tools,
      .rules = guard->rules_,
      .protection = [tree = guard->protected_tree_](const std::filesystem::path& path) {
        return tree->protection(path);
      }});

  auto setup =
      setup_sandbox(configuration, options.places, options.cwd, options.sandbox_off,
                    guard->protected_tree_, hidden_places(*guard->rules_, home, options.cwd));
  if (!setup.ok()) return Result::failure(setup.error());
  if (!setup.value().notice.empty()) guard->warnings_.push_back(setup.value().notice);
  guard->sandbox_ = setup.value().sandbox;
  // The mode is read at each command: yolo runs it without the sandbox. Should a command
  // outlive the guard (an abandoned call), it stays confined.
  guard->launcher_ = std::make_shared<const sandbox::ConfinementSwitch>(
      guard->sandbox_, [policy = std::weak_ptr(guard->approvals_)] {
        const auto alive = policy.lock();
        return !alive || alive->policy().mode() != permissions::PermissionMode::kYolo;
      });
  guard->options_ = std::move(options);
  guard->follow_session([] { return std::string(); });
  return guard;
}

tools::BuiltinOptions RunGuard::tool_options() const {
  return {.withheld_environment = options_.withheld_environment,
          .command_launcher = launcher_,
          .private_web_host_allowed = hosts_opened_to_web_fetch(rules_)};
}

void RunGuard::follow_session(std::function<std::string()> session_file) {
  hooks_->set_session_source(
      [file = std::move(session_file), cwd = options_.cwd, policy = std::weak_ptr(approvals_)] {
        const std::string path = file();
        const auto alive = policy.lock();
        return hooks::HookSession{
            std::filesystem::path(path).stem().string(), path, cwd,
            std::string(permissions::claude_mode_name(alive ? alive->policy().mode()
                                                            : permissions::PermissionMode::kAsk))};
      });
}

void RunGuard::guard(core::LoopOptions& loop, permissions::AskUser ask,
                     permissions::RuleSaver save_rules,
                     std::shared_ptr<const permissions::RuleSet> grants) {
  loop.pre_tool = pre_tool();
  loop.gate = gate(std::move(ask), std::move(save_rules), std::move(grants));
  loop.after_tool = after_tool();
}

core::Gate RunGuard::gate(permissions::AskUser ask, permissions::RuleSaver save_rules,
                          std::shared_ptr<const permissions::RuleSet> grants) {
  return approvals_->gate(std::move(ask), std::move(save_rules), std::move(grants));
}

core::PreToolCheck RunGuard::pre_tool() const {
  return hooks::pre_tool_use_check(hooks_);
}

core::AfterTool RunGuard::after_tool() const {
  return hooks::post_tool_use_hooks(hooks_);
}

}  // namespace nib::app
