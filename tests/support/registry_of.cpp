#include "support/registry_of.hpp"

#include <gtest/gtest.h>

namespace nib::testing {

std::unique_ptr<core::ToolRegistry> registry_of(std::vector<core::ToolPtr> tools) {
  auto created = core::ToolRegistry::create(std::move(tools), {});
  if (!created.ok()) {
    ADD_FAILURE() << "the test's tools cannot be registered: " << created.error();
    return nullptr;
  }
  return std::move(created.value());
}

}  // namespace nib::testing
