#include "permissions/permission_policy.hpp"

#include <algorithm>
#include <cctype>

#include "permissions/read_only.hpp"
#include "permissions/rule_suggestion.hpp"
#include "permissions/working_tree.hpp"

namespace nib::permissions {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const json& arguments(const core::GateRequest& request) {
  static const json kNone = json::object();
  return request.args != nullptr && request.args->is_object() ? *request.args : kNone;
}

std::string string_argument(const core::GateRequest& request, const char* name) {
  const json& args = arguments(request);
  const auto found = args.find(name);
  return found != args.end() && found->is_string() ? found->get<std::string>() : "";
}

bool flag_argument(const core::GateRequest& request, const char* name) {
  const json& args = arguments(request);
  const auto found = args.find(name);
  return found != args.end() && found->is_boolean() && found->get<bool>();
}

bool changes_files(const std::string& tool) {
  return tool == "edit" || tool == "write";
}

// The host of an http(s) URL, lower-cased; "" when there is none.
std::string host_of(const std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return "";
  std::string rest = url.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') {
    rest = rest.substr(0, rest.find(']') + 1);
  } else {
    rest = rest.substr(0, rest.find(':'));
  }
  std::transform(rest.begin(), rest.end(), rest.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return rest;
}

// The rules "always" saves: the closest thing to the call that still covers its repetitions;
// for bash one per simple command (none when one of them cannot be generalised: the user
// answers for this call only).
std::vector<std::string> rules_for(const core::GateRequest& request, const CallDecision& ruled,
                                   const fs::path& working_tree) {
  if (request.name == "bash") {
    std::vector<std::string> rules;
    if (!ruled.split.understood) return rules;
    for (const SimpleCommand& command : ruled.split.commands) {
      if (command.runs_nothing()) continue;
      const auto rule = generalise(command);
      if (!rule) return {};
      if (std::find(rules.begin(), rules.end(), *rule) == rules.end()) rules.push_back(*rule);
    }
    return rules;
  }
  if (request.name == "web_fetch") {
    return {"WebFetch(domain:" + host_of(string_argument(request, "url")) + ")"};
  }
  if (changes_files(request.name)) {
    const fs::path path = string_argument(request, "path");
    const fs::path absolute = (path.is_absolute() ? path : working_tree / path).lexically_normal();
    const fs::path relative = absolute.parent_path().lexically_relative(working_tree);
    const std::string tool = request.name == "edit" ? "Edit" : "Write";
    if (!relative.empty() && *relative.begin() != "..") {
      return {tool + "(./" + (relative == "." ? "" : relative.string() + "/") + "**)"};
    }
    return {tool + "(/" + absolute.parent_path().string() + "/**)"};
  }
  return {request.name};
}

bool listed(const std::vector<std::string>& tools, const std::string& name) {
  return std::any_of(tools.begin(), tools.end(),
                     [&](const std::string& tool) { return tool == name || tool == "all"; });
}

const RuleSet& built_in_rules() {
  static const RuleSet rules;
  return rules;
}

// A bash command whose every part changes nothing (read-only mode runs only those).
bool read_only_command(const CallDecision& ruled) {
  if (!ruled.split.understood || ruled.split.commands.empty()) return false;
  return std::all_of(ruled.split.commands.begin(), ruled.split.commands.end(),
                     [](const SimpleCommand& command) { return is_read_only(command); });
}

}  // namespace

PermissionPolicy::PermissionPolicy(PolicyOptions options)
    : options_(std::move(options)), mode_(options_.mode) {}

Assessment PermissionPolicy::assess(const core::GateRequest& request) const {
  const RuleSet& rules = options_.rules ? *options_.rules : built_in_rules();
  const CallDecision ruled =
      rules.decide({request.name, arguments(request), options_.working_tree, options_.home});
  const Verdict rule = ruled.decision.verdict;
  if (rule == Verdict::kDeny) {
    return {CallVerdict::kDeny, ruled.decision.reason, "permission rule", {}, {}};
  }
  // A hook's allow spares every question; deny rules still hold.
  if (request.hook_allows) return {};
  if (!request.hook_asks.empty()) {
    return asks(request, ruled,
                "a hook asks for the user's approval of this call (" + request.hook_asks + ")",
                "hook");
  }
  if (listed(options_.ask_tools, request.name)) {
    return asks(request, ruled, "--ask names " + request.name, "--ask");
  }
  if (mode() == PermissionMode::kYolo) return {};
  if (rule == Verdict::kAsk) return asks(request, ruled, ruled.decision.reason, "permission rule");
  Assessment decided = by_mode(request, ruled);
  if (decided.verdict == CallVerdict::kAsk && rule == Verdict::kAllow) return {};
  return decided;
}

Assessment PermissionPolicy::by_mode(const core::GateRequest& request,
                                     const CallDecision& ruled) const {
  const PermissionMode mode = this->mode();
  if (request.name == "bash") return bash_by_mode(request, ruled);
  if (changes_files(request.name)) return change_by_mode(request);
  // A server's tool acts outside the sandbox with the server's rights, and its readOnlyHint is
  // the server's word, not nib's: only ask mode's question or a rule lets it run.
  if (is_mcp_name(request.name) && mode == PermissionMode::kAuto) {
    return asks(request, ruled,
                "MCP tools act outside the sandbox, with their server's rights, and auto mode "
                "asks before each",
                "auto mode");
  }
  if (request.read_only || request.delegates) {
    // A subagent's own calls pass this policy one by one, so handing work over needs none.
    if (mode == PermissionMode::kAsk && request.name == "web_fetch") {
      return asks(request, ruled, "web_fetch asks before each new domain in ask mode", "ask mode");
    }
    return {};
  }
  switch (mode) {
    case PermissionMode::kReadOnly:
      return {CallVerdict::kDeny,
              request.name +
                  " may change something, and read-only mode runs only calls that "
                  "change nothing",
              "read-only mode",
              {}};
    case PermissionMode::kAsk:
      return asks(request, ruled, request.name + " calls ask in ask mode", "ask mode");
    default:
      return {};
  }
}

Assessment PermissionPolicy::bash_by_mode(const core::GateRequest& request,
                                          const CallDecision& ruled) const {
  const std::string command = string_argument(request, "command");
  const bool network = flag_argument(request, "network");
  const bool unsandboxed = flag_argument(request, "unsandboxed");
  const std::string justification = string_argument(request, "justification");
  const std::string because = justification.empty() ? "" : " (\"" + justification + "\")";
  switch (mode()) {
    case PermissionMode::kReadOnly:
      if (!network && !unsandboxed && read_only_command(ruled)) return {};
      return {CallVerdict::kDeny,
              "read-only mode runs only commands that change nothing (ls, cat, grep, git log, "
              "git status, ...), and this one may change something",
              "read-only mode",
              {}};
    case PermissionMode::kAsk:
      return asks(request, ruled, "bash calls ask in ask mode", "ask mode");
    default:
      break;
  }
  if (unsandboxed) {
    return asks(request, ruled, "the command asks to run outside the sandbox" + because,
                "auto mode");
  }
  if (options_.sandbox.runs_outside && options_.sandbox.runs_outside(command)) {
    return asks(request, ruled,
                "settings run this command outside the sandbox (sandbox.excludedCommands)",
                "auto mode");
  }
  if (!options_.sandbox.confining) {
    return asks(request, ruled,
                options_.sandbox.unavailable.empty() ? "commands cannot run in the sandbox"
                                                     : options_.sandbox.unavailable,
                "auto mode");
  }
  if (network)
    return asks(request, ruled, "the command asks for the network" + because, "auto mode");
  return {};
}

Assessment PermissionPolicy::change_by_mode(const core::GateRequest& request) const {
  const CallDecision ruled;  // rules about paths were applied before the mode
  const std::string path = string_argument(request, "path");
  switch (mode()) {
    case PermissionMode::kReadOnly:
      return {CallVerdict::kDeny, "read-only mode changes no files", "read-only mode", {}, {}};
    case PermissionMode::kAsk:
      return asks(request, ruled, request.name + " calls ask in ask mode", "ask mode");
    default:
      break;
  }
  switch (place_of(options_.working_tree, path)) {
    case PathPlace::kInside:
      return {};
    case PathPlace::kProtected:
      return asks(request, ruled,
                  path +
                      " is a protected file (git hooks and configuration, nib's and Claude "
                      "Code's settings, .mcp.json)",
                  "auto mode");
    case PathPlace::kOutside:
      break;
  }
  return asks(request, ruled,
              path + " is outside the working tree " + options_.working_tree.string(), "auto mode");
}

Assessment PermissionPolicy::asks(const core::GateRequest& request, const CallDecision& ruled,
                                  std::string reason, std::string source) const {
  std::vector<std::string> parts;
  for (const SimpleCommand& command : ruled.split.commands) parts.push_back(command.text());
  return {CallVerdict::kAsk, std::move(reason), std::move(source),
          rules_for(request, ruled, options_.working_tree), std::move(parts)};
}

}  // namespace nib::permissions
