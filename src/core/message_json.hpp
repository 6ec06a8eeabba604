#pragma once
// JSON forms of the core's values, shared by stream-json output and session files. Field names
// are snake_case and stable: scripts and saved sessions depend on them. Pure functions.

#include <nlohmann/json.hpp>

#include "core/events.hpp"
#include "core/messages.hpp"

namespace nib::core {

nlohmann::json to_json(const ContentBlock& block);
nlohmann::json to_json(const Content& content);
nlohmann::json to_json(const Usage& usage);
nlohmann::json to_json(const ToolResult& result);
nlohmann::json to_json(const Message& message);
// One line of stream-json: {"type": "<event name>", ...}. The run's end is the "result" line.
nlohmann::json to_json(const Event& event);

}  // namespace nib::core
