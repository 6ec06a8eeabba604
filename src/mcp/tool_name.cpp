#include "mcp/tool_name.hpp"

#include <xxhash.h>

#include <cstdio>

#include "mcp/limits.hpp"

namespace nib::mcp {
namespace {

// The hash that ends a shortened name: 8 hex digits (32 bits) make a collision between two
// tools of one session practically impossible.
constexpr std::size_t kHashChars = 8;

std::string sanitized(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!allowed) c = '_';
  }
  return out;
}

}  // namespace

std::string tool_prefix(const std::string& server) {
  return "mcp__" + sanitized(server) + "__";
}

std::string tool_name(const std::string& server, const std::string& tool) {
  const std::string full = tool_prefix(server) + sanitized(tool);
  if (full.size() <= kMaxToolNameChars) return full;
  const std::string original = server + "\n" + tool;  // the hash tells apart what "_" merged
  char hash[kHashChars + 1];
  std::snprintf(hash, sizeof hash, "%08x",
                static_cast<unsigned>(XXH3_64bits(original.data(), original.size()) & 0xffffffffu));
  return full.substr(0, kMaxToolNameChars - kHashChars - 1) + "_" + hash;
}

}  // namespace nib::mcp
