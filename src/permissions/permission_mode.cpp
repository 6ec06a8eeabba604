#include "permissions/permission_mode.hpp"

#include <array>
#include <utility>

namespace nib::permissions {
namespace {

constexpr std::array<std::pair<std::string_view, PermissionMode>, 8> kNames{{
    {"auto", PermissionMode::kAuto},
    {"ask", PermissionMode::kAsk},
    {"read-only", PermissionMode::kReadOnly},
    {"yolo", PermissionMode::kYolo},
    // Claude Code's defaultMode values, so its settings files carry over.
    {"acceptEdits", PermissionMode::kAuto},
    {"default", PermissionMode::kAsk},
    {"plan", PermissionMode::kReadOnly},
    {"bypassPermissions", PermissionMode::kYolo},
}};

}  // namespace

std::string_view mode_name(PermissionMode mode) {
  for (const auto& [name, value] : kNames) {
    if (value == mode) return name;
  }
  return "auto";
}

std::string_view mode_description(PermissionMode mode) {
  switch (mode) {
    case PermissionMode::kAsk:
      return "Every command, edit and write asks first, unless a rule allows it.";
    case PermissionMode::kReadOnly:
      return "Only what changes nothing runs; commands only when they read.";
    case PermissionMode::kYolo:
      return "No sandbox and no questions; deny rules still hold.";
    case PermissionMode::kAuto:
      break;
  }
  return "Commands run in the sandbox and edits inside the working tree run without asking; "
         "anything beyond asks.";
}

std::string_view claude_mode_name(PermissionMode mode) {
  // The second half of the table holds Claude Code's names.
  for (std::size_t i = kNames.size() / 2; i < kNames.size(); ++i) {
    if (kNames[i].second == mode) return kNames[i].first;
  }
  return "default";
}

util::Result<PermissionMode> parse_mode(std::string_view name) {
  for (const auto& [known, value] : kNames) {
    if (known == name) return value;
  }
  return util::Result<PermissionMode>::failure(
      "unknown permission mode \"" + std::string(name) +
      "\": use auto, ask, read-only or yolo (or Claude Code's default, acceptEdits, plan, "
      "bypassPermissions)");
}

}  // namespace nib::permissions
