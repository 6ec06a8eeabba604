#pragma once
// What one tool call will touch, stated by its tool after its arguments passed validation: the
// one account of a call that the permission policy, the claims that keep calls apart, the
// hooks' input and the approval question all read, so that none of them works out on its own
// which file a call changes or which host it reaches. A tool resolves its paths here with the
// very resolver it opens them with (`~`, a leading `@`, look-alike spaces, `\xNN` escapes,
// symbolic links, dangling ones included), and then runs with exactly this account
// (ToolContext::access), so what was judged is what happens.
//
// Pure data; thread-safe as a value.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nib::core {

// What kind of thing a call does. A tool's calls are all of one kind (ToolSpec::access).
enum class AccessKind {
  kNone,      // changes nothing and reaches nothing outside nib (todo_write, job_output, skill)
  kRead,      // reads the files in `paths` (read, grep, find, ls)
  kWrite,     // changes the files in `paths` (edit, write)
  kExecute,   // runs `command` (bash)
  kNetwork,   // fetches `url` from `host` (web_fetch)
  kDelegate,  // its work is other calls, each judged on its own (task)
  kExternal,  // acts outside nib with another program's rights (an MCP server's tool)
  kChange,    // changes something the kinds above do not name (job_kill; a tool that says
              // nothing more): the default, so a tool never passes for harmless by omission
};

// "none", "read", "write", "execute", "network", "delegate", "external", "change".
std::string_view access_kind_name(AccessKind kind);

// One file or directory a call reads or changes.
struct PathAccess {
  std::string written;         // as the call wrote it: "@~/notes.md"
  std::filesystem::path path;  // as the tool opens it: absolute and lexically normal
  // What opening `path` reaches: every symbolic link resolved, a dangling final link's target
  // included (writing through it creates that file). Equal to `path` when no link is involved.
  std::filesystem::path target;
  // The first line the call acts on, when it names one (read's offset): for front ends that
  // point at it.
  std::optional<std::int64_t> line;
};

// How a command will run, as the launcher that will run it says (tools::CommandLauncher).
enum class Confinement {
  kSandboxed,              // in the sandbox, with its private network
  kSandboxedNetwork,       // in the sandbox, with the host's network (the call asked for it)
  kUnconfinedAsked,        // outside: the call asked to leave the sandbox ("unsandboxed": true)
  kUnconfinedExcluded,     // outside: settings run this command outside (sandbox.excludedCommands)
  kUnconfinedUnavailable,  // outside: nothing on this system can confine commands
  kUnconfinedByUser,  // outside: the user switched the sandbox off (--no-sandbox, settings, yolo)
};

// True for the ways of running outside the sandbox that the user did not choose for every
// command: the call asked, settings exclude the command, or nothing can confine it.
bool leaves_sandbox(Confinement confinement);

// True when the command runs in the sandbox (kSandboxed, kSandboxedNetwork).
bool is_confined(Confinement confinement);

struct CommandAccess {
  std::string command;        // as bash will run it (bash -c)
  bool network = false;       // the call asked for the host's network
  std::string justification;  // why it asks to leave the sandbox or for the network
  Confinement confinement = Confinement::kSandboxed;
  // Why the command cannot be confined, and the fix (kUnconfinedUnavailable only).
  std::string unavailable;
};

struct CallAccess {
  AccessKind kind = AccessKind::kChange;  // stamped from the tool's ToolSpec::access
  std::vector<PathAccess> paths;          // kRead, kWrite
  std::optional<CommandAccess> command;   // kExecute
  std::string url;                        // kNetwork: as the call wrote it
  std::string host;  // kNetwork: the URL's host as the transfer will reach it, lower case
};

// A resource a call touches, used to keep conflicting concurrent calls apart: a claim covers
// its key and every key below it ('/'-separated), and two claims conflict when one covers the
// other unless both are shared (claim_table.hpp has the rule).
struct ResourceClaim {
  std::string key;
  bool exclusive = false;
  bool operator==(const ResourceClaim&) const = default;
};

// The ResourceClaim key of a file or directory, so that a read and an edit of the same file
// conflict (claim_table.hpp): "file:" and the path without a trailing separator.
std::string file_claim_key(const std::filesystem::path& absolute);

// The claims of a call that touches `access.paths`: each path as opened and as its links
// resolve (so a read through a link and an edit of its target conflict), exclusive for kWrite
// and shared otherwise. None for a call without paths.
std::vector<ResourceClaim> claims_of(const CallAccess& access);

}  // namespace nib::core
