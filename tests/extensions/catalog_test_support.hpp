#pragma once
// What the agent, skill and command catalog tests share: the fixtures folder and problems as
// the lines a start-up report shows. Thread-safe (constants and a pure function).

#include <filesystem>
#include <string>
#include <vector>

#include "extensions/problem.hpp"

namespace nib::extensions {

// Definitions in Claude Code's documented formats (see fixtures/README.md).
inline const std::filesystem::path kFixtures =
    std::filesystem::path(NIB_SOURCE_DIR) / "tests/extensions/fixtures";

// Each problem's text(), in order.
inline std::vector<std::string> texts(const std::vector<Problem>& problems) {
  std::vector<std::string> out;
  for (const Problem& problem : problems) out.push_back(problem.text());
  return out;
}

}  // namespace nib::extensions
