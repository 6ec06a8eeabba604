#include "core/events.hpp"

namespace nib::core {

const char* run_stop_reason_name(RunStopReason reason) {
  switch (reason) {
    case RunStopReason::kDone:
      return "done";
    case RunStopReason::kAborted:
      return "aborted";
    case RunStopReason::kMaxTurns:
      return "max_turns";
    case RunStopReason::kMaxBudget:
      return "max_budget";
    case RunStopReason::kError:
      return "error";
  }
  return "unknown";
}

NestedView innermost(const SubagentEvent& event) {
  NestedView view{&event, &event.event->event, 1};
  while (const auto* deeper = std::get_if<SubagentEvent>(view.event)) {
    view = {deeper, &deeper->event->event, view.depth + 1};
  }
  return view;
}

}  // namespace nib::core
