#include "agent/subagent_environment.hpp"

namespace nib::agent {

InheritedRun inherit_from(const core::LoopOptions& loop, std::string provider_name) {
  InheritedRun inherited;
  inherited.provider = loop.provider;
  inherited.provider_name = std::move(provider_name);
  inherited.model = loop.model;
  inherited.thinking = loop.thinking;
  inherited.web_search = loop.web_search;
  inherited.pre_tool = loop.pre_tool;
  inherited.gate = loop.gate;
  inherited.after_tool = loop.after_tool;
  inherited.max_turns = loop.max_turns;
  inherited.spend = loop.spend;
  inherited.cache_key = loop.cache_key;
  inherited.cwd = loop.cwd;
  inherited.abort_grace = loop.abort_grace;
  inherited.slots = loop.slots;
  inherited.requests = loop.requests;
  inherited.claims = loop.claims;
  return inherited;
}

}  // namespace nib::agent
