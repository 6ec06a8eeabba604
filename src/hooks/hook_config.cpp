#include "hooks/hook_config.hpp"

#include <array>
#include <cmath>

namespace nib::hooks {
namespace {

constexpr std::array<const char*, kHookEventCount> kEventNames = {
    "PreToolUse",   "PostToolUse",  "UserPromptSubmit", "Stop",
    "SubagentStop", "SessionStart", "SessionEnd",       "PreCompact",
};

using Json = nlohmann::json;

// Reads one source; `where` is the file's prefix for messages.
class SourceParser {
 public:
  SourceParser(const HookSource& source, HookConfig& config)
      : file_(source.file.string()),
        config_(config),
        hooks_(*source.hooks),
        environment_(source.environment) {}

  util::Status parse() {
    if (hooks_.is_null()) return util::Status::success();
    if (!hooks_.is_object()) return fail("hooks", "must be an object of events");
    for (const auto& [name, groups] : hooks_.items()) {
      const std::optional<HookEvent> event = parse_hook_event(name);
      const std::string path = "hooks." + name;
      if (!event) {
        config_.warnings.push_back(file_ + ": " + path +
                                   ": nib has no such hook event; these hooks never run");
        continue;
      }
      if (!groups.is_array()) return fail(path, "must be an array of {matcher, hooks}");
      for (std::size_t i = 0; i < groups.size(); ++i) {
        if (auto status = parse_group(*event, groups[i], path + "[" + std::to_string(i) + "]");
            !status.ok()) {
          return status;
        }
      }
    }
    return util::Status::success();
  }

 private:
  util::Status fail(const std::string& path, const std::string& problem) const {
    return util::Status::failure(file_ + ": " + path + ": " + problem);
  }

  util::Status parse_group(HookEvent event, const Json& group, const std::string& path) {
    if (!group.is_object()) return fail(path, "must be an object {matcher, hooks}");
    HookGroup parsed;
    if (const auto matcher = group.find("matcher"); matcher != group.end() && !matcher->is_null()) {
      if (!matcher->is_string()) return fail(path + ".matcher", "must be a string");
      auto compiled = HookMatcher::compile(matcher->get<std::string>());
      if (!compiled.ok()) return fail(path + ".matcher", compiled.error());
      parsed.matcher = std::move(compiled.value());
    }
    const auto hooks = group.find("hooks");
    if (hooks == group.end() || !hooks->is_array()) {
      return fail(path + ".hooks", "must be an array of {type, command}");
    }
    for (std::size_t i = 0; i < hooks->size(); ++i) {
      auto command = parse_command((*hooks)[i], path + ".hooks[" + std::to_string(i) + "]");
      if (!command.ok()) return util::Status::failure(command.error());
      parsed.hooks.push_back(std::move(command.value()));
    }
    config_.groups[static_cast<std::size_t>(event)].push_back(std::move(parsed));
    return util::Status::success();
  }

  util::Result<HookCommand> parse_command(const Json& hook, const std::string& path) const {
    using Result = util::Result<HookCommand>;
    const auto failure = [&](const std::string& field, const std::string& problem) {
      return Result::failure(file_ + ": " + path + field + ": " + problem);
    };
    if (!hook.is_object()) return failure("", "must be an object {type, command}");
    HookCommand command;
    command.origin = file_ + ": " + path;
    command.environment = environment_;
    const auto type = hook.find("type");
    if (type == hook.end() || !type->is_string()) {
      return failure(".type", "must be a string (\"command\")");
    }
    if (*type != "command") {
      command.unsupported =
          "it is a \"" + type->get<std::string>() + "\" hook, and nib runs only \"command\" hooks";
    }
    if (const auto text = hook.find("command"); text != hook.end()) {
      if (!text->is_string()) return failure(".command", "must be a string");
      command.command = text->get<std::string>();
    }
    if (command.unsupported.empty() &&
        command.command.find_first_not_of(" \t\r\n") == std::string::npos) {
      return failure(".command", "must be a command to run");
    }
    if (command.command.empty()) command.command = "(" + type->get<std::string>() + " hook)";
    if (const auto timeout = hook.find("timeout"); timeout != hook.end()) {
      if (!timeout->is_number() || !(timeout->get<double>() > 0) ||
          !std::isfinite(timeout->get<double>())) {
        return failure(".timeout", "must be a positive number of seconds");
      }
      const double seconds =
          std::min(timeout->get<double>(), static_cast<double>(kMaxHookTimeout.count()));
      command.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
      if (command.timeout.count() == 0) command.timeout = std::chrono::milliseconds(1);
    }
    if (const auto on_failure = hook.find("onFailure"); on_failure != hook.end()) {
      if (*on_failure == "allow") {
        command.allow_on_failure = true;
      } else if (*on_failure != "block") {
        return failure(".onFailure", "must be \"block\" (the default) or \"allow\"");
      }
    }
    return command;
  }

  std::string file_;
  HookConfig& config_;
  const Json& hooks_;
  const std::vector<std::pair<std::string, std::string>>& environment_;
};

}  // namespace

const char* hook_event_name(HookEvent event) {
  return kEventNames[static_cast<std::size_t>(event)];
}

std::optional<HookEvent> parse_hook_event(std::string_view name) {
  for (std::size_t i = 0; i < kEventNames.size(); ++i) {
    if (name == kEventNames[i]) return static_cast<HookEvent>(i);
  }
  return std::nullopt;
}

bool can_block(HookEvent event) {
  switch (event) {
    case HookEvent::kPreToolUse:
    case HookEvent::kPostToolUse:
    case HookEvent::kUserPromptSubmit:
    case HookEvent::kStop:
    case HookEvent::kSubagentStop:
      return true;
    case HookEvent::kSessionStart:
    case HookEvent::kSessionEnd:
    case HookEvent::kPreCompact:
      break;
  }
  return false;
}

bool HookConfig::empty() const {
  for (const auto& event_groups : groups) {
    if (!event_groups.empty()) return false;
  }
  return true;
}

util::Result<HookConfig> parse_hook_config(const std::vector<HookSource>& sources) {
  HookConfig config;
  for (const HookSource& source : sources) {
    if (source.hooks == nullptr) continue;
    if (auto status = SourceParser(source, config).parse(); !status.ok()) {
      return util::Result<HookConfig>::failure(status.error());
    }
  }
  return config;
}

}  // namespace nib::hooks
