#include "process/failure_lines.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "tools/fixture_logs.hpp"

namespace nib::process {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

// The 1-based numbers of the lines of `text` that look like failures.
std::vector<int> failure_lines(std::string_view text) {
  std::vector<int> numbers;
  int number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    ++number;
    if (looks_like_failure(line)) numbers.push_back(number);
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return numbers;
}

std::vector<int> fixture_failures(const std::string& name) {
  const std::string log = testing::fixture_log(name);
  EXPECT_FALSE(log.empty()) << name << " is missing";
  return failure_lines(log);
}

// Each fixture lists the lines a reader would call failures, and only those: the failing
// tests, assertions, diagnostics and summaries, not the passing tests whose names mention
// failures, the "0 failed" counts, warnings or the stack frames in between.
TEST(FailureLines, GoogleTest) {
  // ": Failure" lines, [  FAILED  ] lines and the closing count; not RUN/OK lines of tests
  // named FailsOnBadInput or HandlesErrorTokens, nor "[  PASSED  ] 4 tests.".
  EXPECT_THAT(fixture_failures("googletest.log"),
              ElementsAreArray({10, 15, 24, 28, 34, 35, 36, 38}));
}

TEST(FailureLines, Pytest) {
  // The ERRORS and FAILURES headers, "E" lines, "file:line: Exception" lines, the short summary
  // and the final count; not the source lines or "raise ValueError(...)".
  EXPECT_THAT(fixture_failures("pytest.log"),
              ElementsAreArray({9, 10, 15, 17, 18, 24, 25, 27, 42, 44, 46, 47, 48, 49}));
}

TEST(FailureLines, Jest) {
  // FAIL, ✕ and ● lines, the thrown TypeError and the summary counts; not PASS, ✓, "● Console"
  // or "Snapshots: 0 total".
  EXPECT_THAT(fixture_failures("jest.log"), ElementsAreArray({2, 5, 6, 9, 25, 27, 44, 45}));
}

TEST(FailureLines, Vitest) {
  EXPECT_THAT(fixture_failures("vitest.log"), ElementsAreArray({5, 6, 9, 11, 12, 28, 29}));
}

TEST(FailureLines, GoTest) {
  // t.Error reports, --- FAIL (nested too), panic lines and the package FAIL lines; not
  // --- PASS, === RUN, "ok" or the goroutine's frames.
  EXPECT_THAT(fixture_failures("go_test.log"),
              ElementsAreArray({4, 5, 9, 11, 13, 14, 15, 16, 32, 34}));
}

TEST(FailureLines, CargoTest) {
  // Not "... ok" lines of tests named reports_parse_errors or handles_failure_gracefully.
  EXPECT_THAT(fixture_failures("cargo_test.log"), ElementsAreArray({8, 11, 14, 15, 21, 24, 26}));
}

TEST(FailureLines, Rustc) {
  // error[E...] and "error: could not compile"; not warnings, notes or "Some errors have
  // detailed explanations".
  EXPECT_THAT(fixture_failures("rustc.log"), ElementsAreArray({10, 18, 27}));
}

TEST(FailureLines, GccClangMakeAndTheLinker) {
  // Not the compile commands with -Werror and error_log.cpp, nor the warning.
  EXPECT_THAT(fixture_failures("gcc_make.log"), ElementsAreArray({6, 12, 13, 16, 19, 22, 23, 24}));
}

TEST(FailureLines, EslintAndTsc) {
  // eslint's error rows (not its warning row), its ✖ summary, both tsc formats, tsc's count.
  EXPECT_THAT(fixture_failures("tsc_eslint.log"), ElementsAreArray({7, 9, 11, 12, 14, 15, 20}));
}

TEST(FailureLines, Npm) {
  // npm ERR! and npm error lines; not npm WARN or "found 0 vulnerabilities".
  EXPECT_THAT(fixture_failures("npm.log"), ElementsAreArray({2, 3, 4, 5, 6, 7, 10, 11}));
}

TEST(FailureLines, MavenAndJavaExceptions) {
  // [ERROR] lines, the exceptions, "Caused by:" and BUILD FAILURE; not "[INFO] Tests run: 5,
  // Failures: 0, Errors: 0" or the "at ..." frames.
  EXPECT_THAT(fixture_failures("maven.log"),
              ElementsAreArray({7, 8, 9, 14, 15, 18, 25, 26, 27, 28, 30, 33, 35}));
}

TEST(FailureLines, PythonTraceback) {
  EXPECT_THAT(fixture_failures("python_traceback.log"), ElementsAreArray({3, 14}));
}

TEST(FailureLines, CrashesAndGenericErrors) {
  // git, docker, log levels, a segfault, sanitizers, CMake, TAP, CTest, C assert, Java, Node,
  // mocha, systemd; not "0 errors so far" (line 5) or mocha's test title (line 16).
  EXPECT_THAT(fixture_failures("misc.log"),
              ElementsAreArray({1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18}));
}

TEST(FailureLines, LinesThatOnlyMentionFailuresAreNotFailures) {
  EXPECT_THAT(fixture_failures("passing.log"), IsEmpty());
}

TEST(FailureLines, CountsDecide) {
  EXPECT_TRUE(looks_like_failure("3 failed, 10 passed"));
  EXPECT_FALSE(looks_like_failure("0 failed, 10 passed"));
  EXPECT_TRUE(looks_like_failure("Tests run: 3, Failures: 2"));
  EXPECT_FALSE(looks_like_failure("Tests run: 3, Failures: 0"));
  EXPECT_TRUE(looks_like_failure("2 errors generated."));
  EXPECT_FALSE(looks_like_failure("0 errors generated."));
  EXPECT_TRUE(looks_like_failure("1 test failed"));
  EXPECT_FALSE(looks_like_failure("0 tests failed"));
  EXPECT_TRUE(looks_like_failure("  2 failing"));
  EXPECT_FALSE(looks_like_failure("  0 failing"));
  EXPECT_FALSE(looks_like_failure("  12 passing (40ms)"));
  EXPECT_TRUE(looks_like_failure("failed=1"));
  EXPECT_FALSE(looks_like_failure("failed=0"));
  // Without a count, "failed" says it; "error" and "failing" do not.
  EXPECT_TRUE(looks_like_failure("Build failed"));
  EXPECT_FALSE(looks_like_failure("error handling is now faster"));
  EXPECT_FALSE(looks_like_failure("skip failing tests with --bail"));
}

TEST(FailureLines, DigitsOfATimeOrVersionAreNoCount) {
  EXPECT_TRUE(looks_like_failure("12:00:00 ERROR disk full"));
  EXPECT_TRUE(looks_like_failure("v1.0 FAILED"));
}

TEST(FailureLines, ErrorNeedsAColonOrACode) {
  EXPECT_TRUE(looks_like_failure("error: no such file"));
  EXPECT_TRUE(looks_like_failure("Error: Cannot find module 'left-pad'"));
  EXPECT_TRUE(looks_like_failure("x.cpp(3): error C2065: 'y': undeclared identifier"));
  EXPECT_TRUE(looks_like_failure("LINK : error LNK2019: unresolved external symbol"));
  EXPECT_FALSE(looks_like_failure("strerror: returns a string"));
  EXPECT_FALSE(looks_like_failure("\"error\": null"));
  EXPECT_FALSE(looks_like_failure("errors: []"));
}

TEST(FailureLines, ExceptionNames) {
  EXPECT_TRUE(looks_like_failure("KeyError: 'id'"));
  EXPECT_TRUE(looks_like_failure("requests.exceptions.ConnectionError: timed out"));
  EXPECT_TRUE(looks_like_failure("java.lang.OutOfMemoryError"));
  EXPECT_TRUE(looks_like_failure("org.junit.ComparisonFailure: expected:<[a]> but was:<[b]>"));
  EXPECT_FALSE(looks_like_failure("    raise KeyError"));
  EXPECT_FALSE(looks_like_failure("import com.example.ErrorHandler;"));
  EXPECT_FALSE(looks_like_failure("See ExceptionTranslator for details"));
}

TEST(FailureLines, FlagsNamesAndPathsAreNotWords) {
  EXPECT_FALSE(looks_like_failure("cc -Werror -o failed.o on-failure.c"));
  EXPECT_FALSE(looks_like_failure("cp logs/failed.txt errors.go /tmp"));
  EXPECT_FALSE(looks_like_failure("--fail-fast --no-errors"));
}

TEST(FailureLines, SuccessLinesNeverAre) {
  EXPECT_FALSE(looks_like_failure("✓ fails gracefully when the error: field is missing"));
  EXPECT_FALSE(looks_like_failure("test parser::error_recovery ... ok"));
  EXPECT_FALSE(looks_like_failure("ok 3 - reports FAILED builds"));
}

TEST(FailureLines, EmptyAndBlankLines) {
  EXPECT_FALSE(looks_like_failure(""));
  EXPECT_FALSE(looks_like_failure("   \t"));
  EXPECT_TRUE(continues_block(""));
  EXPECT_TRUE(continues_block("   "));
}

TEST(ContinuesBlock, DetailsFramesAndSourceExcerpts) {
  EXPECT_TRUE(continues_block("\tat com.example.Main.run(Main.java:12)"));
  EXPECT_TRUE(continues_block("    at Object.<anonymous> (src/a.test.js:4:21)"));
  EXPECT_TRUE(continues_block("  File \"x.py\", line 3, in f"));
  EXPECT_TRUE(continues_block("14 |     let x: i32 = \"four\";"));
  EXPECT_TRUE(continues_block(">       assert cart.total == 90"));
  EXPECT_TRUE(continues_block("E       assert 100 == 90"));
  EXPECT_TRUE(continues_block("goroutine 7 [running]:"));
  EXPECT_TRUE(continues_block("example.com/calc.Eval({0x5b2c1e, 0x3})"));
  EXPECT_TRUE(continues_block("created by testing.(*T).Run in goroutine 5"));
}

TEST(ContinuesBlock, AnUnindentedLineOrASuccessEndsIt) {
  EXPECT_FALSE(continues_block("note: run with `RUST_BACKTRACE=1`"));
  EXPECT_FALSE(continues_block("[INFO] Results:"));
  EXPECT_FALSE(continues_block("Ran all test suites (with coverage)"));
  EXPECT_FALSE(continues_block(" PASS  src/b.test.js"));
  EXPECT_FALSE(continues_block("    ✓ works (2 ms)"));
  EXPECT_FALSE(continues_block("    --- PASS: TestEval/addition (0.00s)"));
}

}  // namespace
}  // namespace nib::process
