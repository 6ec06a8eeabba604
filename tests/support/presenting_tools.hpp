#pragma once
// Stand-ins for tools as front ends see them: they present their calls and results the way the
// built-in tools of the same names do (bash: its command; read: its path and "Read N lines";
// edit, write, grep: their path and pattern), but do nothing when run. For UI tests, which
// must not depend on the tools layer. Immutable; thread-safe.

#include <memory>

#include "core/tool_registry.hpp"

namespace nib::testing {

// A registry of bash, read, edit, write and grep stand-ins.
std::unique_ptr<core::ToolRegistry> presenting_tools();

}  // namespace nib::testing
