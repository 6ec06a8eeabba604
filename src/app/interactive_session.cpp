#include "app/interactive_session.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <iostream>
#include <utility>

#include "app/process_hooks.hpp"
#include "app/prompt_history.hpp"
#include "provider/provider_factory.hpp"
#include "ui/tool_summary.hpp"
#include "util/ascii.hpp"
#include "util/blank_text.hpp"
#include "util/fd_io.hpp"

namespace nib::app {
namespace {

// Bytes read from the terminal at a time: a large paste arrives in a few reads.
constexpr std::size_t kReadChunkBytes = 64 * 1024;

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
      controller_(guard_.policy().mode() == permissions::PermissionMode::kYolo,
                  [this](const std::string& text) {
                    return ui::complete(
                        text,
                        [this](std::string_view command) { return argument_choices(command); },
                        offered_commands());
                  }),
      on_stop_(std::move(stop), std::function<void()>([this] {
                 stop_requested_ = true;
                 wake();
               })) {
  if (const auto file = prompt_history_file(context_.places)) {
    controller_.set_history(load_prompt_history(*file));
  }
  for (std::string& problem : resources.problems) {
    notice(util::ascii_capitalized(std::move(problem)), ui::NoticeKind::kWarning);
  }
  for (const std::string& warning : guard_.warnings()) notice(warning, ui::NoticeKind::kWarning);
  // Hooks read the session as it is at each event: /clear and /resume change it.
  session_source_ = context.existing ? "resume" : "startup";
  guard_.follow_session([this] { return session_ ? session_->file() : std::string(); });
  user_commands_ = offered_user_commands(context_.extensions);
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
  if (!util::trim_blanks(options_.prompt).empty()) send(options_.prompt);
  redraw();
  while (!quit_ && !stop_requested_) {
    wait_for_input();
    if (resized_.exchange(false)) reflow();
    redraw();
  }

  // Quitting: the run (if any) is aborted under the core's grace rules and its end recorded.
  worker_.abort();
  worker_.wait();
  end_session_hooks(*hooks_, "prompt_input_exit", job_notice());
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
  } else if (working_ || transcript_.animating() || controller_.quit_confirmation_pending()) {
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
  controller_.advance(ui::UiClock::now());
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

void InteractiveSession::handle_key(const ui::Key& key) {
  if (const std::optional<ui::UiAction> action = controller_.handle_key(key, key_context())) {
    carry_out(*action);
  }
}

ui::KeyContext InteractiveSession::key_context() const {
  ui::KeyContext key;
  key.now = ui::UiClock::now();
  key.working = working_;
  key.commands_running = context_.jobs && !context_.jobs->foreground_starts().empty();
  key.mode = guard_.policy().mode();
  return key;
}

void InteractiveSession::carry_out(const ui::UiAction& action) {
  if (const auto* submitted = std::get_if<ui::SubmitText>(&action)) {
    if (const auto file = prompt_history_file(context_.places)) {
      append_prompt_history(*file, submitted->text);
    }
    send(submitted->text);
  } else if (const auto* answer = std::get_if<ui::AnswerApproval>(&action)) {
    worker_.answer_approval(answer->reply);
  } else if (const auto* chosen = std::get_if<ui::ChoosePickerEntry>(&action)) {
    std::exchange(picker_choice_, {}).choose(chosen->index);
  } else if (std::holds_alternative<ui::CancelPicker>(action)) {
    if (const auto cancel = std::exchange(picker_choice_, {}).cancel) cancel();
  } else if (const auto* mode = std::get_if<ui::SetPermissionMode>(&action)) {
    guard_.approvals().policy().set_mode(mode->mode);
    notice("Permission mode: " + std::string(permissions::mode_name(mode->mode)) +
           " (Shift+Tab changes it)");
  } else if (std::holds_alternative<ui::InterruptRun>(action)) {
    worker_.abort();
    working_label_ = "Interrupting";
  } else if (std::holds_alternative<ui::MoveCommandsToBackground>(action)) {
    move_commands_to_background();
  } else if (std::holds_alternative<ui::Quit>(action)) {
    quit_ = true;
  } else if (std::holds_alternative<ui::Redraw>(action)) {
    reflow();
  } else if (std::holds_alternative<ui::OpenRewind>(action)) {
    open_rewind_picker();
  } else if (std::holds_alternative<ui::SuspendToShell>(action)) {
    terminal_->suspend();
    renderer_->forget_live_region();  // the shell wrote below it meanwhile
  }
}

void InteractiveSession::open_picker(ui::PickerView picker, std::function<void(std::size_t)> choose,
                                     std::function<void()> cancel) {
  controller_.open_picker(std::move(picker));
  picker_choice_ = {std::move(choose), std::move(cancel)};
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
  controller_.show_in(state);
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
  ui::FooterInfo& footer = state.footer;
  footer.model = model_.model.id;
  if (model_.thinking != core::ThinkingLevel::kOff) {
    footer.thinking = core::thinking_level_name(model_.thinking);
  }
  footer.cwd = context_.cwd.string();
  footer.home = context_.places.home.string();
  footer.context_tokens = context_tokens_;
  footer.context_window = static_cast<std::size_t>(std::max(0, model_.model.context_window));
  footer.usage = usage_;
  footer.last_reply = last_reply_usage_;
  footer.cost_usd = cost_usd_;
  footer.permission_mode = std::string(permissions::mode_name(guard_.policy().mode()));
  if (context_.jobs) footer.running_jobs = context_.jobs->running();
  return state;
}

void InteractiveSession::notice(std::string text, ui::NoticeKind kind) {
  transcript_.add_notice(std::move(text), kind);
}

}  // namespace nib::app
