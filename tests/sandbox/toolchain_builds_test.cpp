// Ordinary builds inside the sandbox: a Node project's `npm test`, a Go module's `go build` and
// `go test`, a Rust crate's `cargo build` and `cargo test`, each in a project in the working
// tree, with the toolchain found on PATH (rustup's cargo in ~/.cargo/bin, say) or else Debian's
// in /usr/bin. None has dependencies, so none needs the network (the sandbox has none): a build
// that tried to fetch anything would fail here. A missing toolchain skips its test, naming the
// Debian package that scripts/setup installs for it.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sandbox/sandbox_test_support.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;
using process::CommandResult;

// The directory holding the program `name` as a shell would find it on PATH, else /usr/bin
// when Debian's package put it there; empty when neither has it.
fs::path program_directory(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream entries(path != nullptr ? path : "");
  std::string entry;
  while (std::getline(entries, entry, ':')) {
    if (!entry.empty() && ::access((fs::path(entry) / name).c_str(), X_OK) == 0) return entry;
  }
  return ::access(("/usr/bin/" + name).c_str(), X_OK) == 0 ? fs::path("/usr/bin") : fs::path();
}

// `command` with `directory` (a program_directory) first on PATH.
std::string with_program(const fs::path& directory, const std::string& command) {
  return "export PATH='" + directory.string() + "':\"$PATH\" && " + command;
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

bool has_entries(const fs::path& directory) {
  std::error_code error;
  return fs::is_directory(directory, error) && !fs::is_empty(directory, error);
}

using ToolchainBuildTest = testing::SandboxedCommandTest;

TEST_F(ToolchainBuildTest, ANodeProjectsNpmTestPassesInside) {
  const fs::path node = program_directory("node");
  const fs::path npm = program_directory("npm");
  if (node.empty() || npm.empty()) {
    GTEST_SKIP() << "node or npm is missing: install the Debian packages nodejs and npm "
                    "(scripts/setup does)";
  }
  write_file(tree_.tree() / "web/package.json",
             R"({"name": "web", "version": "1.0.0", "private": true,)"
             R"( "scripts": {"test": "node --test"}})"
             "\n");
  write_file(tree_.tree() / "web/sum.test.js",
             "const test = require('node:test');\n"
             "const assert = require('node:assert');\n"
             "test('sums', () => { assert.strictEqual(1 + 2, 3); });\n");
  const CommandResult result =
      run(with_program(node, with_program(npm, "cd web && npm test 2>&1")));
  EXPECT_EQ(exit_code(result), 0) << result.stdout_capture.tail();
  EXPECT_NE(result.stdout_capture.tail().find("# pass 1"), std::string::npos)
      << result.stdout_capture.tail();
  // npm logs every run into its cache: the private one, since ~/.npm is read-only.
  EXPECT_TRUE(has_entries(tree_.cache() / "npm" / "_logs"));
}

TEST_F(ToolchainBuildTest, AGoModuleBuildsAndItsTestsPassInside) {
  const fs::path go = program_directory("go");
  if (go.empty()) GTEST_SKIP() << "go is missing: install the Debian package golang-go";
  write_file(tree_.tree() / "hello/go.mod", "module example.com/hello\n\ngo 1.19\n");
  write_file(tree_.tree() / "hello/main.go",
             "package main\n\n"
             "import \"fmt\"\n\n"
             "func sum(a, b int) int { return a + b }\n\n"
             "func main() { fmt.Println(\"built\", sum(1, 2)) }\n");
  write_file(tree_.tree() / "hello/main_test.go",
             "package main\n\n"
             "import \"testing\"\n\n"
             "func TestSum(t *testing.T) {\n"
             "\tif got := sum(1, 2); got != 3 {\n"
             "\t\tt.Fatalf(\"sum(1, 2) = %d\", got)\n"
             "\t}\n"
             "}\n");
  const CommandResult result =
      run(with_program(go, "cd hello && go build -o hello . && ./hello && go test -v ./... 2>&1"));
  EXPECT_EQ(exit_code(result), 0) << result.stdout_capture.tail() << result.stderr_capture.tail();
  EXPECT_NE(result.stdout_capture.tail().find("built 3\n"), std::string::npos)
      << result.stdout_capture.tail();
  EXPECT_NE(result.stdout_capture.tail().find("--- PASS: TestSum"), std::string::npos)
      << result.stdout_capture.tail();
  // Go refuses to build without a writable build cache; it is the private one.
  EXPECT_TRUE(has_entries(tree_.cache() / "go-build"));
}

TEST_F(ToolchainBuildTest, ARustCrateBuildsAndItsTestsPassInside) {
  const fs::path cargo = program_directory("cargo");
  if (cargo.empty()) {
    GTEST_SKIP() << "cargo is missing: install the Debian package cargo (it brings rustc)";
  }
  write_file(tree_.tree() / "crate/Cargo.toml",
             "[package]\nname = \"hello\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n"
             "[dependencies]\n");
  write_file(tree_.tree() / "crate/src/lib.rs",
             "pub fn sum(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n"
             "#[cfg(test)]\nmod tests {\n    #[test]\n    fn sums() {\n"
             "        assert_eq!(super::sum(1, 2), 3);\n    }\n}\n");
  const CommandResult result =
      run(with_program(cargo, "cd crate && cargo build && cargo test 2>&1"));
  EXPECT_EQ(exit_code(result), 0) << result.stdout_capture.tail() << result.stderr_capture.tail();
  EXPECT_NE(result.stdout_capture.tail().find("test tests::sums ... ok"), std::string::npos)
      << result.stdout_capture.tail();
  EXPECT_TRUE(fs::is_directory(tree_.tree() / "crate/target/debug"));
}

}  // namespace
}  // namespace nib::sandbox
