#pragma once
// Calls as their tools would report them (core::CallAccess), for the permission tests: the
// policy reads nothing else. What the real tools report is tested with the tools
// (tests/tools/tool_paths_test.cpp) and end to end through the whole pipeline (tests/app).

#include <filesystem>
#include <string>
#include <system_error>

#include "core/call_access.hpp"

namespace nib::testing {

// A file tool's call of `kind` on `written`, resolved from `cwd` as a tool would (lexically,
// then its target with the links in its existing part resolved).
inline core::CallAccess path_call(core::AccessKind kind, const std::filesystem::path& cwd,
                                  const std::string& written) {
  const std::filesystem::path path =
      (std::filesystem::path(written).is_absolute() ? std::filesystem::path(written)
                                                    : cwd / written)
          .lexically_normal();
  std::error_code error;
  std::filesystem::path target = path;
  // A link, dangling or not, leads where it points (as the tools' resolve_file follows it).
  for (int hop = 0; hop < 8 && std::filesystem::is_symlink(target, error); ++hop) {
    const std::filesystem::path next = std::filesystem::read_symlink(target, error);
    target = (next.is_absolute() ? next : target.parent_path() / next).lexically_normal();
  }
  target = std::filesystem::weakly_canonical(target, error);
  if (error) target = path;
  core::CallAccess access;
  access.kind = kind;
  access.paths.push_back({written, path, target.lexically_normal()});
  return access;
}

// A command, confined as `confinement` says.
inline core::CallAccess command_call(const std::string& command,
                                     core::Confinement confinement = core::Confinement::kSandboxed,
                                     const std::string& justification = "") {
  core::CallAccess access;
  access.kind = core::AccessKind::kExecute;
  access.command = core::CommandAccess{command, confinement == core::Confinement::kSandboxedNetwork,
                                       justification, confinement, ""};
  return access;
}

// A fetch of `url` from `host`.
inline core::CallAccess fetch_call(const std::string& url, const std::string& host) {
  core::CallAccess access;
  access.kind = core::AccessKind::kNetwork;
  access.url = url;
  access.host = host;
  return access;
}

// A call that touches nothing the kinds above name.
inline core::CallAccess kind_call(core::AccessKind kind) {
  core::CallAccess access;
  access.kind = kind;
  return access;
}

}  // namespace nib::testing
