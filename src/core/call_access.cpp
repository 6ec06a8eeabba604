#include "core/call_access.hpp"

#include <algorithm>

namespace nib::core {

std::string_view access_kind_name(AccessKind kind) {
  switch (kind) {
    case AccessKind::kNone:
      return "none";
    case AccessKind::kRead:
      return "read";
    case AccessKind::kWrite:
      return "write";
    case AccessKind::kExecute:
      return "execute";
    case AccessKind::kNetwork:
      return "network";
    case AccessKind::kDelegate:
      return "delegate";
    case AccessKind::kExternal:
      return "external";
    case AccessKind::kChange:
      break;
  }
  return "change";
}

bool leaves_sandbox(Confinement confinement) {
  return confinement == Confinement::kUnconfinedAsked ||
         confinement == Confinement::kUnconfinedExcluded ||
         confinement == Confinement::kUnconfinedUnavailable;
}

bool is_confined(Confinement confinement) {
  return confinement == Confinement::kSandboxed || confinement == Confinement::kSandboxedNetwork;
}

std::string file_claim_key(const std::filesystem::path& absolute) {
  std::filesystem::path path = absolute.lexically_normal();
  // "a/b/" normalises to "a/b/"; without the empty last element it compares equal to "a/b".
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  return "file:" + path.string();
}

std::vector<ResourceClaim> claims_of(const CallAccess& access) {
  std::vector<ResourceClaim> claims;
  const bool exclusive = access.kind == AccessKind::kWrite;
  for (const PathAccess& touched : access.paths) {
    for (const auto* path : {&touched.path, &touched.target}) {
      if (path->empty()) continue;
      ResourceClaim claim{file_claim_key(*path), exclusive};
      if (std::find(claims.begin(), claims.end(), claim) == claims.end()) {
        claims.push_back(std::move(claim));
      }
    }
  }
  return claims;
}

}  // namespace nib::core
