#include "app/approval_gate.hpp"

#include <algorithm>

namespace nib::app {

bool needs_approval(const std::vector<std::string>& ask, const std::string& tool_name) {
  return std::any_of(ask.begin(), ask.end(), [&tool_name](const std::string& name) {
    return name == tool_name || name == "all";
  });
}

core::Gate approval_gate(std::vector<std::string> ask, core::Gate ask_user) {
  if (ask.empty()) return {};
  return [ask = std::move(ask), ask_user = std::move(ask_user)](const core::GateRequest& request,
                                                                std::stop_token stop) {
    if (!needs_approval(ask, request.name)) return core::GateDecision{};
    return ask_user(request, stop);
  };
}

core::GateDecision refuse_without_user(const core::GateRequest& request, std::stop_token) {
  return {true,
          "Not run: calls to " + request.name +
              " need the user's approval (--ask), and nobody can be asked in print mode. Do "
              "without this tool, or tell the user what you would have run.",
          "user"};
}

}  // namespace nib::app
