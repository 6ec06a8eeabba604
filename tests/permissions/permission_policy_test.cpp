// The permission policy: the mode × tool × path matrix, and how rules and --ask bend it.

#include "permissions/permission_policy.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.hpp"

namespace nib::permissions {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct Call {
  std::string tool;
  json args;
  bool read_only = false;
};

class PermissionPolicyTest : public ::testing::Test {
 protected:
  PolicyOptions options(PermissionMode mode) {
    return {.mode = mode,
            .working_tree = tree(),
            .sandbox = {.confining = true},
            .read_only_command = [](const std::string& command) {
              return command.rfind("ls", 0) == 0 || command.rfind("git log", 0) == 0;
            }};
  }
  fs::path tree() const { return dir_.path() / "tree"; }
  CallVerdict verdict(const PolicyOptions& options, const Call& call) {
    const core::GateRequest request{"call_1", call.tool, &call.args, call.read_only, false};
    return PermissionPolicy(options).assess(request).verdict;
  }
  CallVerdict verdict(PermissionMode mode, const Call& call) { return verdict(options(mode), call); }

  void SetUp() override {
    fs::create_directories(tree() / "src");
    fs::create_directories(tree() / ".git" / "hooks");
    fs::create_directory_symlink("/etc", tree() / "etc-link");
  }

  testing::TempDir dir_;
};

const Call kRead{"read", {{"path", "src/a.cpp"}}, true};
const Call kBash{"bash", {{"command", "make test"}}};
const Call kLs{"bash", {{"command", "ls -la"}}};
const Call kNetwork{"bash",
                    {{"command", "npm install"}, {"network", true}, {"justification", "deps"}}};
const Call kUnsandboxed{"bash", {{"command", "docker ps"}, {"unsandboxed", true}}};
const Call kEditInside{"edit", {{"path", "src/a.cpp"}}};
const Call kWriteNew{"write", {{"path", "src/new/dir/b.cpp"}}};
const Call kWriteOutside{"write", {{"path", "../elsewhere.txt"}}};
const Call kWriteThroughLink{"write", {{"path", "etc-link/passwd"}}};
const Call kWriteHook{"write", {{"path", ".git/hooks/pre-commit"}}};
const Call kWriteSettings{"edit", {{"path", ".nib/settings.json"}}};
const Call kWriteMcp{"write", {{"path", ".mcp.json"}}};
const Call kMcp{"mcp__db__drop", {{"table", "x"}}};

TEST_F(PermissionPolicyTest, TheModeMatrix) {
  using enum CallVerdict;
  struct Row {
    const Call* call;
    CallVerdict in_auto, in_ask, in_read_only, in_yolo;
  };
  const Row rows[] = {
      {&kRead, kAllow, kAllow, kAllow, kAllow},
      {&kBash, kAllow, kAsk, kDeny, kAllow},
      {&kLs, kAllow, kAsk, kAllow, kAllow},
      {&kNetwork, kAsk, kAsk, kDeny, kAllow},
      {&kUnsandboxed, kAsk, kAsk, kDeny, kAllow},
      {&kEditInside, kAllow, kAsk, kDeny, kAllow},
      {&kWriteNew, kAllow, kAsk, kDeny, kAllow},
      {&kWriteOutside, kAsk, kAsk, kDeny, kAllow},
      {&kWriteThroughLink, kAsk, kAsk, kDeny, kAllow},
      {&kWriteHook, kAsk, kAsk, kDeny, kAllow},
      {&kWriteSettings, kAsk, kAsk, kDeny, kAllow},
      {&kWriteMcp, kAsk, kAsk, kDeny, kAllow},
      {&kMcp, kAllow, kAsk, kDeny, kAllow},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.call->tool + " " + row.call->args.dump());
    EXPECT_EQ(verdict(PermissionMode::kAuto, *row.call), row.in_auto);
    EXPECT_EQ(verdict(PermissionMode::kAsk, *row.call), row.in_ask);
    EXPECT_EQ(verdict(PermissionMode::kReadOnly, *row.call), row.in_read_only);
    EXPECT_EQ(verdict(PermissionMode::kYolo, *row.call), row.in_yolo);
  }
}

TEST_F(PermissionPolicyTest, WithoutTheSandboxAutoAsksBeforeEachCommandSayingWhy) {
  PolicyOptions unconfined = options(PermissionMode::kAuto);
  unconfined.sandbox = {.confining = false, .unavailable = "bubblewrap cannot create namespaces"};
  const core::GateRequest request{"c", "bash", &kBash.args};
  const Assessment assessment = PermissionPolicy(unconfined).assess(request);
  EXPECT_EQ(assessment.verdict, CallVerdict::kAsk);
  EXPECT_EQ(assessment.reason, "bubblewrap cannot create namespaces");
  EXPECT_EQ(verdict(unconfined, kEditInside), CallVerdict::kAllow) << "edits do not need the sandbox";
}

TEST_F(PermissionPolicyTest, ExcludedCommandsAskInAuto) {
  PolicyOptions excluded = options(PermissionMode::kAuto);
  excluded.sandbox.runs_outside = [](const std::string& command) {
    return command.rfind("docker", 0) == 0;
  };
  EXPECT_EQ(verdict(excluded, Call{"bash", {{"command", "docker build ."}}}), CallVerdict::kAsk);
  EXPECT_EQ(verdict(excluded, kBash), CallVerdict::kAllow);
}

TEST_F(PermissionPolicyTest, DenyThenAskThenAllow) {
  // Deny first, so that a broad allow ("Bash(git:*)") cannot open what a narrow deny
  // ("Bash(git push:*)") closes, whichever file each is in.
  auto with_rule = [&](PermissionMode mode, RuleVerdict rule) {
    PolicyOptions ruled = options(mode);
    ruled.rules = [rule](const core::GateRequest&) { return RuleMatch{rule, "Bash(x) in f"}; };
    return ruled;
  };
  EXPECT_EQ(verdict(with_rule(PermissionMode::kYolo, RuleVerdict::kDeny), kLs), CallVerdict::kDeny);
  EXPECT_EQ(verdict(with_rule(PermissionMode::kAuto, RuleVerdict::kDeny), kRead), CallVerdict::kDeny);
  EXPECT_EQ(verdict(with_rule(PermissionMode::kAuto, RuleVerdict::kAsk), kRead), CallVerdict::kAsk);
  EXPECT_EQ(verdict(with_rule(PermissionMode::kYolo, RuleVerdict::kAsk), kRead), CallVerdict::kAllow)
      << "yolo asks nothing";
  EXPECT_EQ(verdict(with_rule(PermissionMode::kAsk, RuleVerdict::kAllow), kBash), CallVerdict::kAllow);
  EXPECT_EQ(verdict(with_rule(PermissionMode::kAuto, RuleVerdict::kAllow), kNetwork),
            CallVerdict::kAllow)
      << "a rule allows what auto would ask about";
  EXPECT_EQ(verdict(with_rule(PermissionMode::kReadOnly, RuleVerdict::kAllow), kEditInside),
            CallVerdict::kDeny)
      << "no rule makes read-only write";
  const core::GateRequest request{"c", "bash", &kBash.args};
  const Assessment denied =
      PermissionPolicy(with_rule(PermissionMode::kAuto, RuleVerdict::kDeny)).assess(request);
  EXPECT_NE(denied.reason.find("Bash(x) in f"), std::string::npos) << "names the rule";
}

TEST_F(PermissionPolicyTest, AskFlagAsksInEveryModeButDenyStillWins) {
  PolicyOptions flagged = options(PermissionMode::kYolo);
  flagged.ask_tools = {"read"};
  EXPECT_EQ(verdict(flagged, kRead), CallVerdict::kAsk);
  flagged.ask_tools = {"all"};
  EXPECT_EQ(verdict(flagged, kBash), CallVerdict::kAsk);
}

TEST_F(PermissionPolicyTest, TheRulesOfferedForAlways) {
  auto rules = [&](const Call& call) {
    const core::GateRequest request{"c", call.tool, &call.args, call.read_only, false};
    return PermissionPolicy(options(PermissionMode::kAsk)).assess(request).rules_to_save;
  };
  EXPECT_EQ(rules(kEditInside), std::vector<std::string>{"Edit(./src/**)"});
  EXPECT_EQ(rules(kWriteNew), std::vector<std::string>{"Write(./src/new/dir/**)"});
  EXPECT_EQ(rules(kMcp), std::vector<std::string>{"mcp__db__drop"});
  PolicyOptions generalised = options(PermissionMode::kAsk);
  generalised.rules_for = [](const core::GateRequest&) {
    return std::vector<std::string>{"Bash(make:*)"};
  };
  const core::GateRequest request{"c", "bash", &kBash.args};
  EXPECT_EQ(PermissionPolicy(generalised).assess(request).rules_to_save,
            std::vector<std::string>{"Bash(make:*)"});
}

}  // namespace
}  // namespace nib::permissions
