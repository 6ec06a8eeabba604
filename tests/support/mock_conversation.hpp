#pragma once
// Which conversation a model request belongs to, as MockModelServer routes it: the text of the
// request's first user message, read from the body of any protocol the mock serves (OpenAI Chat
// Completions and Anthropic Messages `messages`, OpenAI Responses `input`). Stateless; safe from
// any thread.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace nib::testing {

// The first user message's text: a string content as it is, a list of parts as its text parts
// ("text" or "input_text") joined with "\n", as nib joins a message's text blocks. A Responses
// `input` that is a plain string is that user message. nullopt when the body holds no user
// message (or is not a JSON object).
std::optional<std::string> first_user_text(const nlohmann::json& body);

}  // namespace nib::testing
