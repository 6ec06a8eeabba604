#include "extensions/agent_catalog.hpp"

#include <algorithm>

#include "extensions/listing.hpp"

namespace nib::extensions {

const AgentDefinition* AgentCatalog::find(std::string_view name) const {
  return find_by_name(agents, name);
}

AgentCatalog load_agent_definitions(const ExtensionRoots& roots) {
  AgentCatalog catalog;
  std::vector<AgentDefinition> found;
  for (const DefinitionFolder& folder :
       definition_folders(roots, "agents", ScopeOrder::kProjectFirst)) {
    for (const auto& file : markdown_files(folder.path, true, catalog.problems)) {
      read_definition(
          file, folder.origin,
          parse_in_folder(folder, parse_agent_definition, &AgentDefinition::system_prompt), found,
          catalog.problems);
    }
  }
  for (AgentDefinition& builtin : builtin_agents()) found.push_back(std::move(builtin));
  catalog.agents = keep_first_of_each_name(
      std::move(found),
      [](const AgentDefinition& agent) -> const std::string& { return agent.name; },
      catalog.problems);
  return catalog;
}

std::string agent_listing(const std::vector<AgentDefinition>& agents) {
  std::vector<const AgentDefinition*> sorted;
  for (const AgentDefinition& agent : agents) sorted.push_back(&agent);
  std::sort(sorted.begin(), sorted.end(),
            [](const AgentDefinition* a, const AgentDefinition* b) { return a->name < b->name; });
  std::string listing;
  for (const AgentDefinition* agent : sorted) {
    listing += listing_entry(agent->name, agent->description);
  }
  return listing;
}

}  // namespace nib::extensions
