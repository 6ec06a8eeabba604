#include "app/hooks_command.hpp"

#include <fstream>
#include <iterator>

#include "app/command_environment.hpp"
#include "app/hook_setup.hpp"
#include "core/claude_tool_names.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::app {
namespace {

using hooks::HookEvent;

// A plausible input for each event: a Bash call for the tool events.
nlohmann::json sample_fields(HookEvent event) {
  const nlohmann::json bash_call = {{"tool_name", "Bash"},
                                    {"tool_input", {{"command", "ls"}, {"description", "List"}}},
                                    {"tool_use_id", "toolu_hooks_test"}};
  switch (event) {
    case HookEvent::kPreToolUse:
      return bash_call;
    case HookEvent::kPostToolUse: {
      nlohmann::json fields = bash_call;
      fields["tool_response"] = {
          {"content", "README.md\nsrc\n"}, {"is_error", false}, {"exit_code", 0}};
      return fields;
    }
    case HookEvent::kUserPromptSubmit:
      return {{"prompt", "Write a haiku about hooks"}};
    case HookEvent::kStop:
    case HookEvent::kSubagentStop:
      return {{"stop_hook_active", false}};
    case HookEvent::kSessionStart:
      return {{"source", "startup"}};
    case HookEvent::kSessionEnd:
      return {{"reason", "other"}};
    case HookEvent::kPreCompact:
      return {{"trigger", "manual"},
              {"custom_instructions", ""},
              {"first_request", "Rename foo to bar everywhere"},
              {"latest_instructions", nlohmann::json::array({"Also update the docs"})},
              {"plan", "- [in_progress] Find every foo\n- [pending] Rename to bar"},
              {"attached_files", nlohmann::json::array({"src/foo.cpp"})},
              {"messages_to_summarize", 12},
              {"context_tokens", 180000}};
  }
  return nlohmann::json::object();
}

// What the event's matchers are matched against in `fields`.
std::string subject_of(HookEvent event, const nlohmann::json& fields) {
  const auto text = [&](const char* name) {
    const auto it = fields.find(name);
    return it != fields.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  switch (event) {
    case HookEvent::kPreToolUse:
    case HookEvent::kPostToolUse:
      return std::string(core::nib_tool_name(text("tool_name")));
    case HookEvent::kSessionStart:
      return text("source");
    case HookEvent::kSessionEnd:
      return text("reason");
    case HookEvent::kPreCompact:
      return text("trigger");
    default:
      break;
  }
  return {};
}

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace

int run_hooks_test(const HooksTestArgs& args, const Configuration& configuration,
                   const std::filesystem::path& cwd, std::stop_token stop, std::ostream& out,
                   std::ostream& err) {
  const std::optional<HookEvent> event = hooks::parse_hook_event(args.event);
  if (!event) {
    err << "nib: no hook event \"" << args.event << "\" (nib hooks test --help lists them)\n";
    return 2;
  }
  nlohmann::json fields = sample_fields(*event);
  if (args.input) {
    std::ifstream file(*args.input, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    fields = util::parse_untrusted_json(text);
    if (!file || !fields.is_object()) {
      err << "nib: " << *args.input << ": not a readable JSON object of the event's fields\n";
      return 2;
    }
  }
  auto config = load_hook_config(configuration);
  if (!config.ok()) {
    err << "nib: " << config.error() << '\n';
    return 2;
  }
  for (const std::string& warning : config.value().warnings)
    err << "nib: warning: " << warning << '\n';
  const auto hook_set =
      make_hook_set(std::move(config.value()), cwd, withheld_environment(configuration));
  const std::string subject = subject_of(*event, fields);
  const hooks::HookOutcome outcome = hook_set->run(*event, subject, std::move(fields), stop);
  if (outcome.reports.empty()) {
    out << "No hook matches " << args.event << " for this input.\n";
    return 0;
  }
  for (const hooks::HookReport& report : outcome.reports) {
    out << "hook " << report.hook.command << "  (" << report.hook.origin << ")\n"
        << "  ended:    " << hooks::describe_end(report.run, report.hook) << " after "
        << report.run.duration.count() << " ms\n"
        << "  decision: " << hooks::verdict_kind_name(report.verdict.kind) << '\n';
    if (!report.verdict.reason.empty())
      out << "  reason:   " << one_line(report.verdict.reason) << '\n';
    if (!report.verdict.context.empty()) {
      out << "  context:  " << one_line(report.verdict.context) << '\n';
    }
    if (report.verdict.updated_input)
      out << "  input:    " << util::json_text(*report.verdict.updated_input) << '\n';
  }
  out << "result: " << hooks::verdict_kind_name(outcome.decision);
  if (!outcome.reason.empty()) out << " — " << one_line(outcome.reason);
  out << '\n';
  for (const std::string& warning : outcome.warnings) out << "warning: " << warning << '\n';
  return 0;
}

}  // namespace nib::app
