#pragma once
// The contract every tool implements, built-in or handed in by embedding code.
//
// One Tool object serves both sides: its spec (name, description, JSON Schema parameters) is
// sent to the model, and execute() runs locally when the model calls it. execute() may be
// called from several worker threads at once when the tool is concurrency_safe, so such tools
// must not keep unsynchronised mutable state.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "core/messages.hpp"

namespace nib::core {

struct ToolSpec {
  std::string name;
  std::string description;
  nlohmann::json parameters;  // a JSON Schema document for the arguments object
  // Calls may run alongside other concurrency_safe calls. Off by default so that a new tool
  // never runs in parallel without saying it may.
  bool concurrency_safe = false;
  // The call's own work is other calls (a subagent's), which take their own tool slots: it
  // takes none, so that waiting for them cannot starve them of slots.
  bool delegates = false;
  // Calls change nothing on the machine (no file, no process, nothing sent beyond reading):
  // the read-only permission mode runs them, and no mode asks about them.
  bool read_only = false;
};

// What the caller hands a tool besides its arguments; never filled in by the model.
struct ToolContext {
  std::string tool_call_id;
  std::filesystem::path cwd;
  // Hands an event of a run this call started (a subagent's, as a SubagentEvent) to the run
  // that made the call, which emits it on its own thread. Callable from any thread until
  // execute() returns; empty when nobody listens.
  std::function<void(Event)> report;
};

// What a tool returns. `content`, when set, replaces `output` as the model-facing result (so a
// tool returning an image must put any explanation in a text block of `content` as well).
// `display` reaches the UI only and never enters history.
struct ToolOutput {
  std::string output;
  bool is_error = false;
  std::optional<Content> content;
  std::optional<std::string> display;
  std::optional<int> exit_code;

  static ToolOutput error(std::string message) { return {std::move(message), true}; }
};

// What a call would change, for a person deciding whether it may run (the approval question),
// worked out without changing anything and by the same steps the call would take, so it shows
// what the call would do.
struct ChangePreview {
  std::string summary;  // one line about the change ("New file, 120 lines."), or ""
  // A unified diff of the change (tools/unified_diff.hpp): its first lines when it is long.
  std::string diff;
  std::size_t omitted_lines = 0;  // the diff's lines beyond those in `diff`
  std::string failure;            // non-empty: the call would fail, and this is why (no diff)
};

// A resource a call touches, used to keep conflicting concurrent calls apart: a claim covers
// its key and every key below it ('/'-separated), and two claims conflict when one covers the
// other unless both are shared (claim_table.hpp has the rule).
struct ResourceClaim {
  std::string key;
  bool exclusive = false;
  bool operator==(const ResourceClaim&) const = default;
};

class Tool {
 public:
  explicit Tool(ToolSpec spec) : spec_(std::move(spec)) {}
  virtual ~Tool() = default;
  Tool(const Tool&) = delete;
  Tool& operator=(const Tool&) = delete;

  const ToolSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }

  // Runs one call. `args` has already passed schema validation. Must return promptly once
  // `stop` is requested; a tool that does not is abandoned after the abort grace period.
  // Failures the model should see are returned with is_error; exceptions are caught by the
  // caller and reported as "Error: tool X threw: ...".
  virtual ToolOutput execute(const nlohmann::json& args, std::stop_token stop,
                             const ToolContext& context) = 0;

  // Resources this call touches; concurrent calls with conflicting claims do not overlap.
  virtual std::vector<ResourceClaim> claims(const nlohmann::json& /*args*/,
                                            const ToolContext& /*context*/) const {
    return {};
  }

  // How the call reads for people (front ends only; the model never sees it): what it acts on,
  // in a few words, e.g. "src/app.cpp:120-180" or a command's first line. Empty: front ends
  // show the arguments compactly. `args` is the call's argument object, not yet validated.
  virtual std::string describe_call(const nlohmann::json& /*args*/) const { return {}; }
  // A one-line stand-in for a result's text in a front end (read: "Read 61 lines"), or nothing:
  // front ends show the result's first lines.
  virtual std::optional<std::string> describe_result(const nlohmann::json& /*args*/,
                                                     const ToolResult& /*result*/) const {
    return std::nullopt;
  }
  // What the call would change (front ends only: an approval question shows it), or nothing
  // for a tool that does not say. Must change nothing; may read files, and should return
  // promptly once `stop` is requested. `args` has passed schema validation.
  virtual std::optional<ChangePreview> preview_change(const nlohmann::json& /*args*/,
                                                      const ToolContext& /*context*/,
                                                      std::stop_token /*stop*/) const {
    return std::nullopt;
  }

 private:
  ToolSpec spec_;
};

using ToolPtr = std::shared_ptr<Tool>;
using ToolFunction =
    std::function<ToolOutput(const nlohmann::json&, std::stop_token, const ToolContext&)>;

// A tool whose execute() is a function: for embedders and tests.
ToolPtr make_tool(ToolSpec spec, ToolFunction function);

}  // namespace nib::core
