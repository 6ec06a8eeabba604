#pragma once
// The MCP client's and server's limits, each with its unit and the reason for its value.

#include <chrono>
#include <cstddef>

namespace nib::mcp {

// The protocol revision nib offers in initialize, and those it accepts back: the two that
// servers speak today (a server answering another revision is refused by name).
inline constexpr const char* kProtocolVersion = "2025-11-25";
inline constexpr const char* kAcceptedProtocolVersions[] = {"2025-11-25", "2025-06-18"};

// A server has this long from its start to answer initialize and list its tools; npx fetching
// a package on first use takes seconds, a hung one must not stay "connecting" for ever.
inline constexpr std::chrono::seconds kDefaultStartupTimeout{30};
// One tools/call may take this long before it is cancelled (settings and per server).
inline constexpr std::chrono::seconds kDefaultCallTimeout{120};

// One stdio message (one line) may hold this much: a result with a large image is a few MiB;
// a longer line is a broken server, skipped rather than held in memory.
inline constexpr std::size_t kMaxLineBytes = 32 * 1024 * 1024;
// The server's stderr is kept in a ring of this size, for the failure message and `nib mcp get`.
inline constexpr std::size_t kStderrLogBytes = 64 * 1024;
// A failure message quotes this much of the end of the server's stderr.
inline constexpr std::size_t kStderrTailBytes = 2 * 1024;
// A stdout line that is not JSON-RPC is quoted up to this many bytes in the diagnostics.
inline constexpr std::size_t kGarbageQuoteBytes = 200;
// Writing a message to a server that does not read its stdin fails after this long, rather
// than blocking the call for ever.
inline constexpr std::chrono::seconds kWriteStallLimit{10};
// After killing a server, its exit is awaited this long before it is left to the reaper.
inline constexpr std::chrono::milliseconds kExitWait{2000};

// tools/list and prompts/list are followed through at most this many pages: a server whose
// cursor never ends must not keep nib listing for ever.
inline constexpr int kMaxListPages = 100;

// Model-facing tool names are at most this long (the providers' limit for function names).
inline constexpr std::size_t kMaxToolNameChars = 64;
// A result estimated above this many tokens is cut and saved whole to a log file (as bash does).
inline constexpr std::size_t kMaxResultTokens = 25'000;
// Tokens are estimated at this many bytes each (the same rough rule the rest of nib uses).
inline constexpr std::size_t kBytesPerToken = 4;

}  // namespace nib::mcp
