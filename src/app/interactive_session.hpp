#pragma once
// One interactive session: the UI thread's event loop (keys from the terminal, messages from
// the run worker, resizes, the spinner's clock), which hands each key to the key controller
// (ui/interactive_controller.hpp) and carries out what it asks; the runs and jobs on the run
// worker; and the slash commands, which act on what the run assembly opened (model, session,
// tools, hooks, MCP servers, background jobs). Every member runs on the UI thread except the
// hooks the worker and the signal thread call (which only queue and wake).

#include <sys/eventfd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/hook_setup.hpp"
#include "app/mcp_prompts.hpp"
#include "app/model_config.hpp"
#include "app/prompt_input.hpp"
#include "app/run_assembly.hpp"
#include "app/run_context.hpp"
#include "app/session_setup.hpp"
#include "app/settings.hpp"
#include "core/agent_loop.hpp"
#include "permissions/approval_policy.hpp"
#include "process/job_table.hpp"
#include "process/unique_fd.hpp"
#include "ui/inline_renderer.hpp"
#include "ui/interactive_controller.hpp"
#include "ui/interactive_view.hpp"
#include "ui/key_decoder.hpp"
#include "ui/run_worker.hpp"
#include "ui/terminal.hpp"
#include "ui/transcript.hpp"

namespace nib::app {

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
  void handle_key(const ui::Key& key);
  void carry_out(const ui::UiAction& action);
  // What the key controller needs to know of the session as a key comes.
  ui::KeyContext key_context() const;
  void redraw();
  void reflow();
  void wake();
  ui::ViewState view_state() const;
  void notice(std::string text, ui::NoticeKind kind = ui::NoticeKind::kInfo);
  // Shows `picker` in place of the editor; `choose` gets the entry chosen, `cancel` (optional)
  // runs on Esc or Ctrl-C.
  void open_picker(ui::PickerView picker, std::function<void(std::size_t)> choose,
                   std::function<void()> cancel = {});

  // --- runs and jobs on the run worker (interactive_run.cpp)
  void drain_worker();
  // A reply's usage in the session's totals (and, for the run's own replies, its context).
  void count_usage(const core::Event& event);
  void on_job_finished();
  void refresh_context_estimate();
  void show_loaded_history();
  // Runs a command, or starts a run with `text` (a steering message while one works).
  void send(std::string text);
  // Starts a run with `prompt` on the session's model.
  void start_run(std::string prompt);
  // Starts a run with the prompt `shown` in the transcript and `sent` to the model (a custom
  // command's expansion), with a skill loaded by /NAME before it, on `model` (the session's,
  // or a command's own). `fetch` (an MCP prompt's) gives the turn on the worker's thread
  // instead of `sent`; when it fails, a notice says why and nothing is sent. `grants`: what a
  // command's allowed-tools allow during the run; `finish`: its !`command`s (admit_prompt).
  using FetchTurn = std::function<util::Result<McpPromptTurn>(std::stop_token)>;
  void start_run(std::string shown, std::string sent, const ModelConfig& model,
                 FetchTurn fetch = {}, std::shared_ptr<const permissions::RuleSet> grants = nullptr,
                 PromptFinish finish = {});
  // /compact: summarises the conversation on the worker, following `instructions`.
  void compact(const std::string& instructions);
  // The footer's working indicator, labelled `label`, for the job about to start.
  void start_working(std::string label);
  // Where a job's notices go (hooks' warnings and messages, compaction's): through the worker
  // to the transcript, from any thread.
  HookNotice job_notice();
  // "Always": the rules go to .nib/settings.local.json; a notice says where, or why not.
  void save_rules(const std::vector<std::string>& rules);

  // --- slash commands (interactive_commands.cpp)
  void run_command(const ui::CommandLine& command, const std::string& text);
  std::vector<ui::Completion> argument_choices(std::string_view command) const;
  void show_help();
  // /model or /thinking without an argument: a picker of the choices.
  void pick_argument(const std::string& command);
  void switch_model(const std::string& id);
  void set_thinking(const std::string& level);
  void new_session();
  void open_resume_picker();
  void resume(const std::filesystem::path& file);
  void show_session_info();
  // /rewind and Esc Esc (interactive_rewind.cpp): a picker of the session's prompts with the
  // files each turn changed, then what to restore; files changed by hand are asked about.
  void open_rewind_picker();
  void choose_rewind_scope(RewindPoint point);
  void rewind_to(RewindRequest request);
  // A custom command or skill (/NAME after the built-in commands), or a prompt that starts with
  // a path such as /tmp.
  void run_user_command(const ui::CommandLine& command, const std::string& text);

  // --- background jobs (interactive_jobs.cpp)
  // /jobs: lists the background jobs; "log N" shows one's last lines, "kill N" ends one.
  void show_jobs(const std::string& argument);
  // A notice in the transcript for each job that has finished since the last call.
  void announce_finished_jobs();
  // Ctrl+B: asks every running foreground bash call to move into the background (the jobs
  // table does it, see tools/job_table.hpp) and says what happened. The key controller asks
  // only while one runs, so there is a jobs table.
  void move_commands_to_background();

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

  // What the open picker's choice does (open_picker).
  struct PickerChoice {
    std::function<void(std::size_t)> choose;
    std::function<void()> cancel;
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
    process::UniqueFd fd{eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)};
    std::atomic<bool> jobs_changed = false;  // a job started or finished since the loop looked
    void ring() const;
  };
  const std::shared_ptr<Doorbell> doorbell_ = std::make_shared<Doorbell>();
  std::optional<process::JobTable::Listener> job_listener_;
  std::set<int> announced_job_ends_;  // jobs whose end the transcript has shown
  std::unique_ptr<ui::RawTerminal> terminal_;
  std::unique_ptr<ui::InlineRenderer> renderer_;
  ui::KeyDecoder decoder_;
  ui::Transcript transcript_;
  ui::InteractiveView view_;
  ui::RunWorker worker_;
  RunGuard& guard_;  // its policy remembers "always" for the whole session
  ui::InteractiveController controller_;
  PickerChoice picker_choice_;

  bool quit_ = false;
  bool working_ = false;
  ui::UiClock::time_point working_since_{};
  std::string working_label_;
  core::RunStopReason last_stop_ = core::RunStopReason::kDone;
  core::Usage usage_;  // the session's total, shown in the footer
  std::optional<double> cost_usd_;
  core::Usage last_reply_usage_;  // the latest reply's, for the footer's cache share
  std::size_t context_tokens_ = 0;
  std::atomic<bool> resized_ = false;
  std::atomic<bool> stop_requested_ = false;
  std::stop_callback<std::function<void()>> on_stop_;  // last: it may fire at once
};

}  // namespace nib::app
