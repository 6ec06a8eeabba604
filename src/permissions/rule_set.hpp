#pragma once
// Every permission rule nib follows (rule.hpp), from permissions.allow / ask / deny of every
// settings file (nib's and Claude Code's, user, project and local) and nib's built-in defaults,
// and the verdict they give a tool call.
//
// Precedence: deny, then ask, then allow, whatever the files' order: a deny rule cannot be
// undone by an allow rule elsewhere. The built-in defaults (reading ~/.ssh/**, ~/.aws/**,
// ~/.gnupg/** and **/.env* asks) come after your rules: an allow rule of yours for such a path
// wins over them.
//
// A call is judged on what it touches (core::CallAccess): its paths as the tool opens them and
// their targets, its command, its URL's host. A command is split into its simple commands
// (shell_split.hpp): allowed only when every part is allowed, denied when any part is denied,
// asked when any part asks. A command nib cannot split asks at most (a bare `Bash` deny still
// denies), and so does a part with a VAR=x prefix that changes what runs (PATH, LD_*, ...) when
// a deny or ask rule about commands could hide behind it. Deny and ask rules also match a part
// by its program's name without its directory (`/bin/rm` is `rm`); allow rules only as written.
// A part whose run-time words (`$X`) might match a deny rule asks. A part that names a path (a
// word, `$HOME/...`, a glob, a redirection; command_paths.hpp) that a Read deny or ask rule (or a
// default) covers, or that writes through a redirection into a path an Edit or Write deny or ask
// rule covers, asks (a redirection into a denied path denies). A command that leaves the
// sandbox, or asks for the host's network, is allowed only by rules that say so
// ("Bash(network:...)", "Bash(unsandboxed:...)", rule.hpp).
//
// Thread-safe once built: decide() is const and keeps no state.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "permissions/rule.hpp"
#include "permissions/shell_split.hpp"
#include "util/result.hpp"

namespace nib::permissions {

// One settings document: app::Configuration::sources gives them, weakest first.
struct RuleSource {
  std::filesystem::path file;
  nlohmann::json document;        // the whole file; only "permissions" is read
  std::filesystem::path project;  // where its "/path" patterns start (the checkout, or home)
  std::string text;  // the file as written, for the line of each rule ("": lines unknown)
};

enum class Verdict {
  kNone,  // no rule speaks: the permission mode decides
  kAllow,
  kAsk,
  kDeny,
};

// "none", "allow", "ask" or "deny".
std::string_view verdict_name(Verdict verdict);

struct Decision {
  Verdict verdict = Verdict::kNone;
  const Rule* rule = nullptr;  // the deciding rule (valid while the RuleSet lives), if any
  std::string reason;          // one line: `denied by Bash(rm:*) (.nib/settings.json ...)`
};

struct CallDecision {
  Decision decision;            // for the whole call
  ShellSplit split;             // bash: the split (understood, problem, commands)
  std::vector<Decision> parts;  // bash: one per split.commands entry
};

// What a call is decided on.
struct CallFacts {
  std::string tool;            // as called: "bash", "read", "mcp__github__create_issue"
  core::CallAccess access;     // what it touches, as its tool says (core/call_access.hpp)
  std::filesystem::path cwd;   // the working directory relative paths start from
  std::filesystem::path home;  // for ~/ (empty: ~ rules never match)
};

class RuleSet {
 public:
  // The built-in defaults only.
  RuleSet();

  // Every source's permissions.allow / ask / deny, then the defaults. A broken rule fails
  // naming file, list, index and problem:
  //   `.nib/settings.json: permissions.allow[2]: "Bash(npm": the "(" is not closed`.
  static util::Result<RuleSet> load(const std::vector<RuleSource>& sources);

  // The verdict for one call.
  CallDecision decide(const CallFacts& call) const;
  // The verdict for one simple command of a bash call.
  Decision decide_command(const SimpleCommand& command, const CallFacts& call) const;

  // Yours in file order (allow, ask, deny of each file), then the defaults.
  const std::vector<Rule>& rules() const { return rules_; }

 private:
  Decision decide_paths(const CallFacts& call) const;
  Decision decide_unsplit(const ShellSplit& split, Reach reach) const;
  Decision mentioned_paths(const SimpleCommand& command, const CallFacts& call,
                           bool defaults) const;
  // True when a deny or ask rule about commands exists: a part nib cannot see into might hide
  // what it matches.
  bool command_rules_could_hide() const;

  std::vector<Rule> rules_;
};

// The built-in defaults, ask rules without a file: reading each of the home directory's secret
// places (util/secret_places.hpp: Read(~/.ssh/**), Read(~/.aws/**), ...) and Read(//**/.env*).
std::vector<Rule> default_rules();

}  // namespace nib::permissions
