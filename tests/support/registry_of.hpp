#pragma once
// The tool registry of a test whose tools are known to be valid: a registration error fails the
// test with the registry's message. Thread-safety as for ToolRegistry::create.

#include <memory>
#include <vector>

#include "core/tool_registry.hpp"

namespace nib::testing {

// The registry of `tools` (as built-in tools, no extra ones); nullptr, after a test failure
// naming the problem, when they cannot be registered.
std::unique_ptr<core::ToolRegistry> registry_of(std::vector<core::ToolPtr> tools);

}  // namespace nib::testing
