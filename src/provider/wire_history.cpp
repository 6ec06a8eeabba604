#include "provider/wire_history.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "util/json_text.hpp"

namespace nib::provider {
namespace {

// Conversations kept: a run's own and those of the subagents it runs at once.
constexpr std::size_t kConversationsKept = 16;

}  // namespace

WireHistory::Conversation& WireHistory::conversation_for(const std::vector<core::Message>* history,
                                                         const std::string& context) {
  auto found = conversations_.begin();
  while (found != conversations_.end() && found->history != history) ++found;
  if (found == conversations_.end()) {
    if (conversations_.size() == kConversationsKept) conversations_.pop_back();
    conversations_.push_front(Conversation{history, context, {}});
  } else if (found != conversations_.begin()) {
    conversations_.splice(conversations_.begin(), conversations_, found);
  }
  Conversation& conversation = conversations_.front();
  if (conversation.context != context) {
    conversation.context = context;
    conversation.entries.clear();
  }
  return conversation;
}

void WireHistory::visit(WireHistory* cache, const std::vector<core::Message>& history,
                        const std::string& context, const Serialise& serialise,
                        const Visit& visit) {
  if (cache == nullptr) {
    for (const core::Message& message : history) visit(message, serialise(message));
    return;
  }
  const std::lock_guard lock(cache->mutex_);
  std::vector<Entry>& entries = cache->conversation_for(&history, context).entries;
  entries.resize(std::min(entries.size(), history.size()));
  for (std::size_t index = 0; index < history.size(); ++index) {
    const core::Message& message = history[index];
    if (index == entries.size()) {
      entries.push_back({message, serialise(message)});
    } else if (!(entries[index].message == message)) {
      entries[index] = {message, serialise(message)};
    }
    visit(message, entries[index].items);
  }
}

std::string WireHistory::array(WireHistory* cache, const std::vector<core::Message>* history,
                               const std::string& context, const Serialise& serialise,
                               const WireItems& leading) {
  std::string text = "[";
  const auto append = [&text](const WireItems& items) {
    for (const std::string& item : items) {
      if (text.size() > 1) text += ',';
      text += item;
    }
  };
  append(leading);
  if (history != nullptr) {
    visit(cache, *history, context, serialise,
          [&append](const core::Message&, const WireItems& items) { append(items); });
  }
  text += ']';
  return text;
}

WireItems wire_items(const nlohmann::json& array) {
  WireItems items;
  items.reserve(array.size());
  for (const nlohmann::json& item : array) items.push_back(util::json_text(item));
  return items;
}

std::string with_first_member(const std::string& head, const char* key, const std::string& value) {
  // head is "{...}": the member goes right after its brace, followed by a comma unless the
  // object was empty.
  std::string body = "{\"";
  body += key;
  body += "\":";
  body += value;
  if (head.size() > 2) body += ',';
  body.append(head, 1, std::string::npos);
  return body;
}

}  // namespace nib::provider
