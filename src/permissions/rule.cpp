#include "permissions/rule.hpp"

#include <algorithm>
#include <array>

#include "core/claude_tool_names.hpp"
#include "permissions/pattern_match.hpp"

namespace nib::permissions {
namespace {

// nib's name for `name`, folded so Claude Code's capitalised names meet nib's snake_case ones
// (WebFetch and web_fetch, TodoWrite and todo_write, LS and ls) and its aliases (Glob → find).
std::string folded_tool_name(std::string_view name) {
  std::string folded;
  for (char c : core::nib_tool_name(name)) {
    if (c == '_') continue;
    folded += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return folded;
}

Rule::Family family_of(std::string_view folded) {
  if (folded == "bash") return Rule::Family::kCommands;
  if (folded == "read") return Rule::Family::kReads;
  if (folded == "edit" || folded == "write" || folded == "applypatch") return Rule::Family::kEdits;
  if (folded == "webfetch") return Rule::Family::kFetches;
  return Rule::Family::kNamed;
}

bool valid_tool_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '*';
  });
}

util::Result<Rule> command_rule(Rule rule) {
  std::string spec = *rule.specifier;
  for (Reach reach : {Reach::kNetwork, Reach::kOutside}) {
    if (spec.starts_with(reach_prefix(reach))) {
      rule.reach = reach;
      spec.erase(0, reach_prefix(reach).size());
      if (spec.empty()) {
        return util::Result<Rule>::failure("nothing after \"" + std::string(reach_prefix(reach)) +
                                           "\": write \"Bash(" + std::string(reach_prefix(reach)) +
                                           "npm install:*)\"");
      }
    }
  }
  if (spec == "*") {
    rule.form = Rule::Form::kAnyUse;
    return rule;
  }
  if (spec.ends_with(":*")) {
    rule.pattern = spec.substr(0, spec.size() - 2);
    if (rule.pattern.find(":*") != std::string::npos || rule.pattern.empty()) {
      return util::Result<Rule>::failure("\":*\" may only end the command prefix, once");
    }
    rule.form = Rule::Form::kCommandPrefix;
    return rule;
  }
  if (spec.find(":*") != std::string::npos) {
    return util::Result<Rule>::failure(
        "\":*\" may only end the command (\"Bash(npm test:*)\"); use \"*\" for a wildcard "
        "elsewhere (\"Bash(git * main)\")");
  }
  rule.pattern = spec;
  rule.form =
      spec.find('*') != std::string::npos ? Rule::Form::kCommandGlob : Rule::Form::kCommandExact;
  return rule;
}

util::Result<Rule> path_rule(Rule rule, const std::filesystem::path& project) {
  std::string spec = *rule.specifier;
  if (spec == "*" || spec == "**") {
    rule.form = Rule::Form::kAnyUse;
    return rule;
  }
  rule.form = Rule::Form::kPath;
  while (spec.size() > 1 && spec.back() == '/') spec.pop_back();  // a directory: the same
  if (spec.starts_with("//")) {
    rule.anchor = Rule::Anchor::kRoot;
    rule.pattern = spec.substr(1);
  } else if (spec == "~" || spec.starts_with("~/")) {
    rule.anchor = Rule::Anchor::kHome;
    rule.pattern = spec.substr(1);
  } else if (spec.starts_with("/")) {
    rule.anchor = Rule::Anchor::kProject;
    rule.project = project;
    rule.pattern = spec;
  } else if (spec.starts_with("./")) {
    rule.anchor = Rule::Anchor::kWorkingDirectory;
    rule.pattern = spec.substr(1);
  } else if (spec.find('/') != std::string::npos) {
    rule.anchor = Rule::Anchor::kWorkingDirectory;
    rule.pattern = "/" + spec;
  } else {
    rule.anchor = Rule::Anchor::kAnyDepth;
    rule.pattern = "/**/" + spec;
  }
  if (spec.starts_with("~") && !spec.starts_with("~/") && spec != "~") {
    return util::Result<Rule>::failure(
        "\"~user\" paths are not supported; write \"~/...\" or "
        "\"//home/user/...\"");
  }
  return rule;
}

util::Result<Rule> domain_rule(Rule rule) {
  const std::string& spec = *rule.specifier;
  if (spec == "*") {
    rule.form = Rule::Form::kAnyUse;
    return rule;
  }
  if (!spec.starts_with("domain:") || spec.size() == 7) {
    return util::Result<Rule>::failure("web fetch rules are written \"WebFetch(domain:docs.rs)\"");
  }
  rule.form = Rule::Form::kDomain;
  for (char c : spec.substr(7)) {
    rule.pattern += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return rule;
}

bool host_matches(std::string_view pattern, std::string_view host) {
  if (pattern.starts_with("*.")) {
    const std::string_view parent = pattern.substr(1);  // ".docs.rs"
    return host.size() > parent.size() && host.ends_with(parent);
  }
  return host == pattern;
}

}  // namespace

Reach reach_of(const core::CommandAccess& command) {
  if (core::leaves_sandbox(command.confinement)) return Reach::kOutside;
  if (command.confinement == core::Confinement::kSandboxedNetwork) return Reach::kNetwork;
  return Reach::kSandbox;
}

std::string_view reach_prefix(Reach reach) {
  switch (reach) {
    case Reach::kNetwork:
      return "network:";
    case Reach::kOutside:
      return "unsandboxed:";
    case Reach::kSandbox:
      break;
  }
  return "";
}

core::AccessKind family_kind(Rule::Family family) {
  switch (family) {
    case Rule::Family::kCommands:
      return core::AccessKind::kExecute;
    case Rule::Family::kReads:
      return core::AccessKind::kRead;
    case Rule::Family::kEdits:
      return core::AccessKind::kWrite;
    case Rule::Family::kFetches:
      return core::AccessKind::kNetwork;
    case Rule::Family::kNamed:
      break;
  }
  return core::AccessKind::kChange;
}

bool is_mcp_name(std::string_view name) {
  return name.starts_with("mcp__");
}

std::string_view rule_list_name(RuleList list) {
  switch (list) {
    case RuleList::kAllow:
      return "allow";
    case RuleList::kAsk:
      return "ask";
    case RuleList::kDeny:
      return "deny";
  }
  return "allow";
}

std::string RuleOrigin::describe() const {
  if (file.empty()) return "built-in default";
  return file.string() + (line > 0 ? ":" + std::to_string(line) : "") + " permissions." +
         std::string(rule_list_name(list)) + "[" + std::to_string(index) + "]";
}

util::Result<Rule> parse_rule(std::string_view text, RuleOrigin origin,
                              const std::filesystem::path& project) {
  Rule rule;
  rule.text = std::string(text);
  rule.origin = std::move(origin);
  const std::size_t open = text.find('(');
  rule.tool = std::string(text.substr(0, open));
  if (open != std::string_view::npos) {
    if (text.back() != ')') {
      return util::Result<Rule>::failure(text.find(')', open) == std::string_view::npos
                                             ? "the \"(\" is not closed"
                                             : "text after the closing \")\"");
    }
    rule.specifier = std::string(text.substr(open + 1, text.size() - open - 2));
    if (rule.specifier->empty()) {
      return util::Result<Rule>::failure("empty \"()\": write \"" + rule.tool +
                                         "\" alone to match every use of the tool");
    }
  }
  if (rule.tool.empty()) return util::Result<Rule>::failure("the tool name is missing");
  if (!valid_tool_name(rule.tool)) {
    return util::Result<Rule>::failure("\"" + rule.tool + "\" is not a tool name");
  }
  if (is_mcp_name(rule.tool)) {
    if (rule.specifier) {
      return util::Result<Rule>::failure("MCP rules take no \"(...)\": write mcp__server__tool");
    }
    const std::string_view rest = std::string_view(rule.tool).substr(5);
    const std::size_t separator = rest.find("__");
    if (separator == std::string_view::npos || rest.substr(separator + 2) == "*") {
      rule.form = Rule::Form::kMcpServer;
      rule.pattern = "mcp__" + std::string(rest.substr(0, separator)) + "__";
    }
    return rule;
  }
  if (rule.tool.find('*') != std::string::npos) {
    return util::Result<Rule>::failure(
        "\"*\" in a tool name only works for MCP servers "
        "(mcp__server__*)");
  }
  rule.family = family_of(folded_tool_name(rule.tool));
  if (!rule.specifier) return rule;
  switch (rule.family) {
    case Rule::Family::kCommands:
      return command_rule(std::move(rule));
    case Rule::Family::kReads:
    case Rule::Family::kEdits:
      return path_rule(std::move(rule), project);
    case Rule::Family::kFetches:
      return domain_rule(std::move(rule));
    case Rule::Family::kNamed:
      break;
  }
  rule.form = Rule::Form::kUnmatchable;
  return rule;
}

bool is_bash_rule(const Rule& rule) {
  return rule.family == Rule::Family::kCommands;
}

bool rule_names_call(const Rule& rule, std::string_view tool, core::AccessKind kind) {
  if (rule.family != Rule::Family::kNamed) return family_kind(rule.family) == kind;
  if (rule.form == Rule::Form::kMcpServer) return tool.starts_with(rule.pattern);
  if (is_mcp_name(rule.tool) || is_mcp_name(tool)) return rule.tool == tool;
  return folded_tool_name(rule.tool) == folded_tool_name(tool);
}

namespace {

std::string anchor_base(const Rule& rule, const std::filesystem::path& cwd,
                        const std::filesystem::path& home) {
  switch (rule.anchor) {
    case Rule::Anchor::kRoot:
      return "";
    case Rule::Anchor::kHome:
      return home.string();
    case Rule::Anchor::kProject:
      return rule.project.string();
    case Rule::Anchor::kWorkingDirectory:
    case Rule::Anchor::kAnyDepth:
      break;
  }
  return cwd.string();
}

}  // namespace

bool rule_matches_path(const Rule& rule, const std::filesystem::path& path,
                       const std::filesystem::path& cwd, const std::filesystem::path& home) {
  std::string base = anchor_base(rule, cwd, home);
  if (base.empty() && rule.anchor != Rule::Anchor::kRoot) return false;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  if (base == "/") base.clear();
  // The path and each directory above it: a pattern naming a directory covers its contents.
  std::string candidate = path.string();
  for (;;) {
    if (path_pattern_matches(base, rule.pattern, candidate)) return true;
    const std::size_t slash = candidate.rfind('/');
    if (slash == std::string::npos || slash == 0) return false;
    candidate.resize(slash);
  }
}

std::optional<std::filesystem::path> rule_root(const Rule& rule, const std::filesystem::path& cwd,
                                               const std::filesystem::path& home) {
  if (rule.form != Rule::Form::kPath || rule.anchor == Rule::Anchor::kAnyDepth) return {};
  std::string pattern = rule.pattern;
  if (pattern.ends_with("/**")) pattern.resize(pattern.size() - 3);
  if (pattern.find_first_of("*?[") != std::string::npos) return {};
  const std::string base = anchor_base(rule, cwd, home);
  if (base.empty() && rule.anchor != Rule::Anchor::kRoot) return {};
  std::string root = (std::filesystem::path(base.empty() ? "/" : base) / pattern.substr(1))
                         .lexically_normal()
                         .string();
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

std::optional<std::string> rule_sample_name(const Rule& rule) {
  if (rule.form != Rule::Form::kPath) return {};
  std::string name = rule.pattern.substr(rule.pattern.rfind('/') + 1);
  if (name.find_first_of("[]\\") != std::string::npos) return {};
  std::erase_if(name, [](char c) { return c == '*' || c == '?'; });
  if (name.empty()) return {};
  return name;
}

bool rule_matches_subject(const Rule& rule, const CallSubject& subject, bool all_paths) {
  if (!rule_names_call(rule, subject.tool, subject.kind)) return false;
  switch (rule.form) {
    case Rule::Form::kAnyUse:
    case Rule::Form::kMcpServer:
      return true;
    case Rule::Form::kPath: {
      if (subject.paths.empty()) return false;
      const auto matches = [&](const std::filesystem::path& path) {
        return rule_matches_path(rule, path, subject.cwd, subject.home);
      };
      return all_paths ? std::all_of(subject.paths.begin(), subject.paths.end(), matches)
                       : std::any_of(subject.paths.begin(), subject.paths.end(), matches);
    }
    case Rule::Form::kDomain:
      return subject.host && host_matches(rule.pattern, *subject.host);
    default:
      return false;
  }
}

bool rule_matches_command(const Rule& rule, std::string_view text, const std::vector<bool>& opaque,
                          bool possibly) {
  switch (rule.form) {
    case Rule::Form::kAnyUse:
      return true;
    case Rule::Form::kCommandPrefix:
      return command_pattern_matches(rule.pattern, text, opaque, possibly) ||
             command_pattern_matches(rule.pattern + " *", text, opaque, possibly);
    case Rule::Form::kCommandGlob: {
      const std::string& glob = rule.pattern;
      if (command_pattern_matches(glob, text, opaque, possibly)) return true;
      // A single trailing " *" is optional: "ls *" matches "ls".
      const bool one_star = std::count(glob.begin(), glob.end(), '*') == 1;
      return one_star && glob.ends_with(" *") &&
             command_pattern_matches(glob.substr(0, glob.size() - 2), text, opaque, possibly);
    }
    case Rule::Form::kCommandExact:  // no "*" in it: the pattern is the command
      return command_pattern_matches(rule.pattern, text, opaque, possibly);
    default:
      return false;
  }
}

}  // namespace nib::permissions
