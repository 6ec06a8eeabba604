#include "core/plan.hpp"

namespace nib::core {

const char* plan_status_name(PlanStatus status) {
  switch (status) {
    case PlanStatus::kPending:
      return "pending";
    case PlanStatus::kInProgress:
      return "in_progress";
    case PlanStatus::kCompleted:
      break;
  }
  return "completed";
}

std::optional<PlanStatus> parse_plan_status(std::string_view name) {
  for (const PlanStatus status :
       {PlanStatus::kPending, PlanStatus::kInProgress, PlanStatus::kCompleted}) {
    if (name == plan_status_name(status)) return status;
  }
  return std::nullopt;
}

}  // namespace nib::core
