#include "app/sandbox_setup.hpp"

#include "sandbox/sandbox_environment.hpp"
#include "tools/temp_log.hpp"

namespace nib::app {

util::Result<SandboxSetup> setup_sandbox(const Configuration& configuration, const EnvLookup& env,
                                         const std::filesystem::path& cwd, bool disabled) {
  using Result = util::Result<SandboxSetup>;
  std::vector<sandbox::SettingsDocument> documents;
  for (const SettingsSource& source : configuration.sources) {
    documents.push_back({source.file, source.claude, &source.document});
  }
  const std::filesystem::path home = env("HOME").value_or("");
  auto settings = sandbox::read_sandbox_settings(documents, cwd, home);
  if (!settings.ok()) return Result::failure("nib: " + settings.error());
  SandboxSetup setup;
  if (disabled || !settings.value().enabled) return setup;
  // A passing probe is remembered in the per-user temp directory, so most starts skip it.
  const auto temp = tools::open_private_temp_dir();
  setup.sandbox = std::make_shared<sandbox::CommandSandbox>(sandbox::SandboxOptions{
      .tree = cwd,
      .cache_root = sandbox::default_cache_root(env("XDG_CACHE_HOME").value_or(""), home),
      .settings = std::move(settings.value()),
      .probe = {.memory = temp.ok() ? temp.value().path / "sandbox-probe" : ""}});
  if (setup.sandbox->verdict().confinement != sandbox::Confinement::kBubblewrap) {
    setup.notice = "nib: " + setup.sandbox->verdict().line;
  }
  return setup;
}

}  // namespace nib::app
