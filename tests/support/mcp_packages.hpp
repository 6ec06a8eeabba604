#pragma once
// Where scripts/setup installed the npm packages the MCP tests run (the official reference
// servers and the TypeScript SDK): $NIB_MCP_TEST_DIR, else ~/.cache/nib/mcp-test-packages.
// A test that needs one and finds it missing skips, saying how to get it.

#include <cstdlib>
#include <filesystem>
#include <string>

namespace nib::testing {

inline std::filesystem::path mcp_packages_dir() {
  if (const char* dir = std::getenv("NIB_MCP_TEST_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::filesystem::path base = cache != nullptr && *cache != '\0'
                                         ? std::filesystem::path(cache)
                                         : std::filesystem::path(home ? home : "/") / ".cache";
  return base / "nib" / "mcp-test-packages";
}

// The file of package `name` at `relative`, or "" when it is not installed.
inline std::string mcp_package_file(const std::string& name, const std::string& relative) {
  const std::filesystem::path file = mcp_packages_dir() / "node_modules" / name / relative;
  return std::filesystem::exists(file) ? file.string() : std::string();
}

#define NIB_SKIP_WITHOUT(path)                                                                 \
  if ((path).empty())                                                                          \
  GTEST_SKIP() << "the MCP test packages are not installed in " << mcp_packages_dir().string() \
               << "; run scripts/setup (needs npm and the network)"

}  // namespace nib::testing
