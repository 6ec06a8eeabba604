#pragma once
// The limits of the permission layer, with their units and reasons. Beyond any of them the
// splitter gives up (understood = false) and the caller asks: an unusual command costs a
// question, never a wrong answer, and memory stays bounded whatever the model sends.

#include <cstddef>

namespace nib::permissions {

// Bytes of one bash command line the splitter reads: far beyond what a person or a model
// writes by hand (a long heredoc included), small enough that matching it against every rule
// stays instant.
inline constexpr std::size_t kMaxSplitBytes = 64 * 1024;

// Levels of nesting (subshells, groups, substitutions, `bash -c` inside `bash -c`): real
// commands use two or three; the cap keeps recursion off the edge of the stack.
inline constexpr int kMaxShellNesting = 32;

// Simple commands in one command line: a generated script longer than this is asked about.
inline constexpr std::size_t kMaxSimpleCommands = 1024;

}  // namespace nib::permissions
