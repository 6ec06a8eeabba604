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

#include "core/call_access.hpp"
#include "core/events.hpp"
#include "core/messages.hpp"

namespace nib::core {

// How a model edits files: with apply_patch (OpenAI's models are trained on its patches), or by
// replacing text (edit, write). A tool meant for one kind of model says so (ToolSpec), and a
// model is offered only the tools for its kind (offered_to).
enum class EditStyle { kAny, kPatch, kReplace };

struct ToolSpec {
  std::string name;
  std::string description;
  nlohmann::json parameters;  // a JSON Schema document for the arguments object
  // Calls may run alongside other concurrency_safe calls. Off by default so that a new tool
  // never runs in parallel without saying it may.
  bool concurrency_safe = false;
  // What kind of thing every call of the tool does (call_access.hpp): the permission policy
  // judges a call by it, and a kDelegate call (a subagent's, whose work is other calls with
  // slots of their own) takes no tool slot, so waiting for them cannot starve them of slots.
  // kChange by default, so that a new tool is never taken for harmless by omission.
  AccessKind access = AccessKind::kChange;
  // Which models are offered the tool: kAny, or only those that edit in this style.
  EditStyle edit_style = EditStyle::kAny;
  // Non-empty: the tool takes free text, which this Lark grammar describes, as its one string
  // argument `input` (its parameters say so): the Responses protocol offers it as a custom tool
  // whose calls carry the text itself (ToolCall::freeform); the other protocols, as a function
  // with that one argument.
  std::string grammar;
};

// Whether a model that edits in `model_style` is offered `tool`.
inline bool offered_to(const ToolSpec& tool, EditStyle model_style) {
  return tool.edit_style == EditStyle::kAny || model_style == EditStyle::kAny ||
         tool.edit_style == model_style;
}

// What the caller hands a tool besides its arguments; never filled in by the model.
struct ToolContext {
  std::string tool_call_id;
  std::filesystem::path cwd;
  // Hands an event of a run this call started (a subagent's, as a SubagentEvent) to the run
  // that made the call, which emits it on its own thread. Callable from any thread until
  // execute() returns; empty when nobody listens.
  std::function<void(Event)> report;
  // What the call was judged on (Tool::access), when it went through the scheduler: the tool
  // acts on exactly these paths rather than resolving its arguments again, so a file that
  // appears or vanishes in between cannot redirect it. Null when execute() is called directly.
  std::shared_ptr<const CallAccess> access;
  // Puts a call this call leads to (web_fetch following a redirect to another URL) through
  // the same checks as a call of the same tool with `args`: the hooks, the rules and the mode,
  // and a person where one would be asked. Nothing when it may go on, else why not, for the
  // model. Empty (everything may go on) when execute() is called directly.
  std::function<std::optional<std::string>(const nlohmann::json& args, std::stop_token)>
      check_follow_up;
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

  // What this call touches: its paths as this tool resolves and opens them, its command, its
  // URL (call_access.hpp). Called once per call, after `args` passed validation and before
  // the gate; the kind is stamped from ToolSpec::access whatever this returns. Must change
  // nothing; may look at the file system. A throw refuses the call (it never runs unjudged).
  virtual CallAccess access(const nlohmann::json& /*args*/, const ToolContext& /*context*/) const {
    return {};
  }

  // Resources this call touches; concurrent calls with conflicting claims do not overlap. By
  // default those of its access: each path and its target, shared for reads, exclusive for
  // writes (claims_of()).
  virtual std::vector<ResourceClaim> claims(const CallAccess& access,
                                            const nlohmann::json& /*args*/) const {
    return claims_of(access);
  }

  // How the call reads for people (front ends only; the model never sees it): what it acts on,
  // in a few words, e.g. "src/app.cpp:120-180" or a command's first line. Empty: front ends
  // show the arguments compactly. `args` has passed validation.
  virtual std::string describe_call(const nlohmann::json& /*args*/) const { return {}; }
  // A one-line stand-in for a result's text in a front end (read: "Read 61 lines"), or nothing:
  // front ends show the result's first lines. `args` has passed validation.
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
