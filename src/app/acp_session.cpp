#include "app/acp_session.hpp"

#include <variant>

#include "acp/client_files.hpp"
#include "acp/permission_request.hpp"
#include "acp/prompt_content.hpp"
#include "app/extension_setup.hpp"
#include "app/hook_setup.hpp"
#include "app/mcp_prompts.hpp"
#include "app/permission_rules.hpp"
#include "app/prompt_input.hpp"
#include "core/agent_loop.hpp"
#include "mcp/json_rpc.hpp"
#include "permissions/rule_list.hpp"
#include "provider/provider_factory.hpp"
#include "session/compaction.hpp"
#include "session/session_file.hpp"
#include "session/session_summary.hpp"

namespace nib::app {
namespace {

using nlohmann::json;

json text_chunk(const char* kind, const std::string& text) {
  return {{"sessionUpdate", kind}, {"content", {{"type", "text"}, {"text", text}}}};
}

// ACP's stop reason for how a run ended.
std::string stop_reason(const core::RunEndEvent& end, const std::vector<core::Message>& history) {
  switch (end.reason) {
    case core::RunStopReason::kAborted:
      return "cancelled";
    case core::RunStopReason::kMaxTurns:
    case core::RunStopReason::kMaxBudget:  // ACP has no reason of its own for a spending cap
      return "max_turn_requests";
    case core::RunStopReason::kDone:
    case core::RunStopReason::kError:
      break;
  }
  if (!history.empty()) {
    const auto* last = std::get_if<core::AssistantMessage>(&history.back());
    if (last != nullptr && last->stop_reason == core::StopReason::kMaxTokens) return "max_tokens";
  }
  return "end_turn";
}

// The prompt's first text block: what a /command would be typed in.
std::string first_text(const core::Content& content) {
  for (const core::ContentBlock& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) return text->text;
  }
  return {};
}

}  // namespace

util::Result<std::unique_ptr<AcpSession>> AcpSession::open(const AcpSessionRequest& request,
                                                           acp::RpcPeer& peer, std::ostream& log) {
  using Result = util::Result<std::unique_ptr<AcpSession>>;
  CliOptions options = *request.options;
  options.continue_latest = false;
  options.resume_id.reset();
  options.session_file.reset();
  if (request.load) options.resume_id = *request.load;
  auto configuration = load_tree_configuration(request.places, request.cwd);
  if (!configuration.ok()) return Result::failure(configuration.error());
  auto existing = load_named_session(options, request.places, request.cwd);
  if (!existing.ok()) return Result::failure(existing.error());
  auto setup = open_run_setup(options, request.places, request.cwd,
                              std::move(configuration.value()), std::move(existing.value()), log);
  if (!setup.ok()) return Result::failure(setup.error());
  setup.value()->context.client_servers = request.client_servers;
  auto id = std::make_shared<std::string>();
  setup.value()->context.editor_files = acp::client_files(peer, request.client_capabilities, id);
  auto run = open_run(options, setup.value()->model, setup.value()->context);
  if (!run.ok()) return Result::failure(run.error());
  for (const std::string& problem : run.value().problems)
    log << "nib: warning: " << problem << '\n';
  for (const std::string& warning : setup.value()->guard->warnings()) {
    log << "nib: " << warning << '\n';
  }
  for (const std::string& notice : run.value().mcp_notices) log << "nib: " << notice << '\n';
  std::unique_ptr<AcpSession> session(new AcpSession(
      peer, log, std::move(options), std::move(setup.value()), std::move(run.value()), id));
  session->session_source_ = request.load ? "resume" : "startup";
  return session;
}

AcpSession::AcpSession(acp::RpcPeer& peer, std::ostream& log, CliOptions options,
                       std::unique_ptr<RunSetup> setup, RunResources run,
                       std::shared_ptr<std::string> id)
    : peer_(peer),
      log_(log),
      options_(std::move(options)),
      setup_(std::move(setup)),
      run_(std::move(run)),
      provider_(provider::make_provider(
          {setup_->model.api, setup_->model.base_url, setup_->model.api_key}, setup_->model.retry)),
      id_(std::move(id)),
      updates_(*run_.tools, setup_->context.cwd, setup_->model.model.context_window,
               cost_function(setup_->model)) {
  const std::string file = run_.session.file();
  *id_ = file.empty() ? session::new_session_id() : session::summarize_session(file).id;
  yolo_offered_ = setup_->guard->policy().mode() == permissions::PermissionMode::kYolo;
  setup_->guard->follow_session([this] { return run_.session.file(); });
}

AcpSession::~AcpSession() {
  cancel();
  std::jthread running;
  {
    std::lock_guard lock(prompt_mutex_);
    running = std::move(prompt_);
  }
  if (running.joinable()) running.join();  // its calls have their results, its answer is sent
  if (started_) {
    end_session_hooks(*run_.hooks, "other", [this](const std::string& text, bool is_error) {
      log_ << "nib: " << (is_error ? "warning: " : "") << text << '\n';
    });
  }
  if (!run_.session.write_error().empty()) {
    log_ << "nib: the session could not be saved: " << run_.session.write_error() << '\n';
  }
}

json AcpSession::modes() const {
  json available = json::array();
  for (const permissions::PermissionMode mode :
       {permissions::PermissionMode::kAuto, permissions::PermissionMode::kAsk,
        permissions::PermissionMode::kReadOnly, permissions::PermissionMode::kYolo}) {
    if (mode == permissions::PermissionMode::kYolo && !yolo_offered_) continue;
    const std::string name(permissions::mode_name(mode));
    available.push_back(
        {{"id", name}, {"name", name}, {"description", permissions::mode_description(mode)}});
  }
  return {{"currentModeId", permissions::mode_name(setup_->guard->policy().mode())},
          {"availableModes", std::move(available)}};
}

std::vector<json> AcpSession::replay() {
  std::vector<core::Message> shown = run_.session.history();
  if (!shown.empty() && session::is_summary_message(shown.front())) {
    shown.erase(shown.begin());  // the summary is the model's, not the conversation's
  }
  return updates_.replay(shown);
}

void AcpSession::announce_commands() {
  std::vector<ui::ExtraCommand> offered = offered_user_commands(setup_->context.extensions);
  if (run_.mcp) {
    for (ui::ExtraCommand& prompt : mcp_prompt_commands(run_.mcp->statuses())) {
      offered.push_back(std::move(prompt));
    }
  }
  json commands = json::array();
  for (const ui::ExtraCommand& command : offered) {
    json entry = {{"name", command.name}, {"description", command.help}};
    if (!command.argument.empty()) entry["input"] = {{"hint", command.argument}};
    commands.push_back(std::move(entry));
  }
  if (commands == announced_commands_) return;
  announced_commands_ = commands;
  update({{"sessionUpdate", "available_commands_update"}, {"availableCommands", commands}});
}

bool AcpSession::busy() const {
  std::lock_guard lock(prompt_mutex_);
  return prompt_running_;
}

void AcpSession::prompt(json id, json prompt) {
  std::lock_guard lock(prompt_mutex_);
  prompt_running_ = true;
  std::jthread finished = std::move(prompt_);  // the previous prompt's thread, already done
  prompt_ =
      std::jthread([this, id = std::move(id), prompt = std::move(prompt)](std::stop_token stop) {
        run_prompt(id, prompt, stop);
        std::lock_guard done(prompt_mutex_);
        prompt_running_ = false;
      });
}

void AcpSession::cancel() {
  std::lock_guard lock(prompt_mutex_);
  if (prompt_running_) prompt_.request_stop();
}

util::Status AcpSession::set_mode(const std::string& mode_id) {
  const auto mode = permissions::parse_mode(mode_id);
  if (!mode.ok()) return util::Status::failure(mode.error());
  if (mode.value() == permissions::PermissionMode::kYolo && !yolo_offered_) {
    return util::Status::failure(
        "yolo is offered only to a session started in it (nib acp --permission-mode yolo)");
  }
  setup_->guard->approvals().policy().set_mode(mode.value());
  update({{"sessionUpdate", "current_mode_update"},
          {"currentModeId", permissions::mode_name(mode.value())}});
  return util::Status::success();
}

void AcpSession::run_prompt(const json& id, const json& prompt, std::stop_token stop) {
  auto content = acp::prompt_content(prompt);
  if (!content.ok()) {
    peer_.respond_error(id, mcp::kInvalidParams, content.error());
    return;
  }
  // A /command in the first text block is expanded as in print mode; the other blocks follow.
  const std::string typed = first_text(content.value());
  auto resolved = resolve_prompt(typed, setup_->model, setup_->context, run_.mcp.get(), stop);
  if (const auto* failure = std::get_if<PromptFailure>(&resolved)) {
    peer_.respond_error(id, mcp::kInvalidParams, failure->message);
    return;
  }
  PromptInput& input = std::get<PromptInput>(resolved);
  const FrontEndWiring front_end = wiring();
  for (const std::string& warning : input.warnings) front_end.notice(warning, true);
  const std::string session_start = std::exchange(started_, true) ? "" : session_source_;
  // The blocks after the first text, which was the typed prompt (checked and expanded above).
  PromptBlocks blocks;
  bool past_typed = false;
  for (core::ContentBlock& block : content.value()) {
    if (std::holds_alternative<core::TextBlock>(block) && !past_typed) {
      past_typed = true;
      continue;
    }
    blocks.after.push_back(std::move(block));
  }
  for (core::ContentBlock& block : input.media) blocks.after.push_back(std::move(block));
  if (auto refused =
          admit_prompt(*run_.hooks, run_.session, input.text, std::move(blocks), session_start,
                       &setup_->notices, stop, front_end.notice, input.finish)) {
    update(text_chunk("agent_message_chunk", "The prompt was refused by " + *refused));
    peer_.respond(id, {{"stopReason", "refusal"}});
    return;
  }
  FrontEndWiring run_wiring = wiring();
  run_wiring.grants = input.grants;
  core::AgentLoop loop(assemble_loop(
      options_, input.model, setup_->context, *provider_,
      {run_.session, *run_.subagents, run_.hooks, *run_.tools, run_.plan}, std::move(run_wiring)));
  const core::RunEndEvent end = loop.run(run_.session.history(), stop);
  announce_commands();
  if (end.reason == core::RunStopReason::kError) {
    peer_.respond_error(id, mcp::kInternalError, end.error_message);
    return;
  }
  peer_.respond(id, {{"stopReason", stop_reason(end, run_.session.history())}});
}

void AcpSession::update(json update) {
  peer_.notify("session/update", {{"sessionId", *id_}, {"update", std::move(update)}});
}

FrontEndWiring AcpSession::wiring() {
  return {
      .show =
          [this](const core::Event& event) {
            for (json& made : updates_.on_event(event)) update(std::move(made));
          },
      .ask = [this](const permissions::ApprovalQuestion& question,
                    std::stop_token stop) { return ask(question, stop); },
      .save_rules = [this](const std::vector<std::string>& rules) { save_rules(rules); },
      .notice =
          [this](const std::string& text, bool is_error) {
            update(text_chunk("agent_thought_chunk",
                              std::string(is_error ? "nib: warning: " : "nib: ") + text + "\n"));
          }};
}

permissions::ApprovalReply AcpSession::ask(const permissions::ApprovalQuestion& question,
                                           std::stop_token stop) {
  {
    std::lock_guard lock(rejected_mutex_);
    const bool rejected =
        !question.rules.empty() &&
        std::all_of(question.rules.begin(), question.rules.end(),
                    [&](const std::string& rule) { return rejected_rules_.count(rule) > 0; });
    if (rejected) return permissions::ApprovalAnswer::kNo;
  }
  auto answered = peer_.request("session/request_permission",
                                acp::permission_request(*id_, question, *run_.tools), stop);
  if (!answered.ok()) {
    return stop.stop_requested() ? permissions::ApprovalAnswer::kInterrupted
                                 : permissions::ApprovalAnswer::kNo;
  }
  const acp::PermissionAnswer answer = acp::permission_answer(answered.value());
  if (answer.answer == permissions::ApprovalAnswer::kNo && answer.always) {
    std::lock_guard lock(rejected_mutex_);
    rejected_rules_.insert(question.rules.begin(), question.rules.end());
  }
  return answer.answer;
}

void AcpSession::save_rules(const std::vector<std::string>& rules) {
  const util::Status saved =
      save_local_rules(setup_->context.cwd, permissions::RuleList::kAllow, rules);
  const std::string text = permissions::joined_rules(rules);
  wiring().notice(saved.ok() ? "Allowed from now on (saved in .nib/settings.local.json): " + text
                             : "Allowed for this session only (" + saved.error() + "): " + text,
                  !saved.ok());
}

}  // namespace nib::app
