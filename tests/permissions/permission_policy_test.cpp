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
    return {.mode = mode, .working_tree = tree(), .sandbox = {.confining = true}};
  }
  fs::path tree() const { return dir_.path() / "tree"; }
  CallVerdict verdict(const PolicyOptions& options, const Call& call) {
    const core::GateRequest request{"call_1", call.tool, &call.args, call.read_only, false};
    return PermissionPolicy(options).assess(request).verdict;
  }
  CallVerdict verdict(PermissionMode mode, const Call& call) {
    return verdict(options(mode), call);
  }

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
      {&kMcp, kAsk, kAsk, kDeny, kAllow},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.call->tool + " " + row.call->args.dump());
    EXPECT_EQ(verdict(PermissionMode::kAuto, *row.call), row.in_auto);
    EXPECT_EQ(verdict(PermissionMode::kAsk, *row.call), row.in_ask);
    EXPECT_EQ(verdict(PermissionMode::kReadOnly, *row.call), row.in_read_only);
    EXPECT_EQ(verdict(PermissionMode::kYolo, *row.call), row.in_yolo);
  }
}

// A server's tool runs outside the sandbox: auto asks, offering the tool's rule, and a rule
// naming the tool or its server lets it run.
TEST_F(PermissionPolicyTest, AnMcpToolAsksInAutoUntilARuleAllowsIt) {
  const core::GateRequest request{"c", kMcp.tool, &kMcp.args};
  const Assessment asked = PermissionPolicy(options(PermissionMode::kAuto)).assess(request);
  EXPECT_EQ(asked.verdict, CallVerdict::kAsk);
  EXPECT_NE(asked.reason.find("outside the sandbox"), std::string::npos) << asked.reason;
  EXPECT_EQ(asked.rules_to_save, (std::vector<std::string>{"mcp__db__drop"}));
  for (const char* rule : {"mcp__db__drop", "mcp__db__*", "mcp__db"}) {
    PolicyOptions ruled = options(PermissionMode::kAuto);
    auto loaded = RuleSet::load(
        {{dir_.path() / "settings.json", json{{"permissions", {{"allow", {rule}}}}}, tree()}});
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    ruled.rules = std::make_shared<const RuleSet>(std::move(loaded.value()));
    EXPECT_EQ(verdict(ruled, kMcp), CallVerdict::kAllow) << rule;
  }
}

TEST_F(PermissionPolicyTest, WithoutTheSandboxAutoAsksBeforeEachCommandSayingWhy) {
  PolicyOptions unconfined = options(PermissionMode::kAuto);
  unconfined.sandbox = {.confining = false, .unavailable = "bubblewrap cannot create namespaces"};
  const core::GateRequest request{"c", "bash", &kBash.args};
  const Assessment assessment = PermissionPolicy(unconfined).assess(request);
  EXPECT_EQ(assessment.verdict, CallVerdict::kAsk);
  EXPECT_EQ(assessment.reason, "bubblewrap cannot create namespaces");
  EXPECT_EQ(verdict(unconfined, kEditInside), CallVerdict::kAllow)
      << "edits do not need the sandbox";
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
  auto with_rules = [&](PermissionMode mode, const json& permissions) {
    PolicyOptions ruled = options(mode);
    auto loaded = RuleSet::load(
        {{dir_.path() / "settings.json", json{{"permissions", permissions}}, tree()}});
    EXPECT_TRUE(loaded.ok()) << loaded.error();
    ruled.rules = std::make_shared<const RuleSet>(std::move(loaded.value()));
    return ruled;
  };
  const json deny_all = {{"deny", {"Bash", "Read"}}};
  const json ask_read = {{"ask", {"Read"}}};
  const json allow = {{"allow", {"Bash(make:*)", "Bash(npm install)", "Edit"}}};
  const json narrow_deny = {{"allow", {"Bash(git:*)"}}, {"deny", {"Bash(git push:*)"}}};
  EXPECT_EQ(verdict(with_rules(PermissionMode::kYolo, deny_all), kLs), CallVerdict::kDeny);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, deny_all), kRead), CallVerdict::kDeny);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, ask_read), kRead), CallVerdict::kAsk);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kYolo, ask_read), kRead), CallVerdict::kAllow)
      << "yolo asks nothing";
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAsk, allow), kBash), CallVerdict::kAllow);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, allow), kNetwork), CallVerdict::kAllow)
      << "a rule allows what auto would ask about";
  EXPECT_EQ(verdict(with_rules(PermissionMode::kReadOnly, allow), kEditInside), CallVerdict::kDeny)
      << "no rule makes read-only write";
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAsk, narrow_deny),
                    Call{"bash", {{"command", "git status && git push origin"}}}),
            CallVerdict::kDeny);
  const core::GateRequest request{"c", "bash", &kBash.args};
  const Assessment denied =
      PermissionPolicy(with_rules(PermissionMode::kAuto, deny_all)).assess(request);
  EXPECT_NE(denied.reason.find("Bash"), std::string::npos) << denied.reason;
  EXPECT_NE(denied.reason.find("settings.json"), std::string::npos) << "names the file";
}

TEST_F(PermissionPolicyTest, AHookThatAllowsSparesTheQuestionButNotADenyRule) {
  PolicyOptions ruled = options(PermissionMode::kAsk);
  auto loaded = RuleSet::load(
      {{dir_.path() / "settings.json", json{{"permissions", {{"deny", {"Bash(rm:*)"}}}}}, tree()}});
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ruled.rules = std::make_shared<const RuleSet>(std::move(loaded.value()));
  const PermissionPolicy policy(ruled);
  core::GateRequest allowed{"c", "bash", &kBash.args};
  allowed.hook_allows = true;
  EXPECT_EQ(policy.assess(allowed).verdict, CallVerdict::kAllow);
  const json rm = {{"command", "rm -rf build"}};
  core::GateRequest denied{"c", "bash", &rm};
  denied.hook_allows = true;
  EXPECT_EQ(policy.assess(denied).verdict, CallVerdict::kDeny);
}

TEST_F(PermissionPolicyTest, ReadingSecretsAsksByDefault) {
  PolicyOptions defaults = options(PermissionMode::kYolo);
  defaults.mode = PermissionMode::kAuto;
  defaults.home = dir_.path();
  EXPECT_EQ(
      verdict(defaults, Call{"read", {{"path", (dir_.path() / ".ssh/id_rsa").string()}}, true}),
      CallVerdict::kAsk);
  EXPECT_EQ(verdict(defaults, Call{"read", {{"path", ".env"}}, true}), CallVerdict::kAsk);
}

TEST_F(PermissionPolicyTest, ACompoundCommandIsOfferedOneRulePerPart) {
  const Call compound{"bash", {{"command", "npm test --watch && git log -5 | head"}}};
  const core::GateRequest request{"c", compound.tool, &compound.args};
  const Assessment asked = PermissionPolicy(options(PermissionMode::kAsk)).assess(request);
  EXPECT_EQ(asked.rules_to_save,
            (std::vector<std::string>{"Bash(npm test:*)", "Bash(git log:*)", "Bash(head:*)"}));
  EXPECT_EQ(asked.parts.size(), 3u);
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
  EXPECT_EQ(rules(kBash), std::vector<std::string>{"Bash(make test:*)"});
}

}  // namespace
}  // namespace nib::permissions
