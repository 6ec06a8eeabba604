#include "app/run_setup.hpp"

#include "app/command_environment.hpp"
#include "app/extension_setup.hpp"
#include "app/project_instructions.hpp"
#include "tools/job_report.hpp"
#include "util/environment.hpp"
#include "util/secret_redaction.hpp"

namespace nib::app {
namespace {

session::CompactionSettings compaction_settings(const Settings& settings) {
  session::CompactionSettings compaction;
  if (settings.compaction_enabled) compaction.enabled = *settings.compaction_enabled;
  if (settings.compaction_reserve_tokens) {
    compaction.reserve_tokens = *settings.compaction_reserve_tokens;
  }
  compaction.threshold = settings.compaction_threshold;
  if (settings.compaction_keep_recent_tokens) {
    compaction.keep_recent_tokens = *settings.compaction_keep_recent_tokens;
  }
  return compaction;
}

// A resumed session goes on with the model it last used, unless one is named.
CliOptions with_session_model(CliOptions options, const util::EnvLookup& env,
                              const std::optional<ExistingSession>& existing) {
  if (!existing || options.model || options.provider || env("NIB_MODEL") || env("NIB_PROVIDER")) {
    return options;
  }
  const SessionModel used = session_model(existing->loaded);
  if (!used.provider.empty() && !used.model.empty()) {
    options.provider = used.provider;
    options.model = used.model;
  }
  return options;
}

// The prices of `model_id`: as its provider lists it, else as any provider that lists it (the
// user may have switched provider since); nullopt when none does.
std::optional<provider::ModelPrices> prices_of(const Configuration& config,
                                               const std::string& provider_name,
                                               const std::string& model_id) {
  if (const provider::ProviderEntry* entry = config.find_provider(provider_name)) {
    if (const provider::ModelEntry* model = entry->find(model_id)) return model->prices;
  }
  for (const provider::ProviderEntry& entry : config.providers) {
    if (const provider::ModelEntry* model = entry.find(model_id)) return model->prices;
  }
  return std::nullopt;
}

bool priced(const std::optional<provider::ModelPrices>& prices) {
  return prices && (prices->input > 0 || prices->output > 0);
}

// The process's spending meter, capped by --max-budget-usd or else maxBudgetUsd. A cap on a
// model whose prices nib does not know (a local server's, one models.json gives none) cannot be
// enforced: said at start rather than found out when the bill comes.
std::unique_ptr<core::SpendMeter> spending_meter(const CliOptions& options,
                                                 const Configuration& config,
                                                 const ModelConfig& model, std::ostream& err) {
  const std::optional<double> cap =
      options.max_budget_usd ? options.max_budget_usd : config.settings.max_budget_usd;
  if (cap && !priced(prices_of(config, model.provider, model.model.id))) {
    err << "nib: warning: the spending cap cannot be enforced: nib does not know the prices of "
        << model.model.id
        << " (give them in models.json as \"cost\"); its requests count nothing\n";
  }
  return std::make_unique<core::SpendMeter>(
      cap,
      [&config, provider = model.provider](const std::string& model_id, const core::Usage& usage) {
        const auto prices = prices_of(config, provider, model_id);
        return priced(prices) ? std::optional(provider::cost_usd(usage, *prices)) : std::nullopt;
      });
}

}  // namespace

util::Result<Configuration> load_tree_configuration(const util::UserPlaces& places,
                                                    const std::filesystem::path& cwd) {
  return load_configuration(config_directories(places, cwd));
}

util::Result<std::unique_ptr<RunSetup>> open_run_setup(
    const CliOptions& options, const util::UserPlaces& places, const std::filesystem::path& cwd,
    Configuration configuration, std::optional<ExistingSession> existing, std::ostream& err) {
  using Result = util::Result<std::unique_ptr<RunSetup>>;
  auto setup = std::make_unique<RunSetup>();
  setup->configuration = std::move(configuration);
  const Configuration& config = setup->configuration;
  const Settings& settings = config.settings;
  const util::EnvLookup env = util::process_environment();
  // Whatever nib prints or saves from here on is cleaned of the keys it holds.
  for (const std::string& name : config.api_key_variables()) {
    if (const auto value = env(name.c_str())) util::register_secret(*value);
  }
  if (existing) {
    for (const std::string& line : existing->loaded.unreadable_lines) {
      err << "nib: warning: skipped an unreadable line of the session (the file is left as it "
             "is): "
          << line << '\n';
    }
  }
  auto model = resolve_model_config(with_session_model(options, env, existing), env, config);
  if (!model.ok()) return Result::failure(model.error());
  setup->model = std::move(model.value());
  util::register_secret(setup->model.api_key);
  if (!setup->model.web_search_notice.empty()) err << setup->model.web_search_notice << '\n';
  auto guard = make_guard(options, config, places, cwd, withheld_environment(config));
  if (!guard.ok()) return Result::failure(guard.error());
  setup->guard = std::move(guard.value());
  if (setup->guard->sandbox() == nullptr) {
    err << "nib: the command sandbox is off (--no-sandbox or \"sandbox\": {\"enabled\": false}): "
           "commands run with your rights\n";
  }
  setup->spend = spending_meter(options, config, setup->model, err);
  const ConfigDirectories directories = config_directories(places, cwd);
  setup->context = RunContext{
      env, places, cwd, instructions_section(find_instruction_files(directories.global, cwd)),
      compaction_settings(settings), std::move(existing),
      options.max_turns > 0 ? options.max_turns : settings.max_turns.value_or(0),
      withheld_environment(config), directories.global, &setup->configuration, setup->guard.get(),
      // The tree's runs' background jobs, killed when the setup ends.
      std::make_shared<process::JobTable>(process::JobTableOptions{
          .notices = &setup->notices, .end_notice = tools::job_end_notice}),
      &setup->notices,
      load_user_extensions(extension_roots(places, cwd, directories.global, config.plugins.get()),
                           config.plugins)};
  setup->context.spend = setup->spend.get();
  if (!options.no_session) {
    setup->context.checkpoints = TreeCheckpoints::for_tree(places, cwd, settings);
  }
  return setup;
}

}  // namespace nib::app
