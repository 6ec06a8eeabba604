#pragma once
// A conversation's messages as one wire protocol writes them, kept from one request to the
// next, so that a turn serialises only the messages that are new, not the whole history again
// (which made a long session's turns ever dearer). Each message becomes a list of wire items,
// JSON texts: Chat Completions messages, Responses input items, Anthropic content blocks.
//
// An entry is reused only while the history holds an equal message at the same place (it keeps
// a copy of the message it was made from), so a history that was compacted, edited or cleared
// is never sent stale; comparing costs far less than building and dumping JSON. Conversations
// are told apart by their history's address (a subagent's is another one); the few used most
// recently are kept. Thread-safe: one cache serves one provider's requests, from any thread.

#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/messages.hpp"

namespace nib::provider {

using WireItems = std::vector<std::string>;

class WireHistory {
 public:
  // Makes the wire items of one message; `context` (below) names everything else they depend on.
  using Serialise = std::function<WireItems(const core::Message&)>;
  // Receives each message of the history, in order, with its wire items.
  using Visit = std::function<void(const core::Message&, const WireItems&)>;

  // Calls `visit` for every message of `history`, serialising those not seen before at their
  // place. `context` names what else the items depend on (the model, whether images are sent):
  // when it differs from the last request's, the conversation starts afresh. Without a cache
  // (`cache` null) every message is serialised.
  static void visit(WireHistory* cache, const std::vector<core::Message>& history,
                    const std::string& context, const Serialise& serialise, const Visit& visit);

  // The text of one JSON array: `leading` (serialised wire items), then the wire items of every
  // message of `history` (none when it is null), made as visit() makes them.
  static std::string array(WireHistory* cache, const std::vector<core::Message>* history,
                           const std::string& context, const Serialise& serialise,
                           const WireItems& leading = {});

 private:
  struct Entry {
    core::Message message;
    WireItems items;
  };
  struct Conversation {
    const std::vector<core::Message>* history = nullptr;
    std::string context;
    std::vector<Entry> entries;
  };

  Conversation& conversation_for(const std::vector<core::Message>* history,
                                 const std::string& context);

  std::mutex mutex_;
  std::list<Conversation> conversations_;  // the most recently used first
};

// Each element of `array` as a wire item.
WireItems wire_items(const nlohmann::json& array);

// `head`, a JSON object's text, with `"key":value` as its first member: a request body's
// history spliced into the rest of it.
std::string with_first_member(const std::string& head, const char* key, const std::string& value);

}  // namespace nib::provider
