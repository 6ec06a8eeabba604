#include "sandbox/sandbox_environment.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "util/user_places.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

// Each cache variable and its directory under the root. GOPATH holds the module cache
// (GOMODCACHE defaults to $GOPATH/pkg/mod) and `go install`'s binaries.
constexpr std::pair<const char*, const char*> kCaches[] = {
    {"XDG_CACHE_HOME", "xdg"},
    {"npm_config_cache", "npm"},
    {"YARN_CACHE_FOLDER", "yarn"},
    {"GOCACHE", "go-build"},
    {"GOPATH", "go"},
    {"CARGO_HOME", "cargo"},
    {"PIP_CACHE_DIR", "pip"},
    {"CCACHE_DIR", "ccache"},
};

}  // namespace

fs::path default_cache_root(const fs::path& cache_home) {
  return cache_home / "nib" / "sandbox";
}

process::EnvironmentOverrides cache_environment(const fs::path& root) {
  process::EnvironmentOverrides overrides;
  for (const auto& [name, directory] : kCaches) {
    overrides.emplace_back(name, (root / directory).string());
  }
  return overrides;
}

bool make_cache_directories(const fs::path& root) {
  std::error_code error;
  for (const auto& [name, directory] : kCaches) {
    fs::create_directories(root / directory, error);
    if (error) return false;
  }
  return true;
}

std::vector<fs::path> temp_directories() {
  const std::vector<fs::path> candidates = {"/tmp", "/var/tmp", util::process_places().temp_dir};
  std::vector<fs::path> found;
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    const fs::path resolved = fs::canonical(candidate, error);
    if (error || !fs::is_directory(resolved, error)) continue;
    if (std::find(found.begin(), found.end(), resolved) == found.end()) found.push_back(resolved);
  }
  return found;
}

std::vector<fs::path> socket_directories() {
  std::vector<fs::path> candidates = {"/tmp/tmux-" + std::to_string(::getuid()), "/tmp/.X11-unix"};
  if (const fs::path runtime = util::process_places().runtime_dir; !runtime.empty()) {
    candidates.push_back(runtime);
  }
  if (const char* agent = std::getenv("SSH_AUTH_SOCK"); agent != nullptr && *agent == '/') {
    candidates.push_back(fs::path(agent).parent_path());
  }
  std::vector<fs::path> found;
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    // /tmp itself (an agent socket directly in it) is not a place to hide.
    if (!fs::is_directory(candidate, error) || candidate == "/tmp" || candidate == "/") continue;
    if (std::find(found.begin(), found.end(), candidate) == found.end()) found.push_back(candidate);
  }
  return found;
}

std::vector<std::string> with_variables(const std::vector<std::string>& environment,
                                        const process::EnvironmentOverrides& overrides) {
  std::vector<const char*> base;
  base.reserve(environment.size() + 1);
  for (const std::string& entry : environment) base.push_back(entry.c_str());
  base.push_back(nullptr);
  return process::merge_environment(base.data(), overrides);
}

}  // namespace nib::sandbox
