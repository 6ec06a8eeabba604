#include "provider/reply_builder.hpp"

#include "util/byte_size.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

// Makes assembled tool calls usable: a call whose arguments stayed empty gets "{}" (services
// stream no arguments for a tool without parameters), and one without an id gets
// "call_<position among the calls>" so that its result can refer to it.
void complete_tool_calls(std::vector<core::AssistantBlock>& blocks) {
  std::size_t position = 0;
  for (auto& block : blocks) {
    auto* call = std::get_if<core::ToolCall>(&block);
    if (call == nullptr) continue;
    if (call->arguments.empty()) call->arguments = "{}";
    if (call->id.empty()) call->id = "call_" + std::to_string(position);
    ++position;
  }
}

// `text`'s size as JSON writes it: a control character takes six bytes, a quote or a backslash
// two; so the limit bounds what the session file and the next request hold too.
std::size_t escaped_size(std::string_view text) {
  std::size_t size = text.size();
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20) {
      size += 5;
    } else if (c == '"' || c == '\\') {
      size += 1;
    }
  }
  return size;
}

// `text` cut to at most `max_bytes` on a UTF-8 boundary, in a new string, so that the old
// buffer is freed.
void shrink(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return;
  std::string(text, 0, util::utf8_prefix_length(text, max_bytes)).swap(text);
}

std::size_t held_size(const core::WebSearchBlock& search) {
  std::size_t size =
      search.id.size() + search.query.size() + search.error.size() + search.replay.size();
  for (const core::WebSearchResult& result : search.results) {
    size += result.title.size() + result.url.size();
  }
  return size;
}

}  // namespace

ReplyBuilder::ReplyBuilder(core::DeltaSink on_delta, std::size_t max_bytes)
    : on_delta_(std::move(on_delta)), max_bytes_(max_bytes) {}

bool ReplyBuilder::hold(std::size_t added, std::size_t released) {
  if (!over_limit_ && held_bytes_ - released + added <= max_bytes_) {
    held_bytes_ = held_bytes_ - released + added;
    return true;
  }
  over_limit_ = true;
  return false;
}

std::string ReplyBuilder::limit_error() const {
  return "the reply grew past nib's limit of " + util::format_byte_size(max_bytes_) +
         " of text, thinking and tool-call arguments, so nib stopped reading it (a stream that "
         "never ends?)";
}

void ReplyBuilder::emit(const core::Event& event) {
  passed_on_ = true;
  if (on_delta_) on_delta_(event);
}

std::size_t ReplyBuilder::start_text(bool glued) {
  hold(kBlockCostBytes);
  blocks_.emplace_back(core::TextBlock{.text = {}, .citations = {}, .glued = glued});
  return blocks_.size() - 1;
}

std::size_t ReplyBuilder::start_web_search(core::WebSearchBlock search) {
  hold(kBlockCostBytes);
  blocks_.emplace_back(core::WebSearchBlock{});
  set_web_search(blocks_.size() - 1, std::move(search));
  return blocks_.size() - 1;
}

void ReplyBuilder::set_web_search(std::size_t block, core::WebSearchBlock search) {
  auto& held = std::get<core::WebSearchBlock>(blocks_[block]);
  if (hold(held_size(search), held_size(held))) held = std::move(search);
}

void ReplyBuilder::add_citation(std::size_t block, core::Citation citation) {
  const std::size_t size = citation.url.size() + citation.title.size() + citation.replay.size();
  if (!hold(size)) return;
  std::get<core::TextBlock>(blocks_[block]).citations.push_back(std::move(citation));
}

std::size_t ReplyBuilder::start_thinking(std::string_view signature, bool redacted) {
  hold(kBlockCostBytes);
  blocks_.emplace_back(core::ThinkingBlock{"", "", redacted});
  set_signature(blocks_.size() - 1, signature);
  return blocks_.size() - 1;
}

std::size_t ReplyBuilder::start_call(std::string_view id, std::string_view name,
                                     std::string_view arguments, bool freeform) {
  const std::size_t position = call_blocks_.size();
  hold(kBlockCostBytes);
  call_blocks_.push_back(blocks_.size());
  blocks_.emplace_back(core::ToolCall{});
  core::ToolCall& call = call_at(position);
  call.freeform = freeform;
  if (hold(id.size() + name.size())) {
    call.id.assign(id);
    call.name.assign(name);
  }
  replace_arguments(position, arguments);
  emit(core::ToolCallDeltaEvent{static_cast<int>(position), call.id, call.name, call.arguments});
  return position;
}

void ReplyBuilder::append_text(std::size_t block, std::string_view text) {
  auto& text_block = std::get<core::TextBlock>(blocks_[block]);
  auto& held = text_block.text;
  if (text.empty() || !hold(escaped_size(text))) return;
  std::string delta;
  if (held.empty() && text_shown_ && !text_block.glued) delta = core::kTextBlockSeparator;
  delta += text;
  held += text;
  text_shown_ = true;
  emit(core::TextDeltaEvent{std::move(delta)});
}

void ReplyBuilder::append_thinking(std::size_t block, std::string_view text) {
  if (text.empty() || !hold(escaped_size(text))) return;
  std::get<core::ThinkingBlock>(blocks_[block]).text += text;
  emit(core::ThinkingDeltaEvent{std::string(text)});
}

void ReplyBuilder::append_arguments(std::size_t call, std::string_view fragment) {
  if (fragment.empty() || !hold(escaped_size(fragment))) return;
  call_at(call).arguments += fragment;
  emit(core::ToolCallDeltaEvent{static_cast<int>(call), "", "", std::string(fragment)});
}

void ReplyBuilder::append_signature(std::size_t block, std::string_view signature) {
  if (signature.empty() || !hold(signature.size())) return;
  std::get<core::ThinkingBlock>(blocks_[block]).signature += signature;
}

void ReplyBuilder::set_signature(std::size_t block, std::string_view signature) {
  auto& held = std::get<core::ThinkingBlock>(blocks_[block]).signature;
  if (hold(signature.size(), held.size())) held.assign(signature);
}

void ReplyBuilder::name_call(std::size_t call, std::string_view id, std::string_view name) {
  core::ToolCall& held = call_at(call);
  bool named = false;
  if (held.id.empty() && !id.empty() && hold(id.size())) {
    held.id.assign(id);
    named = true;
  }
  if (held.name.empty() && !name.empty() && hold(name.size())) {
    held.name.assign(name);
    named = true;
  }
  if (named) emit(core::ToolCallDeltaEvent{static_cast<int>(call), held.id, held.name, ""});
}

void ReplyBuilder::replace_arguments(std::size_t call, std::string_view arguments) {
  auto& held = call_at(call).arguments;
  if (hold(escaped_size(arguments), escaped_size(held))) held.assign(arguments);
}

void ReplyBuilder::settle_text(std::size_t block, std::string_view final_text) {
  auto& held = std::get<core::TextBlock>(blocks_[block]).text;
  if (final_text.empty() || final_text == held) return;
  if (final_text.starts_with(held)) {
    append_text(block, final_text.substr(held.size()));
  } else if (hold(escaped_size(final_text), escaped_size(held))) {
    held.assign(final_text);
    text_shown_ = true;
  }
}

void ReplyBuilder::settle_arguments(std::size_t call, std::string_view final_arguments) {
  const std::string& held = call_at(call).arguments;
  if (final_arguments.empty() || final_arguments == held) return;
  if (final_arguments.starts_with(held)) {
    append_arguments(call, final_arguments.substr(held.size()));
  } else {
    replace_arguments(call, final_arguments);
  }
}

const core::ToolCall& ReplyBuilder::call(std::size_t position) const {
  return std::get<core::ToolCall>(blocks_[call_blocks_[position]]);
}

core::ToolCall& ReplyBuilder::call_at(std::size_t position) {
  return std::get<core::ToolCall>(blocks_[call_blocks_[position]]);
}

void ReplyBuilder::restart() {
  const bool shown = passed_on_;
  blocks_.clear();
  call_blocks_.clear();
  held_bytes_ = 0;
  over_limit_ = false;
  text_shown_ = false;
  passed_on_ = false;
  if (shown && on_delta_) on_delta_(core::ReplyRestartEvent{});
}

std::vector<core::AssistantBlock> ReplyBuilder::take_blocks() {
  std::vector<core::AssistantBlock> out = std::move(blocks_);
  if (over_limit_) {
    // What went past the limit is broken or hostile: freed here, before the reply is copied
    // into the history, the session and the front ends.
    for (core::AssistantBlock& block : out) {
      if (auto* text = std::get_if<core::TextBlock>(&block))
        shrink(text->text, kKeptPastLimitBytes);
      if (auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
        shrink(thinking->text, kKeptPastLimitBytes);
        std::string().swap(thinking->signature);
      }
      if (auto* call = std::get_if<core::ToolCall>(&block)) std::string("{}").swap(call->arguments);
    }
  }
  std::erase_if(out, [](const core::AssistantBlock& block) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) return text->text.empty();
    if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
      return thinking->text.empty() && thinking->signature.empty();
    }
    return false;
  });
  complete_tool_calls(out);
  blocks_.clear();
  call_blocks_.clear();
  held_bytes_ = 0;
  text_shown_ = false;
  return out;
}

}  // namespace nib::provider
