#include "tools/path.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace nib::tools {
namespace {

std::filesystem::path absolute_cwd(const std::filesystem::path& cwd) {
  if (cwd.is_absolute()) return cwd.lexically_normal();
  std::error_code ignored;  // current_path() fails only when the process cwd is gone
  return (std::filesystem::current_path(ignored) / cwd).lexically_normal();
}

// "a/b/" normalises to "a/b/"; drop the empty last element so it compares equal to "a/b".
std::filesystem::path without_trailing_separator(std::filesystem::path path) {
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  return path;
}

}  // namespace

std::filesystem::path home_directory() {
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') return home;
  std::vector<char> buffer(16 * 1024);
  passwd entry{};
  passwd* result = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &result) == 0 &&
      result != nullptr && result->pw_dir != nullptr && result->pw_dir[0] == '/') {
    return result->pw_dir;
  }
  return {};
}

std::filesystem::path resolve_path(std::string_view requested, const std::filesystem::path& cwd,
                                   const std::filesystem::path& home) {
  const bool tilde = requested == "~" || requested.starts_with("~/");
  if (tilde && !home.empty()) {
    std::filesystem::path result = home;
    if (requested.size() > 2) result /= requested.substr(2);
    return absolute_cwd(result);
  }
  const std::filesystem::path path(requested);
  if (path.is_absolute()) return path.lexically_normal();
  return (absolute_cwd(cwd) / path).lexically_normal();
}

std::filesystem::path resolve_path(std::string_view requested, const std::filesystem::path& cwd) {
  return resolve_path(requested, cwd, home_directory());
}

std::string display_path(const std::filesystem::path& absolute, const std::filesystem::path& cwd) {
  const auto target = without_trailing_separator(absolute.lexically_normal());
  const auto base = without_trailing_separator(absolute_cwd(cwd));
  const auto relative = target.lexically_relative(base);
  if (relative.empty() || *relative.begin() == "..") return target.string();
  return relative.string();
}

std::string file_claim_key(const std::filesystem::path& absolute) {
  return "file:" + without_trailing_separator(absolute.lexically_normal()).string();
}

std::vector<core::ResourceClaim> claim_path_argument(const nlohmann::json& args,
                                                     const std::filesystem::path& cwd,
                                                     bool exclusive) {
  const auto path = args.find("path");
  if (path == args.end() || !path->is_string()) return {};
  return {{file_claim_key(resolve_path(path->get<std::string>(), cwd)), exclusive}};
}

std::string describe_path_call(const nlohmann::json& args) {
  const auto text = [&args](const char* key) {
    const auto it = args.find(key);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const std::string pattern = text("pattern");
  const std::string path = text("path");
  if (pattern.empty()) return path;
  return path.empty() ? pattern : pattern + " in " + path;
}

}  // namespace nib::tools
