#pragma once
// One permission rule, in Claude Code's syntax so rules carry over:
//   Bash                 every use of the tool (also "Bash(*)"); any tool alone: Grep, read
//   Bash(npm test:*)     a command that is "npm test" or starts with "npm test "
//   Bash(git log *)      a glob over the command: * is any run of characters; a single
//                        trailing " *" is optional ("ls *" matches "ls" and "ls -la")
//   Bash(ls)             exactly that command
//   Bash(network:npm install:*)  the same forms after "network:" or "unsandboxed:": the rule
//                        also covers the command when it reaches that far beyond the sandbox
//                        (the host's network; outside it: asked for, settings exclude it, or
//                        nothing can confine it). A plain rule never lets a command leave it.
//   Read(./.env) Edit(src/**) Write(...)   gitignore-like path patterns (pattern_match.hpp):
//       //path  from the file-system root      ~/path  from the home directory
//       /path   from the project the settings file belongs to
//       ./path, or a path with a "/" inside   from the working directory
//       name    without a "/": at any depth below the working directory
//     a pattern matching a directory covers everything in it.
//   WebFetch(domain:docs.rs)   fetches from that host ("*.docs.rs": its subdomains)
//   mcp__server__tool, mcp__server__* and mcp__server   MCP tools
// Tool names are nib's (bash, read, edit, write, grep, find, ls, web_fetch, ...) or Claude
// Code's (core/claude_tool_names.hpp). Rules of the four families name calls by what they do
// (core::AccessKind), not by tool: Bash rules every call that runs a command, Read rules every
// call that reads files (read, grep, find, ls), Edit and Write rules every call that changes
// files, WebFetch rules every fetch. Other names match the tool so named. A Bash rule matches a
// simple command's words after its VAR=x prefixes and wrappers (shell_split.hpp); for a command
// run through sudo or doas an allow rule must name the wrapper too ("Bash(sudo apt update)").
//
// Pure; thread-safe (a Rule is a value).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/call_access.hpp"
#include "util/result.hpp"

namespace nib::permissions {

enum class RuleList { kAllow, kAsk, kDeny };

// "allow", "ask" or "deny".
std::string_view rule_list_name(RuleList list);

// Where a rule was written: `file` empty for nib's built-in defaults.
struct RuleOrigin {
  std::filesystem::path file;
  RuleList list = RuleList::kAllow;
  std::size_t index = 0;  // in the file's permissions.<list> array
  std::size_t line = 0;   // where it is written in the file, from 1; 0: not known

  // "~/.claude/settings.json:7 permissions.deny[2]", or "built-in default".
  std::string describe() const;
};

// How far a command reaches beyond the sandbox, in order.
enum class Reach {
  kSandbox,  // confined, with the sandbox's private network (or the user switched it off)
  kNetwork,  // confined, with the host's network
  kOutside,  // unconfined: asked for, excluded by settings, or nothing can confine it
};

// How far a command run as `command` says reaches.
Reach reach_of(const core::CommandAccess& command);

// "", "network:" or "unsandboxed:": the rule prefix that covers a command reaching `reach`.
std::string_view reach_prefix(Reach reach);

struct Rule {
  enum class Form {
    kAnyUse,         // the tool alone
    kCommandPrefix,  // Bash(prefix:*)
    kCommandGlob,    // Bash(... * ...)
    kCommandExact,   // Bash(ls)
    kPath,           // Read(...), Edit(...), Write(...)
    kDomain,         // WebFetch(domain:...)
    kMcpServer,      // mcp__server, mcp__server__*
    kUnmatchable,    // a specifier nib cannot match for this tool (Task(worker)): never matches
  };
  enum class Anchor { kRoot, kHome, kProject, kWorkingDirectory, kAnyDepth };
  // Which calls the rule's tool name covers: by what they do, or by name.
  enum class Family { kCommands, kReads, kEdits, kFetches, kNamed };

  std::string text;  // as written: "Bash(npm test:*)"
  std::string tool;  // as written: "Bash"
  Family family = Family::kNamed;
  std::optional<std::string> specifier;
  // Bash rules: how far beyond the sandbox a command it covers may reach ("network:" and
  // "unsandboxed:" rules); kSandbox for every other rule.
  Reach reach = Reach::kSandbox;
  Form form = Form::kAnyUse;
  std::string pattern;  // the prefix, glob, command, path glob, host or server
  Anchor anchor = Anchor::kWorkingDirectory;  // kPath: where `pattern` starts
  std::filesystem::path project;              // kPath with kProject: the settings file's project
  RuleOrigin origin;
};

// True for the name of an MCP server's tool (or of a rule about one): "mcp__...".
bool is_mcp_name(std::string_view name);

// Parses `text`; a failure says what is wrong with it ("the \"(\" is not closed"). `project`:
// the directory "/path" patterns start from.
util::Result<Rule> parse_rule(std::string_view text, RuleOrigin origin,
                              const std::filesystem::path& project);

// What a tool call offers rules to match (from its core::CallAccess).
struct CallSubject {
  std::string tool;  // the called tool, nib's name: "read"
  core::AccessKind kind = core::AccessKind::kChange;
  // Absolute and normalised: each path as the tool opens it and its target.
  std::vector<std::filesystem::path> paths;
  std::optional<std::string> host;  // a fetch: the URL's host, lower case
  std::filesystem::path cwd;
  std::filesystem::path home;
};

// Whether `rule` names a call of `tool` (nib's name) that does `kind`: a family's rule by the
// kind, any other by the name (nib's or Claude Code's).
bool rule_names_call(const Rule& rule, std::string_view tool, core::AccessKind kind);

// Whether a non-Bash rule matches the call: its tool, and its path or host when it has one.
// Every path must match for `all_paths` (allow rules), any for the others.
bool rule_matches_subject(const Rule& rule, const CallSubject& subject, bool all_paths);

// Whether `rule`'s path pattern matches `path` (absolute, normalised) or a directory above it.
bool rule_matches_path(const Rule& rule, const std::filesystem::path& path,
                       const std::filesystem::path& cwd, const std::filesystem::path& home);

// The directory a path rule covers whole, when its pattern is one (Read(~/.ssh/**),
// Read(~/.netrc)): its literal path, absolute. Nothing for a pattern with wildcards before its
// end (Read(**/.env*)), or whose anchor is unknown (no home).
std::optional<std::filesystem::path> rule_root(const Rule& rule, const std::filesystem::path& cwd,
                                               const std::filesystem::path& home);

// A name the last component of a path rule's pattern matches, made by dropping its wildcards
// (".env" for ".env*"), or nothing when it has other wildcards than "*" and "?".
std::optional<std::string> rule_sample_name(const Rule& rule);

// Whether a Bash rule matches a command whose text is `text` (`opaque` per byte). `possibly`:
// the opaque parts may stand for anything (shell_split.hpp).
bool rule_matches_command(const Rule& rule, std::string_view text, const std::vector<bool>& opaque,
                          bool possibly);

// True for a Bash rule (tool bash or Bash).
bool is_bash_rule(const Rule& rule);

// The kind of call a family names (kChange for kNamed, which names by tool instead).
core::AccessKind family_kind(Rule::Family family);

}  // namespace nib::permissions
