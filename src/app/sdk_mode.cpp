#include "app/sdk_mode.hpp"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

#include "app/extension_setup.hpp"
#include "app/hook_setup.hpp"
#include "app/prompt_input.hpp"
#include "app/run_assembly.hpp"
#include "app/sdk_messages.hpp"
#include "app/slash_prompt.hpp"
#include "core/agent_loop.hpp"
#include "core/claude_tool_names.hpp"
#include "mcp/line_reader.hpp"
#include "permissions/permission_mode.hpp"
#include "provider/provider_factory.hpp"
#include "session/session_summary.hpp"
#include "util/fd_io.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"
#include "util/secret_redaction.hpp"

namespace nib::app {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A user message's content (a string, or text and base64 image blocks) as nib's; a failure
// names what nib cannot take.
util::Result<core::Content> message_content(const json& message) {
  using Result = util::Result<core::Content>;
  const json content = message.is_object() ? message.value("content", json()) : json();
  if (content.is_string()) return core::Content{core::TextBlock{content.get<std::string>()}};
  if (!content.is_array()) return Result::failure("a user message needs content");
  core::Content blocks;
  for (const json& block : content) {
    const std::string type = block.is_object() ? block.value("type", "") : "";
    if (type == "text" && block.value("text", json()).is_string()) {
      blocks.push_back(core::TextBlock{block["text"].get<std::string>()});
    } else if (type == "image" && block.value("source", json()).is_object() &&
               block["source"].value("type", "") == "base64") {
      blocks.push_back(core::ImageBlock{block["source"].value("data", ""),
                                        block["source"].value("media_type", "")});
    } else {
      return Result::failure("nib does not take " + (type.empty() ? "untyped" : type) +
                             " blocks in a user message");
    }
  }
  return blocks;
}

// The last reply's text: the run's answer.
std::string final_text(const std::vector<core::Message>& history) {
  for (auto message = history.rbegin(); message != history.rend(); ++message) {
    if (const auto* reply = std::get_if<core::AssistantMessage>(&*message)) {
      return core::assistant_text(*reply);
    }
  }
  return {};
}

class SdkSession {
 public:
  SdkSession(const CliOptions& options, const ModelConfig& model, const RunContext& context)
      : options_(options),
        model_(model),
        context_(context),
        started_in_yolo_(context.guard->policy().mode() == permissions::PermissionMode::kYolo) {}

  int serve(std::stop_token stop) {
    std::jthread worker([this](std::stop_token worker_stop) { work(worker_stop); });
    const mcp::LinesEnd end =
        mcp::read_lines(STDIN_FILENO, stop, [this](const std::string& line) { take(line); });
    {
      std::lock_guard lock(mutex_);
      input_ended_ = true;
      if (end == mcp::LinesEnd::kStopped) {
        queue_.clear();
        if (run_stop_) run_stop_->request_stop();
      }
      changed_.notify_all();
    }
    worker.join();  // the queued messages are answered first
    return last_was_error_ ? 1 : 0;
  }

 private:
  // --- the reading thread
  void take(const std::string& line) {
    const json message = util::parse_untrusted_json(line);
    const std::string type = message.is_object() ? message.value("type", "") : "";
    if (type == "user") {
      std::lock_guard lock(mutex_);
      queue_.push_back(message.value("message", json()));
      changed_.notify_all();
    } else if (type == "control_request") {
      control(message.value("request_id", json()), message.value("request", json::object()));
    } else if (type == "control_response") {
      const json response = message.value("response", json::object());
      std::lock_guard lock(mutex_);
      const auto waiting = answers_.find(response.value("request_id", ""));
      if (waiting != answers_.end()) waiting->second = response;
      changed_.notify_all();
    } else if (!message.is_object()) {
      std::cerr << "nib: skipped a line of stdin that is not a JSON object\n";
    }
  }

  void control(const json& id, const json& request) {
    const std::string subtype = request.is_object() ? request.value("subtype", "") : "";
    if (subtype == "initialize") return initialize(id, request);
    if (subtype == "interrupt") {
      {
        std::lock_guard lock(mutex_);
        if (run_stop_) run_stop_->request_stop();
      }
      return write(sdk_control_success(id, {{"still_queued", json::array()}}));
    }
    if (subtype == "set_permission_mode") {
      const auto mode = permissions::parse_mode(request.value("mode", ""));
      if (!mode.ok()) return write(sdk_control_error(id, mode.error()));
      if (mode.value() == permissions::PermissionMode::kYolo && !started_in_yolo_) {
        return write(sdk_control_error(
            id,
            "nib skips permissions only in a session started that way (--permission-mode "
            "bypassPermissions)"));
      }
      context_.guard->approvals().policy().set_mode(mode.value());
      return write(
          sdk_control_success(id, {{"mode", permissions::claude_mode_name(mode.value())}}));
    }
    if (subtype == "set_model") {
      std::lock_guard lock(mutex_);
      const std::string name = request.value("model", json()).is_string()
                                   ? request["model"].get<std::string>()
                                   : options_model_name();
      auto named = with_named_model(model_, *context_.configuration, name);
      if (!named.ok()) return write(sdk_control_error(id, "model " + named.error()));
      model_ = std::move(named.value());
      return write(sdk_control_success(id, {{"model", model_.model.id}}));
    }
    write(sdk_control_error(id, "Unsupported control request subtype: " + subtype,
                            "unsupported_request"));
  }

  std::string options_model_name() const { return options_.model.value_or(model_.model.id); }

  void initialize(const json& id, const json& request) {
    {
      std::lock_guard lock(mutex_);
      const json prompt = request.value("systemPrompt", json());
      // [""] (the SDK's default) keeps nib's own prompt: nib's tools need it.
      if (prompt.is_array() && !prompt.empty() && prompt[0].is_string() &&
          !prompt[0].get<std::string>().empty()) {
        system_prompt_ = prompt[0].get<std::string>();
      } else if (prompt.is_string() && !prompt.get<std::string>().empty()) {
        system_prompt_ = prompt.get<std::string>();
      }
      if (request.value("appendSystemPrompt", json()).is_string()) {
        append_system_prompt_ = request["appendSystemPrompt"].get<std::string>();
      }
      if (request.value("mcpServers", json()).is_object()) {
        client_servers_ = json{{"mcpServers", request["mcpServers"]}};
      }
    }
    for (const char* unsupported : {"hooks", "agents", "sdkMcpServers", "jsonSchema"}) {
      if (request.contains(unsupported)) {
        std::cerr << "nib: the SDK's " << unsupported
                  << " option is not supported by nib and is ignored\n";
      }
    }
    json commands = json::array();
    for (const ui::ExtraCommand& command : offered_user_commands(context_.extensions)) {
      commands.push_back({{"name", command.name},
                          {"description", command.help},
                          {"argumentHint", command.argument}});
    }
    json response = {{"commands", std::move(commands)},
                     {"agents", json::array()},
                     {"output_style", "default"},
                     {"available_output_styles", json::array({"default"})},
                     {"models", json::array({{{"value", model_.model.id},
                                              {"displayName", model_.model.id},
                                              {"description", model_.provider}}})},
                     {"account", json::object()}};
    if (request.contains("mcpServers")) response["mcp_servers_applied"] = true;
    write(sdk_control_success(id, std::move(response)));
  }

  // --- the run thread
  void work(std::stop_token stop) {
    while (true) {
      json message;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock,
                      [&] { return !queue_.empty() || input_ended_ || stop.stop_requested(); });
        if (queue_.empty()) return;
        message = std::move(queue_.front());
        queue_.pop_front();
      }
      answer(message);
    }
  }

  // Opens the run's tools, session and MCP servers, once, with what initialize brought.
  bool open() {
    if (run_) return true;
    CliOptions options = options_;
    RunContext context = context_;
    {
      std::lock_guard lock(mutex_);
      if (system_prompt_) options.system_prompt = system_prompt_;
      if (append_system_prompt_) options.append_system_prompt = append_system_prompt_;
      context.client_servers = client_servers_;
    }
    run_options_ = options;
    context_with_servers_ = context;
    auto opened = open_run(run_options_, current_model(), context_with_servers_);
    if (!opened.ok()) {
      std::cerr << "nib: " << opened.error() << '\n';
      return false;
    }
    run_ = std::move(opened.value());
    for (const std::string& problem : run_->problems)
      std::cerr << "nib: warning: " << problem << '\n';
    for (const std::string& notice : run_->mcp_notices) std::cerr << "nib: " << notice << '\n';
    const std::string file = run_->session.file();
    session_id_ = file.empty() ? session::new_session_id() : session::summarize_session(file).id;
    context_.guard->follow_session([this] { return run_->session.file(); });
    const ModelConfig model = current_model();
    provider_ = provider::make_provider({model.api, model.base_url, model.api_key}, model.retry);
    return true;
  }

  void announce() {
    SdkInitFacts facts{.session_id = session_id_,
                       .cwd = context_.cwd.string(),
                       .model = current_model().model.id,
                       .permission_mode = std::string(
                           permissions::claude_mode_name(context_.guard->policy().mode())),
                       .version = NIB_VERSION};
    for (const std::string& name : run_->tools->names()) {
      facts.tools.emplace_back(core::claude_tool_name(name));
    }
    for (const ui::ExtraCommand& command : offered_user_commands(context_.extensions)) {
      facts.slash_commands.push_back(command.name);
    }
    if (run_->mcp) {
      for (const mcp::ServerStatus& server : run_->mcp->statuses()) {
        facts.mcp_servers.push_back(server.name);
      }
    }
    write(sdk_init(facts));
  }

  void answer(const json& message) {
    const auto started = Clock::now();
    SdkRunFacts facts;
    facts.model = current_model().model.id;
    const auto fail = [&](const std::string& why) {
      facts.end.reason = core::RunStopReason::kError;
      facts.end.error_message = why;
      facts.session_id = session_id_;
      last_was_error_ = true;
      write(sdk_result(facts));
    };
    if (!open()) return fail("the run could not be opened (stderr says why)");
    if (!announced_) {
      announce();
      announced_ = true;
    }
    auto content = message_content(message);
    if (!content.ok()) return fail(content.error());
    std::stop_source run_stop;
    {
      std::lock_guard lock(mutex_);
      run_stop_ = &run_stop;
    }
    const HookNotice notice = [](const std::string& text, bool is_error) {
      std::cerr << "nib: " << (is_error ? "warning: " : "") << text << '\n';
    };
    std::string typed;
    for (const core::ContentBlock& block : content.value()) {
      if (const auto* text = std::get_if<core::TextBlock>(&block)) typed += text->text;
    }
    ModelConfig model = current_model();
    auto resolved =
        resolve_prompt(typed, model, context_with_servers_, run_->mcp.get(), run_stop.get_token());
    if (const auto* failure = std::get_if<PromptFailure>(&resolved)) {
      forget_run_stop();
      return fail(failure->message);
    }
    PromptInput& input = std::get<PromptInput>(resolved);
    for (const std::string& warning : input.warnings) notice(warning, true);
    PromptBlocks blocks;
    for (core::ContentBlock& block : content.value()) {
      if (std::holds_alternative<core::ImageBlock>(block)) blocks.after.push_back(std::move(block));
    }
    for (core::ContentBlock& block : input.media) blocks.after.push_back(std::move(block));
    if (auto refused = admit_prompt(*run_->hooks, run_->session, input.text, std::move(blocks),
                                    std::exchange(session_started_, true) ? "" : "startup",
                                    context_.notices, run_stop.get_token(), notice, input.finish)) {
      forget_run_stop();
      return fail("the prompt was refused by " + *refused);
    }
    const ui::CostFunction cost = cost_function(input.model);
    std::chrono::milliseconds api_time{0};
    auto request_started = Clock::now();
    const auto show = [&](const core::Event& event) {
      if (std::holds_alternative<core::TurnStartEvent>(event)) request_started = Clock::now();
      if (const auto* reply = std::get_if<core::MessageEndEvent>(&event)) {
        api_time +=
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - request_started);
        if (cost) facts.cost_usd = facts.cost_usd.value_or(0) + cost(reply->message.usage);
        write(sdk_assistant(reply->message, session_id_));
      } else if (const auto* results = std::get_if<core::ToolResultsEvent>(&event)) {
        write(sdk_tool_results(results->message, session_id_));
      } else if (const auto* nested = std::get_if<core::SubagentEvent>(&event)) {
        const core::NestedView view = core::innermost(*nested);
        if (const auto* reply = std::get_if<core::MessageEndEvent>(view.event); reply && cost) {
          facts.cost_usd = facts.cost_usd.value_or(0) + cost(reply->message.usage);
        }
      }
    };
    FrontEndWiring front_end{.show = show, .notice = notice};
    if (options_.permission_prompt_tool == "stdio") {
      front_end.ask = [this, &facts](const permissions::ApprovalQuestion& question,
                                     std::stop_token stop) {
        return ask(question, stop, facts.denials);
      };
    }
    front_end.grants = input.grants;
    core::AgentLoop loop(
        assemble_loop(run_options_, input.model, context_with_servers_, *provider_,
                      {run_->session, *run_->subagents, run_->hooks, *run_->tools, run_->plan},
                      std::move(front_end)));
    facts.end = loop.run(run_->session.history(), run_stop.get_token());
    forget_run_stop();
    facts.final_text = final_text(run_->session.history());
    facts.duration_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    facts.duration_api_ms = api_time.count();
    facts.session_id = session_id_;
    // An interrupt the program asked for is no failure: its result says so, and nib's exit
    // status stays 0 (the SDK would throw on 1).
    last_was_error_ = facts.end.reason == core::RunStopReason::kError ||
                      facts.end.reason == core::RunStopReason::kMaxTurns ||
                      facts.end.reason == core::RunStopReason::kMaxBudget;
    write(sdk_result(facts));
  }

  ModelConfig current_model() {
    std::lock_guard lock(mutex_);
    return model_;
  }

  void forget_run_stop() {
    std::lock_guard lock(mutex_);
    run_stop_ = nullptr;
  }

  // What the gate would ask a person goes to the SDK's canUseTool.
  permissions::ApprovalReply ask(const permissions::ApprovalQuestion& question,
                                 std::stop_token stop, std::vector<SdkDenial>& denials) {
    const std::string tool(core::claude_tool_name(question.tool_name));
    std::string id;
    {
      std::lock_guard lock(mutex_);
      id = "nib-" + std::to_string(++next_request_);
      answers_[id];
    }
    write(sdk_can_use_tool(id, tool, question.arguments, question.tool_call_id, question.reason));
    std::optional<json> response;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, stop, [&] { return answers_[id].has_value() || input_ended_; });
      response = std::move(answers_[id]);
      answers_.erase(id);
    }
    if (!response) {
      if (stop.stop_requested()) return permissions::ApprovalAnswer::kInterrupted;
      return {permissions::ApprovalAnswer::kNo};
    }
    const auto deny = [&](std::string message) {
      denials.push_back({tool, question.tool_call_id, question.arguments});
      permissions::ApprovalReply reply(permissions::ApprovalAnswer::kNo);
      reply.message = std::move(message);
      return reply;
    };
    if (response->value("subtype", "") != "success") {
      return deny("canUseTool failed: " + response->value("error", std::string("no answer")));
    }
    const json decision = response->value("response", json::object());
    if (decision.value("behavior", "") != "allow") {
      if (decision.value("interrupt", false)) {
        std::lock_guard lock(mutex_);
        if (run_stop_) run_stop_->request_stop();
      }
      return deny(decision.value("message", std::string("denied by canUseTool")));
    }
    const json updated = decision.value("updatedInput", json());
    if (updated.is_object() && updated != question.arguments) {
      // The call was judged on its own input; running another would skip that judgement.
      return deny(
          "canUseTool allowed it with changed input, which nib does not run: the call was "
          "judged on its own input. Make the call again with the input you want.");
    }
    return permissions::ApprovalAnswer::kYes;
  }

  void write(const json& message) {
    std::lock_guard lock(write_mutex_);
    util::write_all(STDOUT_FILENO, util::redact_secrets(util::json_text(message)) + "\n");
  }

  const CliOptions options_;
  CliOptions run_options_;  // the run thread's: options_ with what initialize brought
  ModelConfig model_;       // guarded by mutex_ (set_model)
  const RunContext& context_;
  RunContext context_with_servers_;
  std::optional<RunResources> run_;
  std::unique_ptr<core::Provider> provider_;
  std::string session_id_;
  bool announced_ = false;
  bool session_started_ = false;
  bool last_was_error_ = false;
  const bool started_in_yolo_;

  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<json> queue_;
  bool input_ended_ = false;
  std::stop_source* run_stop_ = nullptr;                // the running message's
  std::map<std::string, std::optional<json>> answers_;  // by the request ids nib sent
  int next_request_ = 0;
  std::optional<std::string> system_prompt_;
  std::optional<std::string> append_system_prompt_;
  json client_servers_;
  std::mutex write_mutex_;
};

}  // namespace

int run_sdk_mode(const CliOptions& options, const ModelConfig& model, const RunContext& context,
                 std::stop_token stop) {
  for (const std::string& flag : options.unhonoured_flags) {
    std::cerr << "nib: " << flag
              << " is accepted for the Claude Agent SDK but nib does not act "
                 "on it\n";
  }
  for (const std::string& warning : context.guard->warnings())
    std::cerr << "nib: " << warning << '\n';
  SdkSession session(options, model, context);
  return session.serve(stop);
}

}  // namespace nib::app
