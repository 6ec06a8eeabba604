#include "support/mock_responses_replies.hpp"

#include <algorithm>

#include "util/utf8.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

constexpr const char* kResponseId = "resp_mock";
constexpr const char* kModel = "mock-model";

// `text` cut into `parts` pieces at even byte offsets, each moved back to a UTF-8 boundary
// (empty pieces dropped).
std::vector<std::string> utf8_even_pieces(const std::string& text, std::size_t parts) {
  parts = std::max<std::size_t>(parts, 1);
  std::vector<std::string> pieces;
  std::size_t start = 0;
  for (std::size_t part = 1; part <= parts; ++part) {
    const std::size_t end =
        part == parts ? text.size() : util::utf8_prefix_length(text, text.size() * part / parts);
    if (end <= start) continue;
    pieces.push_back(text.substr(start, end - start));
    start = end;
  }
  return pieces;
}

// `text` cut into pieces of `size` bytes, each moved forward to the next UTF-8 boundary.
std::vector<std::string> sized_pieces(const std::string& text, std::size_t size) {
  std::vector<std::string> pieces;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = std::min(text.size(), pos + std::max<std::size_t>(size, 1));
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    pieces.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return pieces;
}

// `base` with the fields of `extra` added.
json merged(json base, const json& extra) {
  base.update(extra);
  return base;
}

json usage_json(const MockUsage& usage) {
  return {{"input_tokens", usage.prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", usage.cached_tokens}}},
          {"output_tokens", usage.completion_tokens},
          {"output_tokens_details", {{"reasoning_tokens", 0}}},
          {"total_tokens", usage.prompt_tokens + usage.completion_tokens}};
}

}  // namespace

MockResponsesStream::MockResponsesStream() {
  reply_.send_done = false;
  event("response.created", {{"response", response("in_progress")}});
  event("response.in_progress", {{"response", response("in_progress")}});
}

MockResponsesStream& MockResponsesStream::event(const std::string& type, json fields) {
  if (fields.is_null()) fields = json::object();
  fields["type"] = type;
  fields["sequence_number"] = sequence_++;
  reply_.chunks.push_back("event: " + type + "\ndata: " + fields.dump() + "\n\n");
  return *this;
}

MockResponsesStream& MockResponsesStream::raw(std::string chunk) {
  reply_.chunks.push_back(std::move(chunk));
  return *this;
}

MockResponsesStream& MockResponsesStream::web_search(const std::string& id,
                                                     const std::string& query,
                                                     const std::vector<std::string>& source_urls) {
  const std::size_t index = output_.size();
  const json base = {{"item_id", id}, {"output_index", index}};
  event("response.output_item.added",
        {{"output_index", index},
         {"item", {{"id", id}, {"type", "web_search_call"}, {"status", "in_progress"}}}});
  event("response.web_search_call.in_progress", base);
  event("response.web_search_call.searching", base);
  event("response.web_search_call.completed", base);
  json sources = json::array();
  for (const std::string& url : source_urls) sources.push_back({{"type", "url"}, {"url", url}});
  const json item = {
      {"id", id},
      {"type", "web_search_call"},
      {"status", "completed"},
      {"action", {{"type", "search"}, {"query", query}, {"sources", std::move(sources)}}}};
  event("response.output_item.done", {{"output_index", index}, {"item", item}});
  output_.push_back(item);
  return *this;
}

MockResponsesStream& MockResponsesStream::text(const std::string& text, std::size_t split_into,
                                               const json& annotations) {
  const std::size_t index = output_.size();
  const std::string id = "msg_mock_" + std::to_string(index);
  const json empty_part = {{"type", "output_text"},
                           {"annotations", json::array()},
                           {"logprobs", json::array()},
                           {"text", ""}};
  json part = empty_part;
  part["text"] = text;
  part["annotations"] = annotations;
  const json base = {{"item_id", id}, {"output_index", index}, {"content_index", 0}};

  event("response.output_item.added", {{"output_index", index},
                                       {"item",
                                        {{"id", id},
                                         {"type", "message"},
                                         {"status", "in_progress"},
                                         {"content", json::array()},
                                         {"role", "assistant"}}}});
  event("response.content_part.added", merged(base, {{"part", empty_part}}));
  for (const std::string& piece : utf8_even_pieces(text, split_into)) {
    event("response.output_text.delta",
          merged(base, {{"delta", piece}, {"logprobs", json::array()}}));
  }
  for (std::size_t i = 0; i < annotations.size(); ++i) {
    event("response.output_text.annotation.added",
          merged(base, {{"annotation_index", i}, {"annotation", annotations[i]}}));
  }
  event("response.output_text.done", merged(base, {{"text", text}, {"logprobs", json::array()}}));
  event("response.content_part.done", merged(base, {{"part", part}}));
  const json item = {{"id", id},
                     {"type", "message"},
                     {"status", "completed"},
                     {"content", json::array({part})},
                     {"role", "assistant"}};
  event("response.output_item.done", {{"output_index", index}, {"item", item}});
  output_.push_back(item);
  return *this;
}

MockResponsesStream& MockResponsesStream::function_call(const MockToolCall& call,
                                                        std::size_t fragment_size) {
  const std::size_t index = output_.size();
  const std::string id = "fc_mock_" + std::to_string(index);
  json item = {{"id", id},        {"type", "function_call"}, {"status", "in_progress"},
               {"arguments", ""}, {"call_id", call.id},      {"name", call.name}};
  event("response.output_item.added", {{"output_index", index}, {"item", item}});
  for (const std::string& piece : sized_pieces(call.arguments, fragment_size)) {
    event("response.function_call_arguments.delta",
          {{"item_id", id}, {"output_index", index}, {"delta", piece}});
  }
  event("response.function_call_arguments.done",
        {{"item_id", id}, {"output_index", index}, {"arguments", call.arguments}});
  item["status"] = "completed";
  item["arguments"] = call.arguments;
  event("response.output_item.done", {{"output_index", index}, {"item", item}});
  output_.push_back(item);
  return *this;
}

MockResponsesStream& MockResponsesStream::custom_tool_call(const std::string& call_id,
                                                           const std::string& name,
                                                           const std::string& input,
                                                           std::size_t fragment_size) {
  const std::size_t index = output_.size();
  const std::string id = "ctc_mock_" + std::to_string(index);
  json item = {{"id", id},    {"type", "custom_tool_call"}, {"status", "in_progress"},
               {"input", ""}, {"call_id", call_id},         {"name", name}};
  event("response.output_item.added", {{"output_index", index}, {"item", item}});
  for (const std::string& piece : sized_pieces(input, fragment_size)) {
    event("response.custom_tool_call_input.delta",
          {{"item_id", id}, {"output_index", index}, {"delta", piece}});
  }
  event("response.custom_tool_call_input.done",
        {{"item_id", id}, {"output_index", index}, {"input", input}});
  item["status"] = "completed";
  item["input"] = input;
  event("response.output_item.done", {{"output_index", index}, {"item", item}});
  output_.push_back(item);
  return *this;
}

MockResponsesStream& MockResponsesStream::reasoning(const MockReasoning& reasoning,
                                                    std::size_t split_into) {
  const std::size_t index = output_.size();
  event("response.output_item.added",
        {{"output_index", index},
         {"item", {{"id", reasoning.id}, {"type", "reasoning"}, {"summary", json::array()}}}});
  json summary = json::array();
  for (std::size_t part = 0; part < reasoning.summary.size(); ++part) {
    const std::string& text = reasoning.summary[part];
    const json base = {{"item_id", reasoning.id}, {"output_index", index}, {"summary_index", part}};
    event("response.reasoning_summary_part.added",
          merged(base, {{"part", {{"type", "summary_text"}, {"text", ""}}}}));
    for (const std::string& piece : utf8_even_pieces(text, split_into)) {
      event("response.reasoning_summary_text.delta", merged(base, {{"delta", piece}}));
    }
    event("response.reasoning_summary_text.done", merged(base, {{"text", text}}));
    event("response.reasoning_summary_part.done",
          merged(base, {{"part", {{"type", "summary_text"}, {"text", text}}}}));
    summary.push_back({{"type", "summary_text"}, {"text", text}});
  }
  const json item = {{"id", reasoning.id},
                     {"type", "reasoning"},
                     {"encrypted_content", reasoning.encrypted_content},
                     {"summary", summary}};
  event("response.output_item.done", {{"output_index", index}, {"item", item}});
  output_.push_back(item);
  return *this;
}

json MockResponsesStream::response(const std::string& status) const {
  return {{"id", kResponseId}, {"object", "response"}, {"created_at", 1700000000},
          {"status", status},  {"error", nullptr},     {"incomplete_details", nullptr},
          {"model", kModel},   {"output", output_},    {"store", false},
          {"usage", nullptr}};
}

MockReply MockResponsesStream::completed(const MockUsage& usage) {
  json finished = response("completed");
  finished["usage"] = usage_json(usage);
  event("response.completed", {{"response", finished}});
  return reply_;
}

MockReply MockResponsesStream::incomplete(const std::string& reason, const MockUsage& usage) {
  json finished = response("incomplete");
  finished["incomplete_details"] = {{"reason", reason}};
  finished["usage"] = usage_json(usage);
  event("response.incomplete", {{"response", finished}});
  return reply_;
}

MockReply MockResponsesStream::failed(const std::string& code, const std::string& message) {
  json finished = response("failed");
  finished["error"] = {{"code", code}, {"message", message}};
  event("response.failed", {{"response", finished}});
  return reply_;
}

MockReply MockResponsesStream::error(const std::string& code, const std::string& message) {
  event("error", {{"code", code}, {"message", message}, {"param", nullptr}});
  return reply_;
}

MockReply MockResponsesStream::unfinished() {
  return reply_;
}

MockReply responses_text(const std::string& text, std::size_t split_into, const MockUsage& usage) {
  return MockResponsesStream().text(text, split_into).completed(usage);
}

MockReply responses_function_calls(const std::vector<MockToolCall>& calls,
                                   std::size_t fragment_size, const MockUsage& usage) {
  MockResponsesStream stream;
  for (const MockToolCall& call : calls) stream.function_call(call, fragment_size);
  return stream.completed(usage);
}

MockReply responses_reasoning_then_text(const MockReasoning& reasoning, const std::string& text,
                                        const MockUsage& usage) {
  return MockResponsesStream().reasoning(reasoning, 3).text(text, 2).completed(usage);
}

MockReply responses_incomplete(const std::string& partial_text, const std::string& reason) {
  return MockResponsesStream().text(partial_text, 2).incomplete(reason);
}

MockReply responses_failed(const std::string& code, const std::string& message) {
  return MockResponsesStream().failed(code, message);
}

MockReply responses_error(const std::string& code, const std::string& message) {
  return MockResponsesStream().error(code, message);
}

}  // namespace nib::testing
