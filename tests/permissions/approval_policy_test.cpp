#include "permissions/approval_policy.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <deque>
#include <stdexcept>

#include "support/call_builders.hpp"

namespace nib::permissions {
namespace {

using json = nlohmann::json;

// A request as the scheduler makes it, with the call's access as its tool would report it.
core::GateRequest request_for(const std::string& name, const json* args = nullptr) {
  static std::deque<core::CallAccess> accesses;  // outlive the requests
  const json none = json::object();
  const json& given = args != nullptr ? *args : none;
  core::CallAccess access = testing::kind_call(core::AccessKind::kChange);
  if (name == "read") access = testing::kind_call(core::AccessKind::kRead);
  if (name == "edit" || name == "write") {
    access = testing::path_call(core::AccessKind::kWrite, "/tree", given.value("path", "a.txt"));
  }
  if (name == "bash") access = testing::command_call(given.value("command", "true"));
  if (name == "web_fetch") {
    std::string host = given.value("url", "");
    host = host.substr(host.find("://") + 3);
    host = host.substr(0, host.find_first_of("/?"));
    for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    access = testing::fetch_call(given.value("url", ""), host);
  }
  accesses.push_back(std::move(access));
  return {"call_1", name, args, &accesses.back()};
}

PolicyOptions asking_for(std::vector<std::string> tools) {
  return {.mode = PermissionMode::kYolo, .ask_tools = std::move(tools)};
}

TEST(ApprovalPolicy, AsksOnlyForTheNamedTools) {
  ApprovalPolicy policy(asking_for({"bash", "edit"}));
  std::vector<std::string> asked;
  const core::Gate gate = policy.gate([&asked](const ApprovalQuestion& question, std::stop_token) {
    asked.push_back(question.tool_name);
    return ApprovalAnswer::kNo;
  });
  EXPECT_FALSE(gate(request_for("read"), {}).block);
  const auto refused = gate(request_for("edit"), {});
  EXPECT_TRUE(refused.block);
  EXPECT_EQ(refused.source, "user");
  EXPECT_NE(refused.reason.find("declined"), std::string::npos);
  EXPECT_NE(refused.reason.find("Do not retry"), std::string::npos);
  EXPECT_EQ(asked, std::vector<std::string>{"edit"});
}

TEST(ApprovalPolicy, AlwaysRemembersTheQuestionsRulesAndSavesThem) {
  std::vector<std::string> saved;
  ApprovalPolicy policy(asking_for({"all"}));
  int asked = 0;
  const core::Gate gate = policy.gate(
      [&asked](const ApprovalQuestion&, std::stop_token) {
        ++asked;
        return ApprovalAnswer::kAlways;
      },
      [&](const std::vector<std::string>& rules) { saved = rules; });
  const json npm_test = {{"command", "npm test"}};
  EXPECT_FALSE(gate(request_for("bash", &npm_test), {}).block);
  EXPECT_FALSE(gate(request_for("bash", &npm_test), {}).block);
  EXPECT_EQ(asked, 1) << "not asked again";
  EXPECT_EQ(saved, std::vector<std::string>{"Bash(npm test:*)"});
  EXPECT_FALSE(gate(request_for("edit"), {}).block);
  EXPECT_EQ(asked, 2);
}

TEST(ApprovalPolicy, EditedRulesAreTheOnesSaved) {
  std::vector<std::string> saved;
  ApprovalPolicy policy(asking_for({"bash"}));
  const core::Gate gate = policy.gate(
      [](const ApprovalQuestion& question, std::stop_token) {
        EXPECT_EQ(question.rules, std::vector<std::string>{"Bash(make:*)"});
        return ApprovalReply(ApprovalAnswer::kAlways, {"Bash(make -j8)"});
      },
      [&](const std::vector<std::string>& rules) { saved = rules; });
  const json make = {{"command", "make -j8"}};
  EXPECT_FALSE(gate(request_for("bash", &make), {}).block);
  EXPECT_EQ(saved, std::vector<std::string>{"Bash(make -j8)"});
}

TEST(ApprovalPolicy, AHookThatAsksMakesTheGateAskForAnyToolInAnyMode) {
  ApprovalPolicy policy(PolicyOptions{.mode = PermissionMode::kYolo});
  std::vector<std::string> asked;
  const core::Gate gate = policy.gate([&asked](const ApprovalQuestion& question, std::stop_token) {
    asked.push_back(question.tool_name);
    return ApprovalAnswer::kAlways;
  });
  EXPECT_FALSE(gate(request_for("read"), {}).block);
  core::GateRequest hook_asks = request_for("read");
  hook_asks.hook_asks = "reads outside the tree";
  EXPECT_FALSE(gate(hook_asks, {}).block);
  EXPECT_FALSE(gate(hook_asks, {}).block);
  EXPECT_EQ(asked, (std::vector<std::string>{"read", "read"})) << "asked each time";

  const auto refused = ApprovalPolicy(asking_for({"bash"})).gate({})(hook_asks, {});
  EXPECT_TRUE(refused.block);
  EXPECT_EQ(refused.source, "hook");
  EXPECT_EQ(refused.reason,
            "Not run: a hook asks for the user's approval of this call (reads outside the tree), "
            "and nobody can be asked in print mode. Do not retry this call; do without it, or tell "
            "the user what you would have run.");
}

TEST(ApprovalPolicy, AnInterruptedQuestionBlocks) {
  ApprovalPolicy policy(asking_for({"all"}));
  const auto decision = policy.gate([](const ApprovalQuestion&, std::stop_token) {
    return ApprovalAnswer::kInterrupted;
  })(request_for("write"), {});
  EXPECT_TRUE(decision.block);
  EXPECT_NE(decision.reason.find("interrupted"), std::string::npos);
}

TEST(ApprovalPolicy, WithNobodyToAskTheCallIsRefusedSayingWhatWouldAllowIt) {
  ApprovalPolicy ask_flag(asking_for({"bash"}));
  const auto refused = ask_flag.gate({})(request_for("bash"), {});
  EXPECT_TRUE(refused.block);
  EXPECT_NE(refused.reason.find("print mode"), std::string::npos);
  EXPECT_NE(refused.reason.find("--ask"), std::string::npos);

  ApprovalPolicy ask_mode(PolicyOptions{.mode = PermissionMode::kAsk});
  const json args = {{"command", "rm -rf build"}};
  const auto by_mode = ask_mode.gate({})(request_for("bash", &args), {});
  EXPECT_TRUE(by_mode.block);
  EXPECT_EQ(by_mode.source, "ask mode");
  EXPECT_NE(by_mode.reason.find("\"Bash(rm:*)\""), std::string::npos) << by_mode.reason;
  EXPECT_NE(by_mode.reason.find("settings.local.json"), std::string::npos);
  EXPECT_NE(by_mode.reason.find("--permission-mode auto"), std::string::npos);
  EXPECT_NE(by_mode.reason.find("Do not retry"), std::string::npos);
}

// A tool that previews its change as "<cwd>: <args>", counting the previews (or throws).
class PreviewingTool final : public core::Tool {
 public:
  explicit PreviewingTool(bool throws = false) : Tool({"edit", "", {}}), throws_(throws) {}
  core::ToolOutput execute(const json&, std::stop_token, const core::ToolContext&) override {
    return {"edited"};
  }
  std::optional<core::ChangePreview> preview_change(const json& args,
                                                    const core::ToolContext& context,
                                                    std::stop_token) const override {
    ++previews;
    if (throws_) throw std::runtime_error("no such thing");
    return core::ChangePreview{.diff = context.cwd.string() + ": " + args.dump()};
  }
  mutable int previews = 0;

 private:
  bool throws_;
};

TEST(ApprovalPolicy, TheQuestionCarriesTheToolsPreviewOfItsArgumentsInItsContext) {
  ApprovalPolicy policy(asking_for({"edit"}));
  PreviewingTool tool;
  const core::ToolContext context{"call_1", "/tree"};
  const json args = {{"path", "a"}};
  core::GateRequest request = request_for("edit", &args);
  request.tool = &tool;
  request.context = &context;
  std::optional<core::ChangePreview> shown;
  const core::Gate gate = policy.gate([&](const ApprovalQuestion& question, std::stop_token) {
    shown = question.preview;
    return ApprovalAnswer::kYes;
  });
  EXPECT_FALSE(gate(request, {}).block);
  ASSERT_TRUE(shown);
  EXPECT_EQ(shown->diff, R"(/tree: {"path":"a"})");

  // With nobody to ask (print mode, stream-json) no preview is worked out.
  EXPECT_TRUE(policy.gate({})(request, {}).block);
  EXPECT_EQ(tool.previews, 1);
}

TEST(ApprovalPolicy, APreviewThatThrowsStillAsksAndSaysSo) {
  ApprovalPolicy policy(asking_for({"edit"}));
  PreviewingTool tool(/*throws=*/true);
  const json args = json::object();
  core::GateRequest request = request_for("edit", &args);
  request.tool = &tool;
  std::optional<core::ChangePreview> shown;
  const auto decision = policy.gate([&](const ApprovalQuestion& question, std::stop_token) {
    shown = question.preview;
    return ApprovalAnswer::kYes;
  })(request, {});
  EXPECT_FALSE(decision.block);
  ASSERT_TRUE(shown);
  EXPECT_EQ(shown->summary, "No preview: it failed (no such thing).");
  EXPECT_TRUE(shown->failure.empty());
}

TEST(ApprovalPolicy, ARefusalByTheModeSaysTheMode) {
  ApprovalPolicy policy(PolicyOptions{.mode = PermissionMode::kReadOnly});
  int asked = 0;
  const auto refused = policy.gate([&](const ApprovalQuestion&, std::stop_token) {
    ++asked;
    return ApprovalAnswer::kYes;
  })(request_for("write"), {});
  EXPECT_TRUE(refused.block);
  EXPECT_EQ(refused.source, "read-only mode");
  EXPECT_EQ(asked, 0) << "a refusal is not a question";
}

TEST(ApprovalPolicy, InAskModeEachNewDomainAsksOnce) {
  ApprovalPolicy policy(PolicyOptions{.mode = PermissionMode::kAsk});
  std::vector<std::string> asked;
  const core::Gate gate = policy.gate([&](const ApprovalQuestion& question, std::stop_token) {
    asked.push_back(question.rules.at(0));
    return ApprovalAnswer::kYes;
  });
  const json docs = {{"url", "https://Docs.rs/serde"}};
  const json docs_again = {{"url", "https://docs.rs/tokio?x=1"}};
  const json other = {{"url", "https://example.com/"}};
  auto fetch = [&](const json& args) { return gate(request_for("web_fetch", &args), {}).block; };
  EXPECT_FALSE(fetch(docs));
  EXPECT_FALSE(fetch(docs_again));
  EXPECT_FALSE(fetch(other));
  EXPECT_EQ(asked,
            (std::vector<std::string>{"WebFetch(domain:docs.rs)", "WebFetch(domain:example.com)"}));
}

TEST(ApprovalPolicy, TheModeCanChangeBetweenCalls) {
  ApprovalPolicy policy(PolicyOptions{.mode = PermissionMode::kYolo});
  const core::Gate gate = policy.gate({});
  EXPECT_FALSE(gate(request_for("write"), {}).block);
  policy.policy().set_mode(PermissionMode::kReadOnly);
  EXPECT_TRUE(gate(request_for("write"), {}).block);
}

TEST(PermissionModeTest, NibsAndClaudeCodesNames) {
  for (const auto mode : {PermissionMode::kAuto, PermissionMode::kAsk, PermissionMode::kReadOnly,
                          PermissionMode::kYolo}) {
    EXPECT_EQ(parse_mode(mode_name(mode)).value(), mode);
  }
  EXPECT_EQ(parse_mode("default").value(), PermissionMode::kAsk);
  EXPECT_EQ(parse_mode("acceptEdits").value(), PermissionMode::kAuto);
  EXPECT_EQ(parse_mode("plan").value(), PermissionMode::kReadOnly);
  EXPECT_EQ(parse_mode("bypassPermissions").value(), PermissionMode::kYolo);
  EXPECT_EQ(claude_mode_name(PermissionMode::kAuto), "acceptEdits");
  EXPECT_EQ(claude_mode_name(PermissionMode::kAsk), "default");
  EXPECT_EQ(claude_mode_name(PermissionMode::kReadOnly), "plan");
  EXPECT_EQ(claude_mode_name(PermissionMode::kYolo), "bypassPermissions");
  const auto unknown = parse_mode("careful");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().find("auto, ask, read-only or yolo"), std::string::npos);
}

}  // namespace
}  // namespace nib::permissions
