#include "permissions/approval_policy.hpp"

#include <gtest/gtest.h>

namespace nib::permissions {
namespace {

core::GateRequest request_for(const std::string& name) {
  return {"call_1", name, nullptr};
}

TEST(ApprovalPolicy, AsksOnlyForTheNamedTools) {
  EXPECT_FALSE(ApprovalPolicy(std::vector<std::string>{}).gate({}))
      << "nothing to ask about: no gate at all";
  ApprovalPolicy policy({"bash", "edit"});
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
  EXPECT_TRUE(ApprovalPolicy({"all"}).needs_approval("grep"));
}

TEST(ApprovalPolicy, AlwaysIsRememberedForThatToolOnly) {
  ApprovalPolicy policy({"all"});
  int asked = 0;
  const core::Gate gate = policy.gate([&asked](const ApprovalQuestion&, std::stop_token) {
    ++asked;
    return ApprovalAnswer::kAlways;
  });
  EXPECT_FALSE(gate(request_for("bash"), {}).block);
  EXPECT_FALSE(gate(request_for("bash"), {}).block);
  EXPECT_EQ(asked, 1) << "not asked again";
  EXPECT_FALSE(gate(request_for("edit"), {}).block);
  EXPECT_EQ(asked, 2);
}

TEST(ApprovalPolicy, AHookThatAsksMakesTheGateAskForAnyTool) {
  ApprovalPolicy policy(std::vector<std::string>{});
  std::vector<std::string> asked;
  const core::Gate gate = policy.gate([&asked](const ApprovalQuestion& question, std::stop_token) {
    asked.push_back(question.tool_name);
    return ApprovalAnswer::kYes;
  });
  ASSERT_TRUE(gate) << "someone can be asked";
  EXPECT_FALSE(gate(request_for("read"), {}).block);
  core::GateRequest hook_asks = request_for("read");
  hook_asks.hook_asks = "reads outside the tree";
  EXPECT_FALSE(gate(hook_asks, {}).block);
  EXPECT_EQ(asked, std::vector<std::string>{"read"});

  const auto refused = ApprovalPolicy({"bash"}).gate({})(hook_asks, {});
  EXPECT_TRUE(refused.block);
  EXPECT_EQ(refused.reason,
            "Not run: a hook asks for the user's approval of this call (reads outside the tree), "
            "and nobody can be asked in print mode. Do without this tool, or tell the user what "
            "you would have run.");
}

TEST(ApprovalPolicy, AnInterruptedQuestionBlocks) {
  ApprovalPolicy policy({"all"});
  const auto decision = policy.gate([](const ApprovalQuestion&, std::stop_token) {
    return ApprovalAnswer::kInterrupted;
  })(request_for("write"), {});
  EXPECT_TRUE(decision.block);
  EXPECT_NE(decision.reason.find("interrupted"), std::string::npos);
}

TEST(ApprovalPolicy, WithNobodyToAskTheCallIsRefusedSayingWhy) {
  ApprovalPolicy policy({"bash"});
  const auto refused = policy.gate({})(request_for("bash"), {});
  EXPECT_TRUE(refused.block);
  EXPECT_NE(refused.reason.find("print mode"), std::string::npos);
  EXPECT_NE(refused.reason.find("--ask"), std::string::npos);
}

}  // namespace
}  // namespace nib::permissions
