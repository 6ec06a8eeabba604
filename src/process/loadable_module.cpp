#include "process/loadable_module.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace nib::process {
namespace {

namespace fs = std::filesystem;

// Where a module may be: only $<env_variable> when set (for packagers); otherwise beside the
// running binary (a build tree), in ../lib/nib from it (an installed nib), and in the build
// directory (test binaries live in a subdirectory).
std::vector<fs::path> module_candidates(const ModuleSpec& spec) {
  if (const char* chosen = std::getenv(spec.env_variable); chosen != nullptr && *chosen != 0) {
    return {fs::path(chosen)};
  }
  std::vector<fs::path> candidates;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back(self.parent_path() / spec.file);
    candidates.push_back(self.parent_path().parent_path() / "lib" / "nib" / spec.file);
  }
  candidates.push_back(fs::path(NIB_MODULE_DIR) / spec.file);
  return candidates;
}

}  // namespace

LoadedModule load_module(const ModuleSpec& spec) {
  LoadedModule loaded;
  std::string tried;
  for (const fs::path& candidate : module_candidates(spec)) {
    if (access(candidate.c_str(), R_OK) != 0) {
      tried += (tried.empty() ? "" : ", ") + candidate.string();
      continue;
    }
    void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      loaded.failure = dlerror();
      return loaded;
    }
    loaded.entry = dlsym(handle, spec.symbol);
    if (loaded.entry == nullptr) loaded.failure = dlerror();
    return loaded;
  }
  loaded.failure = std::string(spec.file) + " was not found (looked at " + tried + ")";
  return loaded;
}

}  // namespace nib::process
