// The permission policy: the mode × tool × path matrix, and how rules and --ask bend it.

#include "permissions/permission_policy.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "support/call_builders.hpp"
#include "support/temp_dir.hpp"

namespace nib::permissions {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using core::AccessKind;
using core::Confinement;
using testing::command_call;
using testing::kind_call;
using testing::path_call;

// A call as the policy sees it: its tool's name and what the tool says it touches (paths
// relative to the tree are resolved against it when the test sets it up).
struct Call {
  std::string tool;
  AccessKind kind = AccessKind::kChange;
  std::string path;     // for kRead and kWrite
  std::string command;  // for kExecute
  Confinement confinement = Confinement::kSandboxed;
};

class PermissionPolicyTest : public ::testing::Test {
 protected:
  PolicyOptions options(PermissionMode mode) {
    return {.mode = mode,
            .working_tree = tree(),
            .protection = [this](const fs::path& path) -> std::optional<std::string> {
              for (const char* guarded : {".git/hooks", ".nib", ".mcp.json", ".claude"}) {
                const fs::path relative = path.lexically_relative(tree() / guarded);
                if (!relative.empty() && *relative.begin() != "..") return "protected";
              }
              return std::nullopt;
            }};
  }
  fs::path tree() const { return dir_.path() / "tree"; }
  core::CallAccess access_of(const Call& call) const {
    switch (call.kind) {
      case AccessKind::kRead:
      case AccessKind::kWrite:
        return path_call(call.kind, tree(), call.path);
      case AccessKind::kExecute:
        return command_call(call.command, call.confinement, "needed");
      default:
        return kind_call(call.kind);
    }
  }
  Assessment assess(const PolicyOptions& options, const Call& call,
                    const std::string& hook_asks = "", bool hook_allows = false) const {
    const json args = json::object();
    const core::CallAccess access = access_of(call);
    core::GateRequest request{"call_1", call.tool, &args, &access};
    request.hook_asks = hook_asks;
    request.hook_allows = hook_allows;
    return PermissionPolicy(options).assess(request);
  }
  CallVerdict verdict(const PolicyOptions& options, const Call& call) const {
    return assess(options, call).verdict;
  }
  CallVerdict verdict(PermissionMode mode, const Call& call) {
    return verdict(options(mode), call);
  }
  PolicyOptions with_rules(PermissionMode mode, const json& permissions) {
    PolicyOptions ruled = options(mode);
    auto loaded = RuleSet::load(
        {{dir_.path() / "settings.json", json{{"permissions", permissions}}, tree()}});
    EXPECT_TRUE(loaded.ok()) << loaded.error();
    ruled.rules = std::make_shared<const RuleSet>(std::move(loaded.value()));
    return ruled;
  }

  void SetUp() override {
    fs::create_directories(tree() / "src");
    fs::create_directories(tree() / ".git" / "hooks");
    fs::create_directory_symlink("/etc", tree() / "etc-link");
    fs::create_symlink(dir_.path() / "outside.txt", tree() / "dangling");
  }

  testing::TempDir dir_;
};

const Call kRead{"read", AccessKind::kRead, "src/a.cpp"};
const Call kBash{"bash", AccessKind::kExecute, "", "make test"};
const Call kLs{"bash", AccessKind::kExecute, "", "ls -la"};
const Call kNetwork{"bash", AccessKind::kExecute, "", "npm install",
                    Confinement::kSandboxedNetwork};
const Call kUnsandboxed{"bash", AccessKind::kExecute, "", "docker ps",
                        Confinement::kUnconfinedAsked};
const Call kExcluded{"bash", AccessKind::kExecute, "", "docker build .",
                     Confinement::kUnconfinedExcluded};
const Call kSwitchedOff{"bash", AccessKind::kExecute, "", "make test",
                        Confinement::kUnconfinedByUser};
const Call kEditInside{"edit", AccessKind::kWrite, "src/a.cpp"};
const Call kWriteNew{"write", AccessKind::kWrite, "src/new/dir/b.cpp"};
const Call kWriteOutside{"write", AccessKind::kWrite, "../elsewhere.txt"};
const Call kWriteThroughLink{"write", AccessKind::kWrite, "etc-link/passwd"};
const Call kWriteHook{"write", AccessKind::kWrite, ".git/hooks/pre-commit"};
const Call kWriteSettings{"edit", AccessKind::kWrite, ".nib/settings.json"};
const Call kWriteMcp{"write", AccessKind::kWrite, ".mcp.json"};
const Call kWriteClaudeHook{"write", AccessKind::kWrite, ".claude/hooks/run.sh"};
const Call kMcp{"mcp__db__drop", AccessKind::kExternal};
const Call kFetch{"web_fetch", AccessKind::kNetwork};
const Call kTodo{"todo_write", AccessKind::kNone};
const Call kJobKill{"job_kill", AccessKind::kChange};
const Call kTask{"task", AccessKind::kDelegate};

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
      {&kExcluded, kAsk, kAsk, kDeny, kAllow},
      {&kSwitchedOff, kAllow, kAsk, kDeny, kAllow},
      {&kEditInside, kAllow, kAsk, kDeny, kAllow},
      {&kWriteNew, kAllow, kAsk, kDeny, kAllow},
      {&kWriteOutside, kAsk, kAsk, kDeny, kAllow},
      {&kWriteThroughLink, kAsk, kAsk, kDeny, kAllow},
      {&kWriteHook, kAsk, kAsk, kDeny, kAllow},
      {&kWriteSettings, kAsk, kAsk, kDeny, kAllow},
      {&kWriteMcp, kAsk, kAsk, kDeny, kAllow},
      {&kWriteClaudeHook, kAsk, kAsk, kDeny, kAllow},
      {&kMcp, kAsk, kAsk, kAsk, kAllow},
      {&kFetch, kAllow, kAsk, kAllow, kAllow},
      {&kTodo, kAllow, kAllow, kAllow, kAllow},
      {&kJobKill, kAllow, kAsk, kDeny, kAllow},
      {&kTask, kAllow, kAllow, kAllow, kAllow},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.call->tool + " " + row.call->path + row.call->command);
    EXPECT_EQ(verdict(PermissionMode::kAuto, *row.call), row.in_auto);
    EXPECT_EQ(verdict(PermissionMode::kAsk, *row.call), row.in_ask);
    EXPECT_EQ(verdict(PermissionMode::kReadOnly, *row.call), row.in_read_only);
    EXPECT_EQ(verdict(PermissionMode::kYolo, *row.call), row.in_yolo);
  }
}

// A server's tool runs outside the sandbox: auto asks, offering the tool's rule, and a rule
// naming the tool or its server lets it run.
TEST_F(PermissionPolicyTest, AnMcpToolAsksInAutoUntilARuleAllowsIt) {
  const Assessment asked = assess(options(PermissionMode::kAuto), kMcp);
  EXPECT_EQ(asked.verdict, CallVerdict::kAsk);
  EXPECT_NE(asked.reason.find("outside the sandbox"), std::string::npos) << asked.reason;
  EXPECT_EQ(asked.rules_to_save, (std::vector<std::string>{"mcp__db__drop"}));
  for (const char* rule : {"mcp__db__drop", "mcp__db__*", "mcp__db"}) {
    EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, {{"allow", {rule}}}), kMcp),
              CallVerdict::kAllow)
        << rule;
  }
}

TEST_F(PermissionPolicyTest, WithoutTheSandboxAutoAsksBeforeEachCommandSayingWhy) {
  Call unconfined = kBash;
  unconfined.confinement = Confinement::kUnconfinedUnavailable;
  core::CallAccess access = access_of(unconfined);
  access.command->unavailable = "bubblewrap cannot create namespaces";
  const json args = json::object();
  const core::GateRequest request{"c", "bash", &args, &access};
  const Assessment assessment = PermissionPolicy(options(PermissionMode::kAuto)).assess(request);
  EXPECT_EQ(assessment.verdict, CallVerdict::kAsk);
  EXPECT_EQ(assessment.reason, "bubblewrap cannot create namespaces");
  EXPECT_EQ(assessment.rules_to_save, std::vector<std::string>{"Bash(unsandboxed:make test:*)"});
}

// Leaving the sandbox takes a rule that says so: a plain command rule never lets a command
// out, nor onto the host's network.
TEST_F(PermissionPolicyTest, OnlyARuleThatSaysSoLetsACommandLeaveTheSandbox) {
  const json plain = {{"allow", {"Bash(npm install:*)", "Bash(docker:*)"}}};
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, plain), kNetwork), CallVerdict::kAsk);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, plain), kUnsandboxed), CallVerdict::kAsk);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, plain), kExcluded), CallVerdict::kAsk);
  const json network = {{"allow", {"Bash(network:npm install:*)"}}};
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, network), kNetwork), CallVerdict::kAllow);
  EXPECT_EQ(
      verdict(with_rules(PermissionMode::kAuto, network),
              Call{"bash", AccessKind::kExecute, "", "npm install", Confinement::kUnconfinedAsked}),
      CallVerdict::kAsk)
      << "the network is not the whole way out";
  const json outside = {{"allow", {"Bash(unsandboxed:docker:*)"}}};
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, outside), kUnsandboxed), CallVerdict::kAllow);
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto, outside), kExcluded), CallVerdict::kAllow);
  EXPECT_EQ(assess(options(PermissionMode::kAuto), kNetwork).rules_to_save,
            std::vector<std::string>{"Bash(network:npm install:*)"});
  EXPECT_EQ(assess(options(PermissionMode::kAuto), kUnsandboxed).rules_to_save,
            std::vector<std::string>{"Bash(unsandboxed:docker ps:*)"});
}

TEST_F(PermissionPolicyTest, DenyThenAskThenAllow) {
  // Deny first, so that a broad allow ("Bash(git:*)") cannot open what a narrow deny
  // ("Bash(git push:*)") closes, whichever file each is in.
  const json deny_all = {{"deny", {"Bash", "Read"}}};
  const json ask_read = {{"ask", {"Read"}}};
  const json allow = {{"allow", {"Bash(make:*)", "Bash(network:npm install)", "Edit"}}};
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
                    Call{"bash", AccessKind::kExecute, "", "git status && git push origin"}),
            CallVerdict::kDeny);
  const Assessment denied = assess(with_rules(PermissionMode::kAuto, deny_all), kBash);
  EXPECT_NE(denied.reason.find("Bash"), std::string::npos) << denied.reason;
  EXPECT_NE(denied.reason.find("settings.json"), std::string::npos) << "names the file";
}

// A command's allowed-tools spare ask mode's questions for what they name, as auto mode would
// run it, and no more: a command file may come from the repository.
TEST_F(PermissionPolicyTest, ACommandsGrantsSpareAskModesQuestionsAndNothingAutoModeAsks) {
  const PolicyOptions granting = with_rules(PermissionMode::kAsk, {{"allow", {"Bash(make:*)"}}});
  const std::shared_ptr<const RuleSet> grants =
      with_rules(PermissionMode::kAsk, {{"allow",
                                         {"Bash(ls:*)", "Bash(docker:*)", "Bash(unsandboxed:*)",
                                          "Bash(network:*)", "Edit", "Write", "mcp__db__drop"}}})
          .rules;
  const auto granted = [&](const PolicyOptions& policy, const Call& call) {
    const json args = json::object();
    const core::CallAccess access = access_of(call);
    return PermissionPolicy(policy)
        .assess({"call_1", call.tool, &args, &access}, grants.get())
        .verdict;
  };
  EXPECT_EQ(granted(granting, kLs), CallVerdict::kAllow) << "granted for the run";
  EXPECT_EQ(verdict(granting, kLs), CallVerdict::kAsk) << "not without the grant";
  EXPECT_EQ(granted(granting, kEditInside), CallVerdict::kAllow);
  EXPECT_EQ(granted(granting, kBash), CallVerdict::kAllow) << "the user's own rule still holds";
  // What auto mode asks about stays asked, whatever the grant says it reaches.
  for (PermissionMode mode : {PermissionMode::kAsk, PermissionMode::kAuto}) {
    const PolicyOptions policy = options(mode);
    EXPECT_EQ(granted(policy, kUnsandboxed), CallVerdict::kAsk) << "leaves the sandbox";
    EXPECT_EQ(granted(policy, kExcluded), CallVerdict::kAsk);
    EXPECT_EQ(granted(policy,
                      Call{"bash", AccessKind::kExecute, "", "ls", Confinement::kSandboxedNetwork}),
              CallVerdict::kAsk)
        << "the network";
    EXPECT_EQ(granted(policy, kWriteOutside), CallVerdict::kAsk) << "outside the tree";
    EXPECT_EQ(granted(policy, kWriteThroughLink), CallVerdict::kAsk);
    EXPECT_EQ(granted(policy, kWriteHook), CallVerdict::kAsk) << "protected";
    EXPECT_EQ(granted(policy, kWriteSettings), CallVerdict::kAsk) << "protected";
    EXPECT_EQ(granted(policy, kMcp), CallVerdict::kAsk) << "an MCP tool";
  }
  EXPECT_EQ(granted(with_rules(PermissionMode::kAsk, {{"deny", {"Bash(ls:*)"}}}), kLs),
            CallVerdict::kDeny);
  EXPECT_EQ(granted(with_rules(PermissionMode::kAsk, {{"ask", {"Bash(ls:*)"}}}), kLs),
            CallVerdict::kAsk);
  EXPECT_EQ(granted(options(PermissionMode::kReadOnly), kEditInside), CallVerdict::kDeny);
}

TEST_F(PermissionPolicyTest, AHookThatAllowsSparesTheQuestionButNotADenyRule) {
  const PolicyOptions ruled = with_rules(PermissionMode::kAsk, {{"deny", {"Bash(rm:*)"}}});
  EXPECT_EQ(assess(ruled, kBash, "", /*hook_allows=*/true).verdict, CallVerdict::kAllow);
  EXPECT_EQ(assess(ruled, Call{"bash", AccessKind::kExecute, "", "rm -rf build"}, "", true).verdict,
            CallVerdict::kDeny);
}

TEST_F(PermissionPolicyTest, ReadingSecretsAsksByDefault) {
  PolicyOptions defaults = options(PermissionMode::kAuto);
  defaults.home = dir_.path();
  EXPECT_EQ(
      verdict(defaults, Call{"read", AccessKind::kRead, (dir_.path() / ".ssh/id_rsa").string()}),
      CallVerdict::kAsk);
  EXPECT_EQ(verdict(defaults, Call{"read", AccessKind::kRead, ".env"}), CallVerdict::kAsk);
  EXPECT_EQ(verdict(defaults, Call{"grep", AccessKind::kRead, (dir_.path() / ".aws").string()}),
            CallVerdict::kAsk);
}

// Rules about paths judge the path the tool opens and the file it reaches: a link inside the
// tree to a file outside is outside, even a dangling one, which writing would create.
TEST_F(PermissionPolicyTest, AWriteThroughALinkIsJudgedWhereTheLinkLeads) {
  const Assessment asked =
      assess(options(PermissionMode::kAuto), Call{"write", AccessKind::kWrite, "dangling"});
  EXPECT_EQ(asked.verdict, CallVerdict::kAsk);
  EXPECT_NE(asked.reason.find("outside the working tree"), std::string::npos) << asked.reason;
  EXPECT_EQ(verdict(with_rules(PermissionMode::kAuto,
                               {{"deny", {"Edit(/" + dir_.path().string() + "/outside.txt)"}}}),
                    Call{"write", AccessKind::kWrite, "dangling"}),
            CallVerdict::kDeny);
}

TEST_F(PermissionPolicyTest, ACompoundCommandIsOfferedOneRulePerPart) {
  const Assessment asked =
      assess(options(PermissionMode::kAsk),
             Call{"bash", AccessKind::kExecute, "", "npm test --watch && git log -5 | head"});
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
    return assess(options(PermissionMode::kAsk), call).rules_to_save;
  };
  EXPECT_EQ(rules(kEditInside), std::vector<std::string>{"Edit(./src/**)"});
  EXPECT_EQ(rules(kWriteNew), std::vector<std::string>{"Edit(./src/new/dir/**)"});
  EXPECT_EQ(rules(kMcp), std::vector<std::string>{"mcp__db__drop"});
  EXPECT_EQ(rules(kBash), std::vector<std::string>{"Bash(make test:*)"});
}

}  // namespace
}  // namespace nib::permissions
