#include "ui/transcript.hpp"

#include <algorithm>

#include "ui/markdown.hpp"
#include "ui/tool_summary.hpp"
#include "ui/web_search_summary.hpp"
#include "util/secret_redaction.hpp"

namespace nib::ui {

void Transcript::add_user(std::string text) {
  items_.emplace_back(UserItem{std::move(text)});
}

void Transcript::add_notice(std::string text, NoticeKind kind) {
  // Notices carry services' error texts, which may echo the key nib sent.
  items_.emplace_back(NoticeItem{util::redact_secrets(std::move(text)), kind});
}

template <typename Item>
Item* Transcript::streaming_last() {
  if (items_.empty()) return nullptr;
  auto* item = std::get_if<Item>(&items_.back());
  return item != nullptr && item->streaming ? item : nullptr;
}

ToolItem* Transcript::tool(const std::string& id) {
  // Only among the current reply's calls: some services number call ids per reply ("call_1"
  // again in every turn), so an earlier turn's row must not be taken for this one's.
  for (std::size_t index = items_.size(); index > message_start_; --index) {
    auto* found = std::get_if<ToolItem>(&items_[index - 1]);
    if (found != nullptr && found->id == id) return found;
  }
  return nullptr;
}

void Transcript::finish_streaming() {
  for (std::size_t index = message_start_; index < items_.size(); ++index) {
    TranscriptItem& item = items_[index];
    if (auto* assistant = std::get_if<AssistantItem>(&item)) assistant->streaming = false;
    if (auto* thinking = std::get_if<ThinkingItem>(&item)) thinking->streaming = false;
  }
}

void Transcript::on_event(const core::Event& event, UiClock::time_point now) {
  if (std::holds_alternative<core::TurnStartEvent>(event)) {
    message_start_ = items_.size();
  } else if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) {
    if (auto* last = streaming_last<AssistantItem>()) {
      last->markdown += text->text;
      if (last->markdown.size() > kStreamingSplitBytes) split_streaming_reply(now);
    } else {
      if (auto* thought = streaming_last<ThinkingItem>()) thought->streaming = false;
      items_.emplace_back(AssistantItem{text->text});
    }
  } else if (const auto* thinking = std::get_if<core::ThinkingDeltaEvent>(&event)) {
    if (auto* last = streaming_last<ThinkingItem>()) {
      last->text += thinking->text;
    } else {
      items_.emplace_back(ThinkingItem{thinking->text});
    }
  } else if (const auto* delta = std::get_if<core::ToolCallDeltaEvent>(&event)) {
    const auto index = static_cast<std::size_t>(delta->index);
    if (index >= streaming_calls_.size()) {
      if (auto* thought = streaming_last<ThinkingItem>()) thought->streaming = false;
      streaming_calls_.resize(index + 1, items_.size());
      ToolItem item;
      item.id = delta->id;
      item.name = delta->name;
      items_.emplace_back(std::move(item));
    }
    if (auto* item = std::get_if<ToolItem>(&items_[streaming_calls_[index]])) {
      item->argument_bytes += delta->fragment.size();
    }
  } else if (std::holds_alternative<core::ReplyRestartEvent>(event)) {
    on_reply_restart();
  } else if (const auto* end = std::get_if<core::MessageEndEvent>(&event)) {
    on_message_end(end->message);
  } else if (const auto* start = std::get_if<core::ToolStartEvent>(&event)) {
    ToolItem* item = tool(start->id);
    if (item == nullptr) {
      items_.emplace_back(ToolItem{.id = start->id, .name = start->name});
      item = &std::get<ToolItem>(items_.back());
    }
    item->summary = presenter_.call(start->name, start->arguments);
    item->arguments = start->arguments;
    item->state = ToolState::kQueued;
  } else if (const auto* running = std::get_if<core::ToolRunningEvent>(&event)) {
    if (ToolItem* item = tool(running->id)) {
      item->state = ToolState::kRunning;
      item->started = now;
    }
  } else if (const auto* settled = std::get_if<core::ToolSettledEvent>(&event)) {
    const core::ToolOutcome& outcome = settled->outcome;
    if (ToolItem* item = tool(outcome.result.tool_call_id)) {
      item->finish(outcome.result, outcome.display, outcome.duration,
                   presenter_.result(item->name, item->arguments, outcome.result));
    }
  } else if (const auto* tool_end = std::get_if<core::ToolEndEvent>(&event)) {
    if (ToolItem* item = tool(tool_end->outcome.result.tool_call_id)) item->ended = true;
  } else if (const auto* retry = std::get_if<core::RetryEvent>(&event)) {
    add_notice("Retrying in " + format_duration(retry->delay) + " (attempt " +
                   std::to_string(retry->attempt) + "): " + retry->reason,
               NoticeKind::kWarning);
  } else if (const auto* steering = std::get_if<core::UserMessageEvent>(&event)) {
    add_user(core::content_text(steering->message.content, "[image]"));
  } else if (const auto* nested = std::get_if<core::SubagentEvent>(&event)) {
    on_subagent_event(*nested);
  } else if (const auto* run_end = std::get_if<core::RunEndEvent>(&event)) {
    on_run_end(*run_end);
  }
}

void Transcript::on_subagent_event(const core::SubagentEvent& event) {
  // The subagent's work shows on its task's row: what it does now, and how much it has done.
  ToolItem* item = tool(event.tool_call_id);
  if (item == nullptr) return;
  const core::NestedView view = core::innermost(event);
  if (const auto* start = std::get_if<core::ToolStartEvent>(view.event)) {
    item->activity = view.from->agent_id + ": " + presenter_.call(start->name, start->arguments);
  } else if (std::holds_alternative<core::ToolEndEvent>(*view.event)) {
    ++item->subagent_calls_done;
  } else if (std::holds_alternative<core::TurnStartEvent>(*view.event)) {
    ++item->subagent_turns;
  }
}

void Transcript::on_message_end(const core::AssistantMessage& message) {
  // The message is the truth; the deltas were a preview of it (when it was one block).
  const std::string text = core::assistant_text(message);
  std::vector<AssistantItem*> shown;
  for (std::size_t index = message_start_; index < items_.size(); ++index) {
    if (auto* assistant = std::get_if<AssistantItem>(&items_[index])) shown.push_back(assistant);
  }
  if (shown.size() == 1) shown.front()->markdown = text;
  reply_cache_ = {};  // the text may differ from the deltas at the same length
  finish_streaming();
  if (shown.empty() && !text.empty()) items_.emplace_back(AssistantItem{text, false});
  streaming_calls_.clear();
  // The calls are complete now; each waits for its tool_start (a serial call's comes late).
  for (const core::ToolCall& call : core::tool_calls_of(message)) {
    ToolItem* item = tool(call.id);
    if (item == nullptr) {
      items_.emplace_back(ToolItem{.id = call.id, .name = call.name});
      item = &std::get<ToolItem>(items_.back());
    }
    if (item->state == ToolState::kStreaming) {
      item->summary = presenter_.call(call.name, call.arguments);
      item->arguments = call.arguments;
      item->state = ToolState::kQueued;
    }
  }
  if (message.stop_reason == core::StopReason::kError && !message.error_message.empty()) {
    add_notice("Error: " + message.error_message, NoticeKind::kError);
  }
  if (core::is_empty_reply(message)) {
    add_notice("The model returned an empty reply.", NoticeKind::kWarning);
  }
  add_web_searches(message);
}

void Transcript::on_reply_restart() {
  // What is not committed yet is taken back: the reply's text, thinking and tool rows (tool
  // rows are never final while streaming, so nothing after one was committed). Notices (a
  // retry's) stay.
  const auto of_the_reply = [](const TranscriptItem& item) {
    return std::holds_alternative<AssistantItem>(item) ||
           std::holds_alternative<ThinkingItem>(item) || std::holds_alternative<ToolItem>(item);
  };
  const std::size_t first_open = committed_items_ + (committed_rows_ > 0 ? 1 : 0);
  const std::size_t from = std::min(std::max(message_start_, first_open), items_.size());
  bool kept_some = false;
  for (std::size_t index = message_start_; index < from && index < items_.size(); ++index) {
    kept_some = kept_some || of_the_reply(items_[index]);
  }
  const auto open = items_.begin() + static_cast<std::ptrdiff_t>(from);
  items_.erase(std::remove_if(open, items_.end(), of_the_reply), items_.end());
  finish_streaming();
  streaming_calls_.clear();
  reply_cache_ = {};
  // Rows already in the scrollback cannot be taken back: say that they were abandoned.
  if (kept_some) {
    add_notice("The service started its reply over; the part above was abandoned.",
               NoticeKind::kWarning);
  }
  message_start_ = items_.size();
}

void Transcript::on_run_end(const core::RunEndEvent& end) {
  finish_streaming();
  for (TranscriptItem& item : items_) {
    auto* tool = std::get_if<ToolItem>(&item);
    if (tool == nullptr || tool->ended) continue;
    // A call cut off while the model was still writing it never ran.
    if (tool->state != ToolState::kDone) {
      tool->finish({tool->id, tool->name, core::text_content("not run"), true, {}}, {}, {});
      if (tool->summary.empty()) tool->summary = tool->name;
    }
    tool->ended = true;
  }
  switch (end.reason) {
    case core::RunStopReason::kAborted:
      add_notice("Interrupted. What should nib do instead?", NoticeKind::kWarning);
      break;
    case core::RunStopReason::kMaxTurns:
      add_notice("Stopped: " + end.error_message + ". Send a message to go on.",
                 NoticeKind::kWarning);
      break;
    case core::RunStopReason::kMaxBudget:
      add_notice("Stopped: " + end.error_message +
                     ". `nib -c --max-budget-usd N` continues this session with N dollars more "
                     "to spend.",
                 NoticeKind::kWarning);
      break;
    case core::RunStopReason::kError:
    case core::RunStopReason::kDone:
      break;  // an error was shown with its message
  }
}

void Transcript::add_web_searches(const core::AssistantMessage& message) {
  for (std::string& line : web_search_lines(message))
    add_notice(std::move(line), NoticeKind::kInfo);
}

void Transcript::add_history(const std::vector<core::Message>& messages) {
  for (const core::Message& message : messages) {
    if (const auto* user = std::get_if<core::UserMessage>(&message)) {
      add_user(core::content_text(user->content, "[image]"));
    } else if (const auto* reply = std::get_if<core::AssistantMessage>(&message)) {
      message_start_ = items_.size();
      for (const core::AssistantBlock& block : reply->blocks) {
        if (const auto* text = std::get_if<core::TextBlock>(&block)) {
          auto* before = items_.empty() ? nullptr : std::get_if<AssistantItem>(&items_.back());
          if (text->glued && before != nullptr && items_.size() > message_start_) {
            before->markdown += text->text;  // one sentence the service split to cite it
          } else {
            items_.emplace_back(AssistantItem{text->text, false});
          }
        } else if (const auto* thought = std::get_if<core::ThinkingBlock>(&block)) {
          if (!thought->text.empty()) items_.emplace_back(ThinkingItem{thought->text, false});
        } else if (const auto* call = std::get_if<core::ToolCall>(&block)) {
          items_.emplace_back(ToolItem{.id = call->id,
                                       .name = call->name,
                                       .summary = presenter_.call(call->name, call->arguments),
                                       .arguments = call->arguments,
                                       .state = ToolState::kQueued});
        }
      }
      add_web_searches(*reply);
    } else if (const auto* results = std::get_if<core::ToolResultMessage>(&message)) {
      for (const core::ToolResult& result : results->results) {
        ToolItem* item = tool(result.tool_call_id);
        if (item == nullptr) continue;
        item->finish(result, std::nullopt, {},
                     presenter_.result(item->name, item->arguments, result));
        item->ended = true;
      }
    }
  }
  message_start_ = items_.size();
}

void Transcript::split_streaming_reply(UiClock::time_point now) {
  const std::size_t index = items_.size() - 1;
  auto& tail = std::get<AssistantItem>(items_[index]);
  const std::size_t cut = last_block_boundary(tail.markdown);
  if (cut == 0) return;
  AssistantItem finished{tail.markdown.substr(0, cut), false, tail.continuation};
  tail.markdown.erase(0, cut);
  tail.continuation = true;
  items_.insert(items_.begin() + static_cast<std::ptrdiff_t>(index), std::move(finished));
  // Rows already committed from the top of the reply now belong to the finished piece, and
  // past its end to the tail (whose blank separator row stands where the blank line was).
  if (committed_items_ == index && committed_rows_ > 0) {
    const std::size_t finished_rows = rows_of(index, commit_width_, now).size();
    if (committed_rows_ > finished_rows) {
      committed_rows_ -= finished_rows;
      committed_items_ = index + 1;
    }
  }
}

StyledLines Transcript::rows_of(std::size_t index, std::size_t width,
                                UiClock::time_point now) const {
  StyledLines rows;
  // Items are set apart by a blank row, except the rows of one batch of tool calls.
  const bool in_batch = index > 0 && std::holds_alternative<ToolItem>(items_[index]) &&
                        std::holds_alternative<ToolItem>(items_[index - 1]);
  if (index > 0 && !in_batch) rows.emplace_back();
  // A streaming reply is drawn several times per update (to measure, to commit, to show); its
  // text only grows, so its length and the width identify a rendering.
  const auto* reply = std::get_if<AssistantItem>(&items_[index]);
  if (reply != nullptr) {
    const RenderedReply key{index, reply->markdown.size(), width, {}};
    if (!(reply_cache_.index == key.index && reply_cache_.bytes == key.bytes &&
          reply_cache_.width == key.width)) {
      reply_cache_ = key;
      reply_cache_.rows = render_item(items_[index], width, now);
    }
    rows.insert(rows.end(), reply_cache_.rows.begin(), reply_cache_.rows.end());
    return rows;
  }
  for (StyledLine& row : render_item(items_[index], width, now)) rows.push_back(std::move(row));
  return rows;
}

StyledLines Transcript::take_committable(std::size_t width, std::size_t live_budget,
                                         UiClock::time_point now) {
  commit_width_ = width;
  StyledLines out;
  while (committed_items_ < items_.size() && is_final(items_[committed_items_])) {
    StyledLines rows = rows_of(committed_items_, width, now);
    for (std::size_t i = std::min(committed_rows_, rows.size()); i < rows.size(); ++i) {
      out.push_back(std::move(rows[i]));
    }
    ++committed_items_;
    committed_rows_ = 0;
  }
  if (committed_items_ >= items_.size() ||
      !std::holds_alternative<AssistantItem>(items_[committed_items_])) {
    return out;
  }
  const std::size_t live = live_rows(width, now).size();
  if (live <= live_budget) return out;
  // The reply's last row may still change as text arrives; everything above the budget goes.
  StyledLines rows = rows_of(committed_items_, width, now);
  const std::size_t movable = rows.size() - 1 - std::min(committed_rows_, rows.size() - 1);
  const std::size_t moved = std::min(live - live_budget, movable);
  for (std::size_t i = committed_rows_; i < committed_rows_ + moved; ++i) {
    out.push_back(std::move(rows[i]));
  }
  committed_rows_ += moved;
  return out;
}

StyledLines Transcript::live_rows(std::size_t width, UiClock::time_point now) const {
  StyledLines out;
  for (std::size_t index = committed_items_; index < items_.size(); ++index) {
    StyledLines rows = rows_of(index, width, now);
    const std::size_t skip = index == committed_items_ ? std::min(committed_rows_, rows.size()) : 0;
    for (std::size_t i = skip; i < rows.size(); ++i) out.push_back(std::move(rows[i]));
  }
  return out;
}

void Transcript::recommit_all() {
  committed_items_ = 0;
  committed_rows_ = 0;
}

bool Transcript::animating() const {
  for (std::size_t index = committed_items_; index < items_.size(); ++index) {
    const auto* tool = std::get_if<ToolItem>(&items_[index]);
    if (tool != nullptr && tool->state == ToolState::kRunning) return true;
  }
  return false;
}

void Transcript::clear() {
  items_.clear();
  reply_cache_ = {};
  streaming_calls_.clear();
  message_start_ = 0;
  recommit_all();
}

}  // namespace nib::ui
