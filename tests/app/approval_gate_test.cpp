#include "app/approval_gate.hpp"

#include <gtest/gtest.h>

namespace nib::app {
namespace {

core::GateRequest request_for(const std::string& name) {
  return {"call_1", name, nullptr};
}

TEST(ApprovalGate, AsksOnlyForTheNamedToolsAndRefusesWithoutAUser) {
  EXPECT_FALSE(approval_gate({}, refuse_without_user));
  int asked = 0;
  const core::Gate gate = approval_gate({"bash", "edit"}, [&asked](const auto&, std::stop_token) {
    ++asked;
    return core::GateDecision{true, "no", "user"};
  });
  EXPECT_FALSE(gate(request_for("read"), {}).block);
  EXPECT_TRUE(gate(request_for("edit"), {}).block);
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(needs_approval({"all"}, "grep"));
  const auto refused = refuse_without_user(request_for("bash"), {});
  EXPECT_TRUE(refused.block);
  EXPECT_NE(refused.reason.find("print mode"), std::string::npos);
}

}  // namespace
}  // namespace nib::app
