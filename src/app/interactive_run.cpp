// The runs and jobs of InteractiveSession (see interactive_session.hpp): starting a run or a
// compaction on the run worker, and taking in what the worker sends back (events, notices,
// approval questions, the job's end).

#include <utility>

#include "app/compaction_hooks.hpp"
#include "app/interactive_session.hpp"
#include "app/permission_rules.hpp"
#include "app/prompt_input.hpp"
#include "permissions/rule_list.hpp"
#include "session/compaction.hpp"
#include "ui/tool_summary.hpp"
#include "util/json_text.hpp"

namespace nib::app {
namespace {

// The messages a run did not deliver, as one message.
std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "\n\n") + part;
  return text;
}

}  // namespace

void InteractiveSession::drain_worker() {
  const auto now = ui::UiClock::now();
  for (ui::WorkerMessage& message : worker_.take_messages()) {
    if (const auto* event = std::get_if<core::Event>(&message)) {
      transcript_.on_event(*event, now);
      count_usage(*event);
    } else if (const auto* line = std::get_if<ui::JobNotice>(&message)) {
      notice(line->text, line->is_error ? ui::NoticeKind::kError : ui::NoticeKind::kInfo);
    } else if (const auto* question = std::get_if<permissions::ApprovalQuestion>(&message)) {
      controller_.ask(ui::ApprovalView{
          "Allow " +
              ui::ToolPresenter(tools_.get())
                  .call(question->tool_name, util::json_text(question->arguments)) +
              "?",
          question->reason, question->rules, false, question->parts, question->preview});
    } else if (std::holds_alternative<ui::JobFinished>(message)) {
      on_job_finished();
    }
  }
}

void InteractiveSession::count_usage(const core::Event& event) {
  if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    const core::Usage& usage = end->message.usage;
    usage_ += usage;
    last_reply_usage_ = usage;
    if (const auto cost = cost_function(run_model_))
      cost_usd_ = cost_usd_.value_or(0) + cost(usage);
    const auto context = session::reply_context_tokens(usage);
    if (context > 0) context_tokens_ = static_cast<std::size_t>(context);
  } else if (const auto* nested = std::get_if<core::SubagentEvent>(&event)) {
    // A subagent's requests count in the session's totals, not in its context.
    const core::NestedView view = core::innermost(*nested);
    if (const auto* reply = std::get_if<core::MessageEndEvent>(view.event)) {
      usage_ += reply->message.usage;
      if (const auto cost = cost_function(run_model_)) {
        cost_usd_ = cost_usd_.value_or(0) + cost(reply->message.usage);
      }
    }
  } else if (const auto* run_end = std::get_if<core::RunEndEvent>(&event)) {
    last_stop_ = run_end->reason;
  }
}

void InteractiveSession::on_job_finished() {
  working_ = false;
  controller_.withdraw_question();
  refresh_context_estimate();
  std::vector<std::string> undelivered = worker_.take_back_steering();
  if (undelivered.empty()) return;
  if (last_stop_ == core::RunStopReason::kDone && !quit_ && !stop_requested_) {
    // The model finished before a turn boundary came: the messages start the next run.
    start_run(joined(undelivered));
  } else {
    // Interrupted or failed: give them back for the user to send or change.
    if (!controller_.editor().empty()) undelivered.push_back(controller_.editor().text());
    controller_.set_editor_text(joined(undelivered));
  }
}

void InteractiveSession::refresh_context_estimate() {
  if (working_) return;  // the history belongs to the worker meanwhile
  context_tokens_ = static_cast<std::size_t>(session::estimate_context_tokens(session_->history()));
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

void InteractiveSession::send(std::string text) {
  if (const auto command = ui::parse_command(text)) return run_command(*command, text);
  if (working_) return worker_.queue_steering(std::move(text));
  start_run(std::move(text));
}

HookNotice InteractiveSession::job_notice() {
  return [this](const std::string& text, bool is_error) {
    worker_.post(ui::JobNotice{text, is_error});
  };
}

void InteractiveSession::start_run(std::string prompt) {
  std::string sent = prompt;
  start_run(std::move(prompt), std::move(sent), model_);
}

void InteractiveSession::start_run(std::string shown, std::string sent, const ModelConfig& model,
                                   FetchTurn fetch,
                                   std::shared_ptr<const permissions::RuleSet> grants,
                                   PromptFinish finish) {
  transcript_.add_user(shown);
  const std::string session_start =
      session_started_.exchange(true) ? std::string() : session_source_;
  run_model_ = model;
  core::LoopOptions loop = assemble_loop(
      options_, model, context_, *provider_, {*session_, *subagents_, hooks_, *tools_, plan_},
      {.show =
           [this](const core::Event& event) {
             // The transcript shows a command's output with its result: its live pieces would
             // only wake the screen for nothing.
             if (!std::holds_alternative<core::ToolOutputEvent>(event)) worker_.post(event);
           },
       .ask = [this](const permissions::ApprovalQuestion& question,
                     std::stop_token stop) { return worker_.ask_approval(question, stop); },
       .save_rules = [this](const std::vector<std::string>& rules) { save_rules(rules); },
       .notice = job_notice(),
       .grants = std::move(grants),
       .take_steering = [this] { return worker_.take_steering(); }});
  start_working("Working");
  worker_.start([this, loop = std::move(loop), sent = std::move(sent),
                 skill = std::exchange(pending_skill_, {}), session_start, fetch = std::move(fetch),
                 finish = std::move(finish)](std::stop_token stop) mutable {
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
    // A skill that /NAME loaded goes before the prompt it was loaded for.
    PromptBlocks blocks{{}, std::move(media)};
    if (!skill.empty()) blocks.before.push_back(core::TextBlock{skill});
    if (auto refused = admit_prompt(*hooks_, *session_, sent, std::move(blocks), session_start,
                                    context_.notices, stop, job_notice(), finish)) {
      worker_.post(ui::JobNotice{"The prompt was refused by " + *refused, true});
      return;
    }
    core::AgentLoop agent(loop);
    agent.run(session_->history(), stop);
  });
}

void InteractiveSession::compact(const std::string& instructions) {
  if (session_->history().empty()) return notice("Nothing to compact yet.");
  start_working("Compacting");
  worker_.start([this, instructions](std::stop_token stop) {
    const CompactionWork work =
        compaction_work(context_, {*session_, *subagents_, hooks_, *tools_, plan_}, "manual",
                        instructions, job_notice());
    // Asked for explicitly: everything but the latest message is summarised.
    if (session::find_cut_point(session_->history(), 0) == 0) {
      return work.notice("Nothing to compact: the conversation is too short.", false);
    }
    if (auto compaction =
            compact_history(*provider_, model_.model, session_->history(), 0, work, stop)) {
      session_->apply(std::move(*compaction));
    }
  });
}

void InteractiveSession::start_working(std::string label) {
  working_ = true;
  working_since_ = ui::UiClock::now();
  working_label_ = std::move(label);
  last_stop_ = core::RunStopReason::kDone;
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

}  // namespace nib::app
