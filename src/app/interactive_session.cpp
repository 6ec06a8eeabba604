#include "app/interactive_session.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <iostream>
#include <utility>

#include "app/compaction_hooks.hpp"
#include "app/permission_rules.hpp"
#include "app/permission_setup.hpp"
#include "app/process_hooks.hpp"
#include "app/prompt_history.hpp"
#include "app/run_assembly.hpp"
#include "app/subagent_setup.hpp"
#include "permissions/rule_list.hpp"
#include "provider/provider_factory.hpp"
#include "session/compaction.hpp"
#include "tools/limits.hpp"
#include "ui/tool_summary.hpp"
#include "util/ascii.hpp"
#include "util/fd_io.hpp"

namespace nib::app {
namespace {

// Bytes read from the terminal at a time: a large paste arrives in a few reads.
constexpr std::size_t kReadChunkBytes = 64 * 1024;

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "\n\n") + part;
  return text;
}

bool is_blank(const std::string& text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

InteractiveSession::InteractiveSession(const CliOptions& options, const ModelConfig& model,
                                       const RunContext& context,
                                       const Configuration& configuration, RunResources resources,
                                       std::stop_token stop)
    : options_(options),
      model_(model),
      context_(context),
      configuration_(configuration),
      session_(std::move(resources.session)),
      tools_(std::move(resources.tools)),
      subagents_(std::move(resources.subagents)),
      hooks_(std::move(resources.hooks)),
      mcp_(std::move(resources.mcp)),
      mcp_awaiting_(std::move(resources.mcp_awaiting)),
      plan_(std::move(resources.plan)),
      run_model_(model),
      provider_(provider::make_provider({model.api, model.base_url, model.api_key}, model.retry)),
      transcript_(ui::ToolPresenter(tools_.get())),
      worker_([this] { wake(); }),
      guard_(*context.guard),
      started_in_yolo_(guard_.policy().mode() == permissions::PermissionMode::kYolo),
      on_stop_(std::move(stop), std::function<void()>([this] {
                 stop_requested_ = true;
                 wake();
               })) {
  if (const auto file = prompt_history_file(context_.env)) {
    editor_.set_history(load_prompt_history(*file));
  }
  for (std::string& problem : resources.problems) {
    notice(util::ascii_capitalized(std::move(problem)), ui::NoticeKind::kWarning);
  }
  for (const std::string& warning : guard_.warnings()) notice(warning, ui::NoticeKind::kWarning);
  // Hooks read the session as it is at each event: /clear and /resume change it.
  session_source_ = context.existing ? "resume" : "startup";
  guard_.follow_session([this] { return session_ ? session_->file() : std::string(); });
  user_commands_ = user_commands();
  if (context_.jobs) {
    job_listener_.emplace(*context_.jobs, [bell = doorbell_] {
      bell->jobs_changed = true;
      bell->ring();
    });
  }
}

InteractiveSession::~InteractiveSession() {
  worker_.abort();
  worker_.wait();
}

void InteractiveSession::Doorbell::ring() const {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = write(fd.get(), &one, sizeof one);
}

void InteractiveSession::wake() {
  doorbell_->ring();
}

int InteractiveSession::run() {
  terminal_ = std::make_unique<ui::RawTerminal>(STDIN_FILENO, STDOUT_FILENO);
  if (!terminal_->ok()) {
    std::cerr << "nib: cannot put the terminal in raw mode; use nib -p \"PROMPT\" instead.\n";
    return 2;
  }
  const ui::TerminalSize size = ui::terminal_size(STDOUT_FILENO);
  renderer_ = std::make_unique<ui::InlineRenderer>(
      [](std::string_view bytes) { util::write_all(STDOUT_FILENO, bytes); }, size.columns,
      size.rows);
  const ScopedProcessHook forced_quit(ProcessHook::kForcedQuit, [this] {
    session_->record_forced_quit();
    terminal_->restore();
  });
  const ScopedProcessHook resized(ProcessHook::kTerminalResized, [this] {
    resized_ = true;
    wake();
  });

  show_loaded_history();
  notice(std::string("nib ") + NIB_VERSION +
         " · /help for commands · esc interrupts · ctrl-c twice quits");
  // The question does not hold up a prompt given on the command line.
  ask_next_mcp_approval();
  if (!is_blank(options_.prompt)) send(options_.prompt);
  redraw();
  while (!quit_ && !stop_requested_) {
    wait_for_input();
    if (resized_.exchange(false)) reflow();
    redraw();
  }

  // Quitting: the run (if any) is aborted under the core's grace rules and its end recorded.
  worker_.abort();
  worker_.wait();
  end_session_hooks(*hooks_, "prompt_input_exit", hook_notice());
  drain_worker();
  const auto now = ui::UiClock::now();
  const std::size_t width = renderer_->width();
  ui::LiveFrame last{transcript_.live_rows(width, now), std::nullopt};
  renderer_->update(transcript_.take_committable(width, renderer_->height(), now), last);
  renderer_->finish();
  terminal_->restore();
  if (!session_->file().empty()) {
    std::cout << "Resume this session with: nib --session " << session_->file() << '\n';
  }
  if (!session_->write_error().empty()) {
    std::cerr << "nib: the session could not be saved: " << session_->write_error() << '\n';
  }
  return 0;
}

void InteractiveSession::wait_for_input() {
  pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {doorbell_->fd.get(), POLLIN, 0}};
  int timeout = -1;
  if (decoder_.has_pending()) {
    timeout = static_cast<int>(kEscapeTimeout.count());
  } else if (working_ || transcript_.animating() || last_control_c_) {
    timeout = static_cast<int>(ui::kSpinnerFrame.count());
  }
  const int ready = poll(fds, 2, timeout);
  if (ready < 0) {
    if (errno != EINTR) quit_ = true;
    return;
  }
  if (ready == 0 && decoder_.has_pending()) {
    for (const ui::Key& key : decoder_.flush()) handle_key(key);
  }
  if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) read_keys();
  if ((fds[1].revents & POLLIN) != 0) {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto got = read(doorbell_->fd.get(), &count, sizeof count);
  }
  drain_worker();
  if (doorbell_->jobs_changed.exchange(false)) announce_finished_jobs();
  if (last_control_c_ && ui::UiClock::now() - *last_control_c_ >= kQuitConfirmWindow) {
    last_control_c_.reset();
    hint_.clear();
  }
}

void InteractiveSession::read_keys() {
  std::array<char, kReadChunkBytes> buffer;
  const ssize_t got = read(STDIN_FILENO, buffer.data(), buffer.size());
  if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
    quit_ = true;  // the terminal went away
    return;
  }
  if (got < 0) return;
  const std::string_view bytes(buffer.data(), static_cast<std::size_t>(got));
  for (const ui::Key& key : decoder_.feed(bytes)) handle_key(key);
}

void InteractiveSession::drain_worker() {
  const auto now = ui::UiClock::now();
  for (ui::WorkerMessage& message : worker_.take_messages()) {
    if (const auto* event = std::get_if<core::Event>(&message)) {
      transcript_.on_event(*event, now);
      if (const auto* end = std::get_if<core::MessageEndEvent>(event)) {
        const core::Usage& usage = end->message.usage;
        usage_ += usage;
        if (const auto cost = cost_function(run_model_))
          cost_usd_ = cost_usd_.value_or(0) + cost(usage);
        // The request's whole size: what the model saw plus what it wrote.
        const auto context = usage.input_tokens + usage.cache_read_tokens +
                             usage.cache_write_tokens + usage.output_tokens;
        if (context > 0) context_tokens_ = static_cast<std::size_t>(context);
      } else if (const auto* nested = std::get_if<core::SubagentEvent>(event)) {
        // A subagent's requests count in the session's totals, not in its context.
        const core::NestedView view = core::innermost(*nested);
        if (const auto* reply = std::get_if<core::MessageEndEvent>(view.event)) {
          usage_ += reply->message.usage;
          if (const auto cost = cost_function(run_model_))
            cost_usd_ = cost_usd_.value_or(0) + cost(reply->message.usage);
        }
      } else if (const auto* run_end = std::get_if<core::RunEndEvent>(event)) {
        last_stop_ = run_end->reason;
      }
    } else if (const auto* line = std::get_if<ui::JobNotice>(&message)) {
      notice(line->text, line->is_error ? ui::NoticeKind::kError : ui::NoticeKind::kInfo);
    } else if (const auto* question = std::get_if<permissions::ApprovalQuestion>(&message)) {
      approval_ = ui::ApprovalView{"Allow " +
                                       ui::ToolPresenter(tools_.get())
                                           .call(question->tool_name, question->arguments.dump()) +
                                       "?",
                                   question->reason,
                                   question->rules,
                                   false,
                                   question->parts,
                                   question->preview};
    } else if (std::holds_alternative<ui::JobFinished>(message)) {
      on_job_finished();
    }
  }
}

void InteractiveSession::on_job_finished() {
  working_ = false;
  approval_.reset();
  refresh_context_estimate();
  std::vector<std::string> undelivered = worker_.take_back_steering();
  if (undelivered.empty()) return;
  if (last_stop_ == core::RunStopReason::kDone && !quit_ && !stop_requested_) {
    // The model finished before a turn boundary came: the messages start the next run.
    start_run(joined(undelivered));
  } else {
    // Interrupted or failed: give them back for the user to send or change.
    if (!editor_.empty()) undelivered.push_back(editor_.text());
    editor_.set_text(joined(undelivered));
    after_edit();
  }
}

void InteractiveSession::refresh_context_estimate() {
  if (working_) return;  // the history belongs to the worker meanwhile
  context_tokens_ = static_cast<std::size_t>(session::estimate_context_tokens(session_->history()));
}

void InteractiveSession::redraw() {
  const ui::ScreenUpdate update = view_.update(transcript_, view_state(), renderer_->width(),
                                               renderer_->height(), ui::UiClock::now());
  renderer_->update(update.committed, update.live);
}

void InteractiveSession::reflow() {
  const ui::TerminalSize size = ui::terminal_size(STDOUT_FILENO);
  renderer_->resize(size.columns, size.rows);
  transcript_.recommit_all();
}

ui::ViewState InteractiveSession::view_state() const {
  ui::ViewState state;
  state.editor = &editor_;
  state.working = working_;
  state.working_since = working_since_;
  state.working_label = working_label_;
  if (context_.jobs) {
    const std::vector<std::chrono::steady_clock::time_point> starts =
        context_.jobs->foreground_starts();
    const auto now = std::chrono::steady_clock::now();
    if (std::any_of(starts.begin(), starts.end(),
                    [now](auto started) { return now - started >= kBackgroundHintDelay; })) {
      state.movable_commands = starts.size();
    }
  }
  state.queued = worker_.queued_steering();
  state.plan = plan_->current();
  state.approval = approval_;
  if (picker_) state.picker = picker_->view;
  state.completions = completions_.entries;
  state.completion_selected = completions_.selected;
  state.hint = hint_;
  ui::FooterInfo& footer = state.footer;
  footer.model = model_.model.id;
  if (model_.thinking != core::ThinkingLevel::kOff) {
    footer.thinking = core::thinking_level_name(model_.thinking);
  }
  footer.cwd = context_.cwd.string();
  footer.home = context_.env("HOME").value_or("");
  footer.context_tokens = context_tokens_;
  footer.context_window = static_cast<std::size_t>(std::max(0, model_.model.context_window));
  footer.usage = usage_;
  footer.cost_usd = cost_usd_;
  footer.permission_mode = std::string(permissions::mode_name(guard_.policy().mode()));
  if (context_.jobs) footer.running_jobs = context_.jobs->running();
  return state;
}

void InteractiveSession::notice(std::string text, ui::NoticeKind kind) {
  transcript_.add_notice(std::move(text), kind);
}

void InteractiveSession::show_loaded_history() {
  const std::vector<core::Message>& history = session_->history();
  if (history.empty()) return;
  auto first = history.begin();
  if (session::is_summary_message(*first)) {
    notice("(The earlier part of this conversation was summarised.)");
    ++first;
  }
  transcript_.add_history({first, history.end()});
  refresh_context_estimate();
}

// --- keys

void InteractiveSession::handle_key(const ui::Key& key) {
  if (approval_) return handle_approval_key(key);
  if (picker_) return handle_picker_key(key);
  if (key.code == ui::KeyCode::kCtrl && key.ctrl == 'c') return on_control_c();
  if (key.code == ui::KeyCode::kCtrl && key.ctrl == 'b' && move_commands_to_background()) return;
  if (handle_menu_key(key)) return;
  if (key.code == ui::KeyCode::kShiftTab) return cycle_permission_mode();
  if (key.code == ui::KeyCode::kEscape) {
    if (working_) {
      worker_.abort();
      working_label_ = "Interrupting";
    }
    return;
  }
  if (key.code == ui::KeyCode::kCtrl && key.ctrl == 'd' && editor_.empty()) {
    quit_ = true;
    return;
  }
  if (key.code == ui::KeyCode::kCtrl && key.ctrl == 'l') return reflow();
  if (key.code == ui::KeyCode::kCtrl && key.ctrl == 'z') {
    terminal_->suspend();
    renderer_->forget_live_region();  // the shell wrote below it meanwhile
    return;
  }
  if (editor_.handle(key) == ui::EditResult::kSubmit) submit(editor_.take_submission());
  after_edit();
}

bool InteractiveSession::handle_menu_key(const ui::Key& key) {
  const ui::MenuKey action = ui::handle_menu_key(completions_, key);
  switch (action.kind) {
    case ui::MenuKeyKind::kNotHandled:
      return false;
    case ui::MenuKeyKind::kMoved:
      break;
    case ui::MenuKeyKind::kAccept:
      editor_.set_text(action.text);
      after_edit();
      break;
    case ui::MenuKeyKind::kSubmit:
      editor_.set_text(action.text);
      submit(editor_.take_submission());
      after_edit();
      break;
    case ui::MenuKeyKind::kDismiss:
      dismissed_completion_ = editor_.text();
      completions_.entries.clear();
      break;
  }
  return true;
}

void InteractiveSession::cycle_permission_mode() {
  using permissions::PermissionMode;
  permissions::PermissionPolicy& policy = guard_.approvals().policy();
  PermissionMode next = PermissionMode::kAuto;
  switch (policy.mode()) {
    case PermissionMode::kAuto:
      next = PermissionMode::kAsk;
      break;
    case PermissionMode::kAsk:
      next = PermissionMode::kReadOnly;
      break;
    case PermissionMode::kReadOnly:
      next = started_in_yolo_ ? PermissionMode::kYolo : PermissionMode::kAuto;
      break;
    case PermissionMode::kYolo:
      break;
  }
  policy.set_mode(next);
  notice("Permission mode: " + std::string(permissions::mode_name(next)) +
         " (Shift+Tab changes it)");
}

void InteractiveSession::save_rules(const std::vector<std::string>& rules) {
  // Called on the run's thread: the notice goes through the worker.
  const util::Status saved = save_local_rules(context_.cwd, permissions::RuleList::kAllow, rules);
  const std::string text = permissions::joined_rules(rules);
  worker_.post(
      saved.ok()
          ? ui::JobNotice{"Allowed from now on (saved in .nib/settings.local.json): " + text, false}
          : ui::JobNotice{"Allowed for this session only (" + saved.error() + "): " + text, true});
}

void InteractiveSession::handle_approval_key(const ui::Key& key) {
  if (approval_->editing_rules) return handle_rule_edit_key(key);
  if (key.code == ui::KeyCode::kText && (key.text == "e" || key.text == "E") &&
      !approval_->rules.empty()) {
    // The draft waits while the editor holds the rules.
    draft_before_rules_ = editor_.text();
    editor_.set_text(permissions::joined_rules(approval_->rules));
    approval_->editing_rules = true;
    return;
  }
  const auto answer = ui::approval_answer(key);
  if (!answer) return;
  worker_.answer_approval(*answer);
  approval_.reset();
}

void InteractiveSession::handle_rule_edit_key(const ui::Key& key) {
  if (key.code == ui::KeyCode::kEscape) {
    editor_.set_text(draft_before_rules_);
    approval_->editing_rules = false;
    return;
  }
  if (editor_.handle(key) != ui::EditResult::kSubmit) return;
  const std::vector<std::string> rules = permissions::split_rules(editor_.take_submission());
  editor_.set_text(draft_before_rules_);
  if (rules.empty()) {
    approval_->editing_rules = false;
    return;
  }
  worker_.answer_approval(permissions::ApprovalReply(permissions::ApprovalAnswer::kAlways, rules));
  approval_.reset();
}

void InteractiveSession::handle_picker_key(const ui::Key& key) {
  switch (ui::handle_picker_key(picker_->view, key)) {
    case ui::PickerKey::kNone:
      break;
    case ui::PickerKey::kChosen: {
      const Picker chosen = std::move(*picker_);
      picker_.reset();
      chosen.choose(chosen.view.selected);
      break;
    }
    case ui::PickerKey::kCancelled: {
      const auto cancel = std::move(picker_->cancel);
      picker_.reset();
      if (cancel) cancel();
      break;
    }
  }
}

void InteractiveSession::on_control_c() {
  const auto now = ui::UiClock::now();
  if (last_control_c_ && now - *last_control_c_ < kQuitConfirmWindow) {
    quit_ = true;
    return;
  }
  last_control_c_ = now;
  if (working_) {
    worker_.abort();
    working_label_ = "Interrupting";
  } else if (!editor_.empty()) {
    editor_.set_text("");
    after_edit();
  }
  hint_ = "Press Ctrl-C again to quit";
}

bool InteractiveSession::move_commands_to_background() {
  if (!context_.jobs || context_.jobs->foreground_starts().empty()) return false;
  const tools::MoveOutcome moved = context_.jobs->move_foreground_to_background();
  const auto calls = [](std::size_t count) {
    return count == 1 ? std::string("the running bash call")
                      : "the " + std::to_string(count) + " running bash calls";
  };
  if (moved.moving > 0) {
    notice("Moving " + calls(moved.moving) +
           " into the background: the model gets the job's number at once, and /jobs lists it.");
  }
  if (moved.refused > 0) {
    std::string text = calls(moved.refused) + (moved.refused == 1 ? " stays" : " stay") +
                       " in the foreground: " + std::to_string(tools::kMaxRunningJobs) +
                       " background jobs run, the most nib runs at once. End one with /jobs kill "
                       "N, then press Ctrl+B again.";
    notice(util::ascii_capitalized(std::move(text)), ui::NoticeKind::kWarning);
  }
  return true;
}

void InteractiveSession::after_edit() {
  if (editor_.text() == dismissed_completion_) return;
  dismissed_completion_.reset();
  // Only a command line has completions: the commands (MCP prompts among them) are gathered
  // for it alone, not on every key of a prompt.
  completions_.entries.clear();
  if (editor_.text().starts_with('/')) {
    completions_.entries = ui::complete(
        editor_.text(), [this](std::string_view command) { return argument_choices(command); },
        offered_commands());
  }
  if (completions_.selected >= completions_.entries.size()) completions_.selected = 0;
}

void InteractiveSession::submit(std::string text) {
  if (is_blank(text)) return;
  if (const auto file = prompt_history_file(context_.env)) append_prompt_history(*file, text);
  send(std::move(text));
}

void InteractiveSession::send(std::string text) {
  if (const auto command = ui::parse_command(text)) return run_command(*command, text);
  if (working_) return worker_.queue_steering(std::move(text));
  start_run(std::move(text));
}

HookNotice InteractiveSession::hook_notice() {
  return [this](const std::string& text, bool is_error) {
    worker_.post(ui::JobNotice{text, is_error});
  };
}

void InteractiveSession::start_run(std::string prompt) {
  std::string sent = prompt;
  start_run(std::move(prompt), std::move(sent), model_);
}

void InteractiveSession::start_run(std::string shown, std::string sent, const ModelConfig& model,
                                   FetchTurn fetch) {
  transcript_.add_user(shown);
  const std::string session_start =
      session_started_.exchange(true) ? std::string() : session_source_;
  run_model_ = model;
  core::LoopOptions loop = base_loop_options(options_, model, context_, *provider_, *tools_);
  loop.on_event = [this](const core::Event& event) {
    session_->on_event(event);
    worker_.post(event);
  };
  loop.take_steering = [this] { return worker_.take_steering(); };
  guard_.guard(
      loop,
      [this](const permissions::ApprovalQuestion& question, std::stop_token stop) {
        return worker_.ask_approval(question, stop);
      },
      [this](const std::vector<std::string>& rules) { save_rules(rules); });
  install_compaction(
      loop, context_.compaction,
      [this](const std::string& text, bool is_error) {
        worker_.post(ui::JobNotice{text, is_error});
      },
      [this](std::stop_token stop) {
        pre_compact_hooks(*hooks_, "auto", "", stop, hook_notice());
      });
  lend_run_to_subagents(*subagents_, loop, model, session_->file());
  install_stop_hooks(loop, *subagents_, hooks_, hook_notice());
  working_ = true;
  working_since_ = ui::UiClock::now();
  working_label_ = "Working";
  last_stop_ = core::RunStopReason::kDone;
  worker_.start([this, loop = std::move(loop), sent = std::move(sent),
                 skill = std::exchange(pending_skill_, {}), session_start,
                 fetch = std::move(fetch)](std::stop_token stop) mutable {
    core::Content media;  // an MCP prompt's images, after its text
    if (fetch) {
      auto turn = fetch(stop);
      if (!turn.ok()) {
        if (!session_start.empty()) session_started_ = false;  // no prompt was sent
        worker_.post(ui::JobNotice{turn.error(), true});
        return;
      }
      sent = std::move(turn.value().text);
      media = std::move(turn.value().media);
    }
    // The hooks run here, off the terminal's thread; the history is the worker's meanwhile.
    CheckedPrompt checked = check_prompt(*hooks_, sent, session_start, stop, hook_notice());
    if (!checked.message) {
      worker_.post(ui::JobNotice{"The prompt was refused by " + checked.refusal, true});
      return;
    }
    // A skill that /NAME loaded goes before the prompt it was loaded for.
    if (!skill.empty()) {
      checked.message->content.insert(checked.message->content.begin(), core::TextBlock{skill});
    }
    for (core::ContentBlock& block : media) checked.message->content.push_back(std::move(block));
    session_->add_prompt(std::move(*checked.message), context_.notices);
    core::AgentLoop agent(loop);
    agent.run(session_->history(), stop);
  });
}

}  // namespace nib::app
