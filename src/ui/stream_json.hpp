#pragma once
// The stream-json format of print mode (--output-format stream-json and json): the JSON forms
// of the run's events and the values they carry. Field names are snake_case and stable:
// scripts depend on them. (Session files have a format of their own: session/message_codec.)
// Pure functions.

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "core/messages.hpp"

namespace nib::ui {

nlohmann::json to_json(const core::ContentBlock& block);
nlohmann::json to_json(const core::Content& content);
nlohmann::json to_json(const core::Usage& usage);
// A hosted web search: {"type": "web_search", "id", "query", "results": [{"title", "url"}],
// "error" (only when it failed)}; in a message's content as a block of that type, and as a line
// of its own after the message_end. A text block with citations carries
// "citations": [{"url", "title"}].
nlohmann::json to_json(const core::WebSearchBlock& search);
nlohmann::json to_json(const core::ToolResult& result);
nlohmann::json to_json(const core::Message& message);
// [{"content": "Add the parser", "status": "in_progress"}, ...]
nlohmann::json to_json(const core::Plan& plan);
// One line of stream-json: {"type": "<event name>", ...}. The run's end is the "result" line.
// A plan change (todo_write) is {"type": "plan", "items": [...]}, the whole new plan.
// A subagent's event is the line its own run would have, plus "parent_tool_call_id" (the task
// call that started it), "agent_id", "agent_name" and "depth" (1 for this run's subagents).
nlohmann::json to_json(const core::Event& event);

}  // namespace nib::ui
