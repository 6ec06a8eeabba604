#include "sandbox/command_sandbox.hpp"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "sandbox/bubblewrap_arguments.hpp"
#include "sandbox/landlock_rules.hpp"
#include "sandbox/sandbox_environment.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

fs::path resolved(const fs::path& path) {
  std::error_code error;
  const fs::path canonical = fs::canonical(path, error);
  return error ? fs::path() : canonical;
}

void add_once(std::vector<fs::path>& paths, const fs::path& path) {
  if (!path.empty() && std::find(paths.begin(), paths.end(), path) == paths.end()) {
    paths.push_back(path);
  }
}

}  // namespace

CommandSandbox::CommandSandbox(SandboxOptions options)
    : options_(std::move(options)), protected_paths_(resolved(options_.tree)) {}

const ProbeVerdict& CommandSandbox::verdict() const {
  std::call_once(probed_, [this] { verdict_ = probe_sandbox(options_.probe); });
  return verdict_;
}

std::vector<fs::path> CommandSandbox::writable_paths() const {
  std::vector<fs::path> paths;
  add_once(paths, resolved(options_.tree));
  for (const fs::path& temp : temp_directories()) add_once(paths, temp);
  if (caches_ok_) add_once(paths, resolved(options_.cache_root));
  for (const fs::path& extra : options_.settings.writable_paths) add_once(paths, resolved(extra));
  return paths;
}

std::vector<int> CommandSandbox::shared_network() const {
  std::lock_guard lock(network_mutex_);
  if (!network_tried_) {
    network_tried_ = true;
    // Root may create a network namespace of the initial user namespace; anyone else needs a
    // user namespace of their own to own it.
    auto created = SharedNetwork::create(/*with_user_namespace=*/::geteuid() != 0);
    if (created.ok()) {
      network_ = std::move(created.value());
    } else {
      network_problem_ = created.error();
    }
  }
  return network_ ? network_->namespace_descriptors() : std::vector<int>{};
}

std::string CommandSandbox::network_problem() const {
  std::lock_guard lock(network_mutex_);
  return network_problem_;
}

util::Result<tools::Launch> CommandSandbox::launch(tools::SpawnRequest request,
                                                   tools::LaunchMode mode) const {
  const bool network = mode.network || options_.settings.network;
  std::call_once(caches_made_,
                 [this] { caches_ok_ = make_cache_directories(options_.cache_root); });
  if (caches_ok_) {
    request.environment =
        with_variables(request.environment, cache_environment(options_.cache_root));
  }
  switch (verdict().confinement) {
    case Confinement::kBubblewrap:
      return with_bubblewrap(std::move(request), network);
    case Confinement::kLandlock:
      return with_landlock(std::move(request), network);
    case Confinement::kNone:
      break;
  }
  return util::Result<tools::Launch>::failure(
      verdict().line +
      ". The command did not run; it can only run outside the sandbox, with "
      "approval (\"unsandboxed\": true with a \"justification\").");
}

util::Result<tools::Launch> CommandSandbox::with_bubblewrap(tools::SpawnRequest request,
                                                            bool network) const {
  ProtectedMounts protected_mounts = protected_paths_.prepare();
  BubblewrapPlan plan{.bubblewrap = verdict().bubblewrap,
                      .writable = writable_paths(),
                      .pinned = std::move(protected_mounts.pinned),
                      .read_only = std::move(protected_mounts.read_only),
                      .network = NetworkChoice::kHost};
  if (!network) {
    request.namespaces_to_enter = shared_network();
    plan.network =
        request.namespaces_to_enter.empty() ? NetworkChoice::kPrivate : NetworkChoice::kJoined;
  }
  request.argv = bubblewrap_argv(plan, request.argv, request.cwd);
  return tools::Launch{.request = std::move(request), .lease = nullptr};
}

util::Result<tools::Launch> CommandSandbox::with_landlock(tools::SpawnRequest request,
                                                          bool network) const {
  auto ruleset = landlock_ruleset(verdict().landlock_abi, writable_paths(), network);
  if (!ruleset.ok()) return util::Result<tools::Launch>::failure(ruleset.error());
  auto held = std::make_shared<tools::UniqueFd>(std::move(ruleset.value()));
  request.landlock_ruleset = held->get();
  return tools::Launch{.request = std::move(request), .lease = std::move(held)};
}

bool CommandSandbox::runs_outside(std::string_view command) const {
  return is_excluded_command(command, options_.settings.excluded_commands);
}

std::string CommandSandbox::describe() const {
  const std::string leave =
      " A command that needs the network (installing packages, fetching) takes \"network\": "
      "true; one that must write elsewhere or cannot work confined takes \"unsandboxed\": "
      "true; each needs a \"justification\" (one sentence: why), and such a call needs "
      "approval.";
  switch (verdict().confinement) {
    case Confinement::kBubblewrap:
      return std::string(
                 "Commands run in a sandbox: only the working tree, the temp "
                 "directories and a private cache directory (XDG_CACHE_HOME, "
                 "npm_config_cache, GOCACHE, GOPATH, CARGO_HOME, PIP_CACHE_DIR and "
                 "CCACHE_DIR point into it) are writable; .git/hooks, .git/config, "
                 "a .git file, .nib/, .claude/ and .mcp.json are read-only, and so are the "
                 "hooks and config of nested repositories (submodules, vendored checkouts) "
                 "and the core.hooksPath directory; the directories holding them cannot be "
                 "moved or deleted (\"Device or resource busy\"). There is ") +
             (options_.settings.network
                  ? "network access."
                  : "no network, but loopback works and is shared between commands (a server "
                    "one command starts in the background answers the next).") +
             " Processes outside the sandbox are invisible." + leave;
    case Confinement::kLandlock:
      return "Commands run confined by Landlock: only the working tree, the temp directories "
             "and a private cache directory are writable." +
             std::string(landlock_blocks_tcp(verdict().landlock_abi) && !options_.settings.network
                             ? " TCP connections are blocked, loopback included."
                             : "") +
             leave;
    case Confinement::kNone:
      break;
  }
  return "Commands cannot be confined on this system: " + verdict().line + "." + leave;
}

}  // namespace nib::sandbox
