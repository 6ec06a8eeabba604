#include "sandbox/command_sandbox.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "sandbox/bubblewrap_arguments.hpp"
#include "sandbox/landlock_rules.hpp"
#include "sandbox/sandbox_environment.hpp"
#include "util/path_within.hpp"

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
    : options_(std::move(options)),
      protected_paths_(options_.protected_tree
                           ? options_.protected_tree
                           : std::make_shared<const workspace::ProtectedTree>(options_.tree)) {}

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

fs::path CommandSandbox::home_inside(const std::vector<fs::path>& writable) const {
  if (options_.home.empty()) return {};
  const fs::path home = resolved(options_.home);
  const auto holds_home = [&](const fs::path& place) {
    return util::is_strictly_within(place, home);
  };
  if (home.empty() || std::find(writable.begin(), writable.end(), home) != writable.end()) {
    return {};
  }
  return std::any_of(writable.begin(), writable.end(), holds_home) ? home : fs::path();
}

const SharedNamespaces* CommandSandbox::shared_namespaces() const {
  std::lock_guard lock(network_mutex_);
  if (!network_tried_) {
    network_tried_ = true;
    // Root may create namespaces of the initial user namespace; anyone else needs user
    // namespaces of their own to own them.
    auto created = SharedNamespaces::create(/*with_user_namespaces=*/::geteuid() != 0);
    if (created.ok()) {
      namespaces_ = std::move(created.value());
    } else {
      network_problem_ = created.error();
    }
  }
  return namespaces_.get();
}

util::Result<const SocketFilter*> CommandSandbox::socket_filter() const {
  if (options_.settings.all_unix_sockets || !options_.settings.unix_sockets.empty()) {
    return static_cast<const SocketFilter*>(nullptr);
  }
  std::call_once(filter_built_, [this] { filter_ = SocketFilter::build(); });
  if (!filter_.ok()) return util::Result<const SocketFilter*>::failure(filter_.error());
  return &filter_.value();
}

std::vector<fs::path> CommandSandbox::socket_places() const {
  if (options_.settings.all_unix_sockets || options_.settings.unix_sockets.empty()) return {};
  std::vector<fs::path> places;
  for (const fs::path& place : socket_directories()) {
    // A named socket inside a hidden place would be hidden with it: such a place stays.
    const bool holds_named =
        std::any_of(options_.settings.unix_sockets.begin(), options_.settings.unix_sockets.end(),
                    [&](const fs::path& socket) { return util::is_within(place, socket); });
    if (!holds_named) add_once(places, resolved(place));
  }
  return places;
}

std::string CommandSandbox::network_problem() const {
  std::lock_guard lock(network_mutex_);
  return network_problem_;
}

util::Result<process::Launch> CommandSandbox::launch(process::SpawnRequest request,
                                                     process::LaunchMode mode) const {
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
  return util::Result<process::Launch>::failure(
      verdict().line +
      ". The command did not run; it can only run outside the sandbox, with "
      "approval (\"unsandboxed\": true with a \"justification\").");
}

util::Result<process::Launch> CommandSandbox::with_bubblewrap(process::SpawnRequest request,
                                                              bool network) const {
  auto filter = socket_filter();
  if (!filter.ok()) return util::Result<process::Launch>::failure(filter.error());
  ProtectedMounts protected_mounts = protected_paths_.prepare();
  std::vector<fs::path> writable = writable_paths();
  const fs::path home = home_inside(writable);
  BubblewrapPlan plan{.bubblewrap = verdict().bubblewrap,
                      .writable = std::move(writable),
                      .read_only_home = home,
                      .pinned = std::move(protected_mounts.pinned),
                      .read_only = std::move(protected_mounts.read_only),
                      .network = NetworkChoice::kHost};
  // Looked at for each command: a secret place made since the last is hidden too.
  for (const fs::path& place : options_.hidden) {
    std::error_code error;
    const fs::file_status status = fs::status(place, error);
    if (error || !fs::exists(status)) continue;
    const fs::path real = resolved(place);
    if (real.empty()) continue;
    (fs::is_directory(status) ? plan.hidden_directories : plan.hidden_files).push_back(real);
  }
  for (const fs::path& place : socket_places()) plan.hidden_directories.push_back(place);
  // The descriptors bubblewrap reads by number: 3, 4, ... in the order passed.
  const auto pass = [&request](int fd) {
    request.passed_fds.push_back(fd);
    return STDERR_FILENO + static_cast<int>(request.passed_fds.size());
  };
  if (const SharedNamespaces* shared = shared_namespaces()) {
    request.namespaces_to_enter = shared->to_enter(/*shared_network=*/!network);
    if (shared->setup_user_namespace() >= 0) {
      plan.user_namespace_fd = pass(shared->setup_user_namespace());
    }
    plan.pid_namespace_fd = pass(shared->pid_namespace());
    if (!network) plan.network = NetworkChoice::kJoined;
  } else if (!network) {
    plan.network = NetworkChoice::kPrivate;
  }
  // What must stay open until the command has started: the filter's program, the write end
  // of the helper's report.
  struct Held {
    process::UniqueFd program;
    process::UniqueFd report;
  };
  auto held = std::make_shared<Held>();
  if (filter.value() != nullptr) {
    auto descriptor = filter.value()->program_descriptor();
    if (!descriptor.ok()) return util::Result<process::Launch>::failure(descriptor.error());
    held->program = std::move(descriptor.value());
    plan.seccomp_fd = pass(held->program.get());
  }
  process::UniqueFd report;
  std::vector<std::string> command = request.argv;
  std::error_code missing;
  if (!options_.exec_helper.empty() && fs::exists(options_.exec_helper, missing)) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) == 0) {
      report.reset(ends[0]);
      held->report.reset(ends[1]);
      ::fcntl(report.get(), F_SETFL, O_NONBLOCK);
      command.insert(command.begin(),
                     {options_.exec_helper.string(), std::to_string(pass(held->report.get()))});
    }
  }
  request.argv = bubblewrap_argv(plan, command, request.cwd);
  return process::Launch{
      .request = std::move(request), .lease = std::move(held), .exit_report = std::move(report)};
}

util::Result<process::Launch> CommandSandbox::with_landlock(process::SpawnRequest request,
                                                            bool network) const {
  auto filter = socket_filter();
  if (!filter.ok()) return util::Result<process::Launch>::failure(filter.error());
  std::vector<fs::path> hidden;
  for (const fs::path& place : options_.hidden) add_once(hidden, resolved(place));
  for (const fs::path& place : socket_places()) add_once(hidden, place);
  const std::vector<fs::path> writable = writable_paths();
  auto ruleset = landlock_ruleset(verdict().landlock_abi,
                                  {.writable = writable, .kept_read_only = home_inside(writable)},
                                  network, hidden);
  if (!ruleset.ok()) return util::Result<process::Launch>::failure(ruleset.error());
  // What the child reads before execve: the ruleset's descriptor and the filter's program.
  struct Held {
    process::UniqueFd ruleset;
    sock_fprog program{};
  };
  auto held = std::make_shared<Held>(Held{std::move(ruleset.value())});
  request.landlock_ruleset = held->ruleset.get();
  if (filter.value() != nullptr) {
    held->program = filter.value()->program();
    request.seccomp_program = &held->program;
  }
  return process::Launch{.request = std::move(request), .lease = std::move(held)};
}

core::Confinement CommandSandbox::confinement(std::string_view command,
                                              process::LaunchMode mode) const {
  using core::Confinement;
  if (mode.unsandboxed) return Confinement::kUnconfinedAsked;
  if (is_excluded_command(command, options_.settings.excluded_commands)) {
    return Confinement::kUnconfinedExcluded;
  }
  if (!active()) return Confinement::kUnconfinedUnavailable;
  return mode.network ? Confinement::kSandboxedNetwork : Confinement::kSandboxed;
}

std::string CommandSandbox::unavailable() const {
  return active() ? "" : verdict().line;
}

std::string CommandSandbox::describe() const {
  const std::string leave =
      " Set \"network\": true to fetch or install, \"unsandboxed\": true to write elsewhere or "
      "if confinement breaks the command; either needs a \"justification\" (one sentence) and "
      "the user's approval.";
  switch (verdict().confinement) {
    case Confinement::kBubblewrap:
      return std::string(
                 "Commands run in a sandbox: only the working tree, the temp directories and a "
                 "private cache are writable; git hooks and config (.git/hooks, .git/config), "
                 ".nib/, .claude/ and .mcp.json are read-only. ") +
             (options_.settings.network
                  ? "There is network access."
                  : "No network, but loopback works and is shared between calls.") +
             " Processes outside the sandbox are invisible." + leave;
    case Confinement::kLandlock:
      return "Commands run confined by Landlock: only the working tree, the temp directories "
             "and a private cache are writable." +
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
