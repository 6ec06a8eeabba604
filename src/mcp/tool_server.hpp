#pragma once
// `nib mcp serve`: nib's tools offered to another agent over stdio MCP (newline-delimited
// JSON-RPC on stdin/stdout; 2025-11-25, or 2025-06-18 when the client asks for it). Each
// tools/call goes through the same prepare (schema validation) → hooks → gate → run path as a
// call of nib's own model (core/tool_scheduler), on a thread of its own, so a slow call does not
// hold up the others and notifications/cancelled stops it. When the client closes stdin (or
// dies), every running call is stopped as an abort stops it and the server returns. An unknown
// tool is a JSON-RPC error (-32602); invalid arguments, a refused call or a failing one are
// results with isError, so the calling model can correct itself.
//
// Thread-safe as its parts are; one serve_tools per pair of descriptors.

#include <filesystem>
#include <stop_token>
#include <string>

#include "core/tool_call.hpp"
#include "core/tool_registry.hpp"

namespace nib::mcp {

struct ToolServerOptions {
  const core::ToolRegistry* tools = nullptr;
  core::PreToolCheck pre_tool;  // the PreToolUse hooks
  core::Gate gate;              // nobody can be asked: a call that needs approval is refused
  core::AfterTool after_tool;   // the PostToolUse hooks
  std::filesystem::path cwd;
  std::string version;  // nib's, for serverInfo
};

// Serves requests read from `in_fd` until it ends or `stop` fires, answering on `out_fd`;
// stops the calls still running and returns once every call has ended. 0 when stdin ended,
// 130 when stopped.
int serve_tools(const ToolServerOptions& options, int in_fd, int out_fd, std::stop_token stop);

}  // namespace nib::mcp
