#pragma once
// The reading side of a stdio JSON-RPC server (`nib mcp serve`, `nib acp`): lines of at most
// kMaxLineBytes from a descriptor, each handed over as it completes, until the descriptor ends
// or `stop` fires (which wakes the wait at once).

#include <functional>
#include <stop_token>
#include <string>

namespace nib::mcp {

enum class LinesEnd { kEndOfInput, kStopped };

LinesEnd read_lines(int in_fd, std::stop_token stop,
                    const std::function<void(const std::string& line)>& on_line);

}  // namespace nib::mcp
