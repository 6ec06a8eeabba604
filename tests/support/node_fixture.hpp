#pragma once
// Runs one of the tests' Node scripts, the way the end-to-end tests drive nib with its real
// JavaScript counterparts (the ACP library, the Claude Agent SDK): `node SCRIPT ARGS...` in
// `cwd` with `env`. The script prints one JSON object whose "errors" list says what went wrong;
// the test fails when node does not exit 0, prints no object, or lists errors.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/nib_process.hpp"

namespace nib::testing {

// What the script printed (null when it printed no JSON object).
inline nlohmann::json run_node_fixture(const std::string& script, std::vector<std::string> args,
                                       const std::filesystem::path& cwd,
                                       const std::map<std::string, std::string>& env) {
  args.insert(args.begin(), script);
  const NibResult result = NibProcess(args, cwd, env, "/usr/bin/node").wait();
  EXPECT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json out = nlohmann::json::parse(result.out, nullptr, false);
  EXPECT_TRUE(out.is_object()) << result.out << result.err;
  if (!out.is_object()) return nullptr;
  EXPECT_EQ(out.value("errors", nlohmann::json::array()), nlohmann::json::array()) << result.err;
  return out;
}

}  // namespace nib::testing
