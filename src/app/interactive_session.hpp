#pragma once
// One interactive session: the UI thread's event loop (keys from the terminal, messages from
// the run worker, resizes, the spinner's clock), the input editor and its commands, and the
// run worker that talks to the model. Every member runs on the UI thread except the hooks the
// worker and the signal thread call (which only queue and wake).

#include <sys/eventfd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/hook_setup.hpp"
#include "app/interactive_mode.hpp"
#include "app/mcp_prompts.hpp"
#include "app/run_assembly.hpp"
#include "app/session_setup.hpp"
#include "core/agent_loop.hpp"
#include "permissions/approval_policy.hpp"
#include "tools/job_table.hpp"
#include "tools/unique_fd.hpp"
#include "ui/choice_keys.hpp"
#include "ui/inline_renderer.hpp"
#include "ui/interactive_view.hpp"
#include "ui/key_decoder.hpp"
#include "ui/line_editor.hpp"
#include "ui/run_worker.hpp"
#include "ui/terminal.hpp"
#include "ui/transcript.hpp"

namespace nib::app {

// Two Ctrl-C within this time quit: long enough to press twice on purpose, short enough that
// a Ctrl-C long after the first (to clear the editor, to interrupt) does not quit by surprise.
inline constexpr std::chrono::milliseconds kQuitConfirmWindow{2000};
// A lone ESC byte followed by nothing for this long is the Escape key, not the start of a
// sequence (terminals send a key's sequence in one write).
inline constexpr std::chrono::milliseconds kEscapeTimeout{25};

// A bash call that has run this long is offered Ctrl+B (the hint beside "esc to interrupt"):
// long enough that a quick command never flashes it, short enough to help before one waits.
inline constexpr std::chrono::milliseconds kBackgroundHintDelay{2000};

class InteractiveSession {
 public:
  InteractiveSession(const CliOptions& options, const ModelConfig& model, const RunContext& context,
                     const Configuration& configuration, RunResources resources,
                     std::stop_token stop);
  ~InteractiveSession();

  // Runs until the user quits; returns the exit status.
  int run();

 private:
  // --- the event loop (interactive_session.cpp)
  void wait_for_input();
  void read_keys();
  void drain_worker();
  void redraw();
  void reflow();
  void wake();
  ui::ViewState view_state() const;
  void handle_key(const ui::Key& key);
  bool handle_menu_key(const ui::Key& key);
  void handle_approval_key(const ui::Key& key);
  // While the user edits the rules "always" saves: Enter answers, Esc goes back.
  void handle_rule_edit_key(const ui::Key& key);
  // Shift+Tab: auto → ask → read-only → auto (yolo only when the session started in it).
  void cycle_permission_mode();
  // "Always": the rules go to .nib/settings.local.json; a notice says where, or why not.
  void save_rules(const std::vector<std::string>& rules);
  void handle_picker_key(const ui::Key& key);
  void on_control_c();
  // Ctrl+B: asks every running foreground bash call to move into the background (the jobs
  // table does it, see tools/job_table.hpp) and says what happened; false when none runs.
  bool move_commands_to_background();
  void after_edit();
  void submit(std::string text);
  // Runs a command, or starts a run with `text` (a steering message while one works).
  void send(std::string text);
  // Starts a run with the prompt `shown` in the transcript and `sent` to the model (a custom
  // command's expansion), with a skill loaded by /NAME before it, on `model` (the session's,
  // or a command's own).
  void start_run(std::string prompt);
  // Where hooks' warnings and messages go while a job runs (hook_setup.hpp).
  HookNotice hook_notice();
  // `fetch` (an MCP prompt's) gives the turn on the worker's thread instead of `sent`; when it
  // fails, a notice says why and nothing is sent.
  using FetchTurn = std::function<util::Result<McpPromptTurn>(std::stop_token)>;
  void start_run(std::string shown, std::string sent, const ModelConfig& model,
                 FetchTurn fetch = {});
  void on_job_finished();
  void notice(std::string text, ui::NoticeKind kind = ui::NoticeKind::kInfo);
  void refresh_context_estimate();
  void show_loaded_history();

  // --- slash commands (interactive_commands.cpp)
  void run_command(const ui::CommandLine& command, const std::string& text);
  std::vector<ui::Completion> argument_choices(std::string_view command) const;
  void show_help();
  void switch_model(const std::string& id);
  void set_thinking(const std::string& level);
  void compact(const std::string& instructions);
  void new_session();
  void open_resume_picker();
  void resume(const std::filesystem::path& file);
  void show_session_info();
  // /jobs: lists the background jobs; "log N" shows one's last lines, "kill N" ends one.
  void show_jobs(const std::string& argument);
  // A notice in the transcript for each job that has finished since the last call.
  void announce_finished_jobs();
  // A custom command or skill (/NAME after the built-in commands), or a prompt that starts with
  // a path such as /tmp.
  void run_user_command(const ui::CommandLine& command, const std::string& text);
  std::vector<ui::ExtraCommand> user_commands() const;

  // --- MCP (interactive_mcp.cpp)
  // /mcp: every server's state, transport, tools and prompts, as they are now.
  void show_mcp_servers();
  // /mcp__<server>__<prompt> ARGS: the prompt's messages become the next turn.
  void run_mcp_prompt(const ui::CommandLine& command, const std::string& text);
  // The user's commands and skills, then the ready MCP servers' prompts (for /help and
  // completion).
  std::vector<ui::ExtraCommand> offered_commands() const;
  // Asks whether to start the first project server awaiting approval, if any (one question
  // after another); the answer is remembered for the project.
  void ask_next_mcp_approval();
  void approve_mcp_server(const mcp::ServerConfig& server);

  struct Picker {
    ui::PickerView view;
    std::function<void(std::size_t)> choose;
    std::function<void()> cancel = {};  // Esc or Ctrl-C; optional
  };

  CliOptions options_;
  ModelConfig model_;
  const RunContext& context_;
  const Configuration& configuration_;
  std::optional<RunSession> session_;
  std::unique_ptr<core::ToolRegistry> tools_;
  std::shared_ptr<agent::SubagentEnvironment> subagents_;
  std::shared_ptr<hooks::HookSet> hooks_;
  // The MCP servers, adding their tools to tools_ as they become ready: ends before tools_.
  std::unique_ptr<mcp::ServerSet> mcp_;
  std::vector<mcp::ServerConfig> mcp_awaiting_;  // project servers still to ask about
  // The SessionStart hooks have run (with the first prompt). Set by the UI thread as a run
  // starts; the worker clears it again when an MCP prompt could not be fetched, so the hooks
  // run with the next prompt. /clear and /resume clear it: the next prompt starts a session.
  std::atomic<bool> session_started_ = false;
  // The source the next SessionStart names: "startup", "resume" or "clear" (UI thread).
  std::string session_source_;
  std::shared_ptr<tools::PlanBoard> plan_;  // todo_write's; drawn above the editor
  std::vector<ui::ExtraCommand> user_commands_;
  std::string pending_skill_;  // a skill /NAME loaded, for the next prompt
  ModelConfig run_model_;      // the model of the latest run (a command may name its own)
  std::unique_ptr<core::Provider> provider_;

  // What other threads ring to wake the loop: the run worker, the stop callback and the job
  // table, whose listener may run once more as the session ends, so it shares the bell.
  struct Doorbell {
    tools::UniqueFd fd{eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)};
    std::atomic<bool> jobs_changed = false;  // a job started or finished since the loop looked
    void ring() const;
  };
  const std::shared_ptr<Doorbell> doorbell_ = std::make_shared<Doorbell>();
  std::optional<tools::JobTable::Listener> job_listener_;
  std::set<int> announced_job_ends_;  // jobs whose end the transcript has shown
  std::unique_ptr<ui::RawTerminal> terminal_;
  std::unique_ptr<ui::InlineRenderer> renderer_;
  ui::KeyDecoder decoder_;
  ui::LineEditor editor_;
  ui::Transcript transcript_;
  ui::InteractiveView view_;
  ui::RunWorker worker_;
  RunGuard& guard_;             // its policy remembers "always" for the whole session
  const bool started_in_yolo_;  // Shift+Tab reaches yolo only then

  bool quit_ = false;
  bool working_ = false;
  ui::UiClock::time_point working_since_{};
  std::string working_label_;
  core::RunStopReason last_stop_ = core::RunStopReason::kDone;
  std::optional<ui::ApprovalView> approval_;
  std::string draft_before_rules_;  // the editor's text while it holds rules being edited
  std::optional<Picker> picker_;
  ui::CompletionMenu completions_;
  std::optional<std::string> dismissed_completion_;  // the text whose menu Esc closed
  std::string hint_;
  std::optional<ui::UiClock::time_point> last_control_c_;
  core::Usage usage_;  // the session's total, shown in the footer
  std::optional<double> cost_usd_;
  std::size_t context_tokens_ = 0;
  std::atomic<bool> resized_ = false;
  std::atomic<bool> stop_requested_ = false;
  std::stop_callback<std::function<void()>> on_stop_;  // last: it may fire at once
};

}  // namespace nib::app
