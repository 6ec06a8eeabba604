#pragma once
// What the scheduler claims for a call of `tool`: the tool's account of what the call touches
// (with its spec's kind stamped, as prepare_tool_call does), made into claims.

#include <vector>

#include <nlohmann/json.hpp>

#include "core/tool.hpp"

namespace nib::testing {

inline std::vector<core::ResourceClaim> call_claims(const core::Tool& tool,
                                                    const nlohmann::json& args,
                                                    const core::ToolContext& context) {
  core::CallAccess access = tool.access(args, context);
  access.kind = tool.spec().access;
  return tool.claims(access, args);
}

}  // namespace nib::testing
