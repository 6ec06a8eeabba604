#include "core/agent_loop.hpp"

namespace nib::core {
namespace {

constexpr const char* kCutAtTokenLimit =
    "Error: this call was not run. Your reply was cut off at the output-token limit, so its "
    "arguments may be incomplete. Issue the call again with complete arguments; split very "
    "large content into several smaller calls.";
constexpr const char* kTurnLimitReached =
    "Error: this call was not run: the run reached its turn limit.";
// Starts the message that tells the model the registry's note (ToolRegistry::note).
constexpr std::string_view kToolNotePrefix = "Note on tools: ";
constexpr const char* kAllToolsHere = "every MCP server is now available.";

// The last note on tools the history told the model ("" when none).
std::string_view last_told_note(const std::vector<Message>& history) {
  for (auto message = history.rbegin(); message != history.rend(); ++message) {
    const auto* user = std::get_if<UserMessage>(&*message);
    if (user == nullptr || user->content.size() != 1) continue;
    const auto* text = std::get_if<TextBlock>(&user->content[0]);
    if (text != nullptr && std::string_view(text->text).starts_with(kToolNotePrefix)) {
      return std::string_view(text->text).substr(kToolNotePrefix.size());
    }
  }
  return {};
}

constexpr const char* kReplyFailed =
    "Error: this call was not run: the reply that contained it failed before it was complete.";

}  // namespace

AgentLoop::AgentLoop(LoopOptions options)
    : options_(std::move(options)),
      scheduler_(SchedulerOptions{options_.tools, options_.pre_tool, options_.gate,
                                  options_.after_tool, options_.on_event, options_.clock,
                                  options_.slots, options_.claims, options_.abort_grace,
                                  options_.cwd, options_.model.edit_style}) {}

void AgentLoop::emit(Event event) const {
  if (options_.on_event) options_.on_event(event);
}

AssistantMessage AgentLoop::request(const ProviderRequest& request, std::stop_token stop) const {
  // One of the process's request slots for as long as the request streams.
  if (!options_.requests->acquire(stop)) {
    AssistantMessage aborted;
    aborted.stop_reason = StopReason::kAborted;
    return aborted;
  }
  struct Release {
    SlotPool* pool;
    ~Release() { pool->release(); }
  } release{options_.requests};
  try {
    return options_.provider->stream(request, stop, [this](const Event& event) { emit(event); });
  } catch (const std::exception& e) {
    AssistantMessage failed;
    failed.stop_reason = StopReason::kError;
    failed.error_message = std::string("the provider failed: ") + e.what();
    failed.error_kind = ErrorKind::kOther;
    return failed;
  }
}

ProviderRequest AgentLoop::request_for(const std::vector<Message>& history) const {
  return ProviderRequest{options_.model,    options_.system_prompt,
                         &history,          options_.tools->specs(options_.model.edit_style),
                         options_.thinking, options_.web_search,
                         options_.cache_key};
}

void AgentLoop::tell_tool_note(std::vector<Message>& history) const {
  const std::string note = options_.tools->note();
  const std::string_view told = last_told_note(history);
  if (note == told || (note.empty() && (told.empty() || told == kAllToolsHere))) return;
  UserMessage message{
      text_content(std::string(kToolNotePrefix) + (note.empty() ? kAllToolsHere : note))};
  history.emplace_back(message);
  emit(UserMessageEvent{std::move(message)});
}

void AgentLoop::record_results(std::vector<Message>& history, ToolResultMessage results) const {
  history.emplace_back(results);
  emit(ToolResultsEvent{std::move(results)});
}

RunEndEvent AgentLoop::run(std::vector<Message>& history, std::stop_token stop) {
  emit(RunStartEvent{});
  RunEndEvent end;
  const auto finish = [&](RunStopReason reason, std::string error = {}) {
    end.reason = reason;
    end.error_message = std::move(error);
    emit(end);
    return end;
  };

  int continued = 0;  // times before_done sent the model on
  while (true) {
    if (stop.stop_requested()) return finish(RunStopReason::kAborted);
    if (options_.spend != nullptr && options_.spend->exhausted()) {
      return finish(RunStopReason::kMaxBudget, options_.spend->exhausted_message());
    }
    ++end.turns;
    emit(TurnStartEvent{end.turns});

    if (options_.before_request) {
      if (auto compaction = options_.before_request(history, stop)) {
        emit(apply_compaction(history, std::move(*compaction)));
      }
    }
    tell_tool_note(history);
    // Built for each request: tools may have joined the registry since the last one (an MCP
    // server that became ready).
    const ProviderRequest request_template = request_for(history);
    AssistantMessage reply = request(request_template, stop);
    const bool overflowed = reply.stop_reason == StopReason::kError &&
                            reply.error_kind == ErrorKind::kContextOverflow && reply.blocks.empty();
    if (overflowed && options_.on_context_overflow) {
      if (auto compaction = options_.on_context_overflow(history, stop)) {
        emit(apply_compaction(history, std::move(*compaction)));
        end.usage += reply.usage;
        if (options_.spend != nullptr) options_.spend->add(options_.model.id, reply.usage);
        reply = request(request_template, stop);
      }
    }
    end.usage += reply.usage;
    if (options_.spend != nullptr) options_.spend->add(options_.model.id, reply.usage);
    const auto calls = tool_calls_of(reply);
    const StopReason stop_reason = reply.stop_reason;
    std::string error = reply.error_message;
    history.emplace_back(reply);
    emit(MessageEndEvent{std::move(reply)});

    // Every tool call in history gets exactly one result, whatever happens next.
    if (stop_reason == StopReason::kError || stop_reason == StopReason::kAborted) {
      if (!calls.empty()) {
        const bool aborted = stop_reason == StopReason::kAborted;
        record_results(history, scheduler_.settle_unrun(
                                    calls, aborted ? kInterruptedBeforeRun : kReplyFailed));
      }
      emit(TurnEndEvent{end.turns});
      return stop_reason == StopReason::kAborted ? finish(RunStopReason::kAborted)
                                                 : finish(RunStopReason::kError, std::move(error));
    }
    if (calls.empty()) {
      emit(TurnEndEvent{end.turns});
      const bool may_go_on = options_.max_turns == 0 || end.turns < options_.max_turns;
      if (options_.before_done && may_go_on && !stop.stop_requested()) {
        if (auto message = options_.before_done(history, continued, stop)) {
          ++continued;
          history.emplace_back(*message);
          emit(UserMessageEvent{std::move(*message)});
          continue;
        }
      }
      return finish(RunStopReason::kDone);
    }
    if (options_.max_turns > 0 && end.turns >= options_.max_turns) {
      record_results(history, scheduler_.settle_unrun(calls, kTurnLimitReached));
      emit(TurnEndEvent{end.turns});
      return finish(RunStopReason::kMaxTurns,
                    "the run reached its turn limit of " + std::to_string(options_.max_turns));
    }
    if (stop_reason == StopReason::kMaxTokens) {
      record_results(history, scheduler_.settle_unrun(calls, kCutAtTokenLimit));
    } else {
      record_results(history, scheduler_.execute_batch(calls, stop));
    }
    emit(TurnEndEvent{end.turns});
    if (options_.take_steering) {
      for (UserMessage& message : options_.take_steering()) {
        history.emplace_back(message);
        emit(UserMessageEvent{std::move(message)});
      }
    }
    if (options_.notices != nullptr) {
      if (std::vector<std::string> notices = options_.notices->take_all(); !notices.empty()) {
        UserMessage message;
        for (std::string& text : notices) message.content.push_back(TextBlock{std::move(text)});
        history.emplace_back(message);
        emit(UserMessageEvent{std::move(message)});
      }
    }
  }
}

}  // namespace nib::core
