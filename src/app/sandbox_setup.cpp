#include "app/sandbox_setup.hpp"

#include "process/temp_log.hpp"
#include "sandbox/sandbox_environment.hpp"

namespace nib::app {

namespace {

// `name` in the directory of the running nib binary (where the build and the install put the
// helpers); empty when the binary cannot be found.
std::filesystem::path installed_beside_nib(const char* name) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : self.parent_path() / name;
}

}  // namespace

util::Result<SandboxSetup> setup_sandbox(
    const Configuration& configuration, const util::UserPlaces& places,
    const std::filesystem::path& cwd, bool disabled,
    std::shared_ptr<const workspace::ProtectedTree> protected_tree,
    std::vector<std::filesystem::path> hidden) {
  using Result = util::Result<SandboxSetup>;
  std::vector<sandbox::SettingsDocument> documents;
  for (const SettingsSource& source : configuration.sources) {
    documents.push_back({source.file, source.claude, &source.document});
  }
  auto settings = sandbox::read_sandbox_settings(documents, cwd, places.home);
  if (!settings.ok()) return Result::failure("nib: " + settings.error());
  SandboxSetup setup;
  if (disabled || !settings.value().enabled) return setup;
  // A passing probe is remembered in the per-user temp directory, so most starts skip it.
  const auto temp = process::open_private_temp_dir();
  setup.sandbox = std::make_shared<sandbox::CommandSandbox>(sandbox::SandboxOptions{
      .tree = cwd,
      .home = places.home,
      .cache_root = sandbox::default_cache_root(places.cache_home),
      .settings = std::move(settings.value()),
      .probe = {.memory = temp.ok() ? temp.value().path / "sandbox-probe" : ""},
      .protected_tree = std::move(protected_tree),
      .hidden = std::move(hidden),
      .exec_helper = installed_beside_nib("nib-exec")});
  if (setup.sandbox->verdict().confinement != sandbox::Confinement::kBubblewrap) {
    setup.notice = "nib: " + setup.sandbox->verdict().line;
  }
  return setup;
}

}  // namespace nib::app
