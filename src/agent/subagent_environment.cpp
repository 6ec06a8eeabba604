#include "agent/subagent_environment.hpp"

namespace nib::agent {

InheritedRun inherit_from(const core::LoopOptions& loop, std::string provider_name) {
  return InheritedRun{loop.provider, std::move(provider_name),
                      loop.model,    loop.thinking,
                      loop.gate,     loop.max_turns,
                      loop.cwd,      loop.abort_grace,
                      loop.slots,    loop.requests,
                      loop.claims};
}

}  // namespace nib::agent
