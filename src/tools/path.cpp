#include "tools/path.hpp"

#include <vector>

#include "util/user_places.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

std::filesystem::path absolute_cwd(const std::filesystem::path& cwd) {
  if (cwd.is_absolute()) return cwd.lexically_normal();
  std::error_code ignored;  // current_path() fails only when the process cwd is gone
  return (std::filesystem::current_path(ignored) / cwd).lexically_normal();
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// "a/b/" normalises to "a/b/"; drop the empty last element so it compares equal to "a/b".
std::filesystem::path without_trailing_separator(std::filesystem::path path) {
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  return path;
}

}  // namespace

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
  return resolve_path(requested, cwd, util::process_places().home);
}

std::string display_path(const std::filesystem::path& absolute, const std::filesystem::path& cwd) {
  const auto target = without_trailing_separator(absolute.lexically_normal());
  const auto base = without_trailing_separator(absolute_cwd(cwd));
  const auto relative = target.lexically_relative(base);
  if (relative.empty() || *relative.begin() == "..") return escape_name(target.native());
  return escape_name(relative.native());
}

std::string escape_name(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string shown;
  shown.reserve(raw.size());
  for (std::size_t pos = 0; pos < raw.size();) {
    const std::size_t length = util::utf8_sequence_length(raw, pos);
    if (length > 0) {
      shown.append(raw.substr(pos, length));
      pos += length;
      continue;
    }
    const auto byte = static_cast<unsigned char>(raw[pos++]);
    shown += "\\x";
    shown += kHex[byte >> 4];
    shown += kHex[byte & 0xF];
  }
  return shown;
}

std::optional<std::string> unescape_name(std::string_view shown) {
  std::string raw;
  bool escaped = false;
  for (std::size_t pos = 0; pos < shown.size(); ++pos) {
    if (shown[pos] == '\\' && pos + 3 < shown.size() && shown[pos + 1] == 'x') {
      const int high = hex_digit(shown[pos + 2]);
      const int low = hex_digit(shown[pos + 3]);
      if (high >= 8 && low >= 0) {
        raw += static_cast<char>(high * 16 + low);
        pos += 3;
        escaped = true;
        continue;
      }
    }
    raw += shown[pos];
  }
  if (!escaped) return std::nullopt;
  return raw;
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
