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
    case RunStopReason::kError:
      return "error";
  }
  return "unknown";
}

}  // namespace nib::core
