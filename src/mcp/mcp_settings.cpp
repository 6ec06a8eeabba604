#include "mcp/mcp_settings.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <utility>

namespace nib::mcp {

McpSettings read_mcp_settings(const std::vector<ConfigSource>& sources) {
  McpSettings settings;
  for (const ConfigSource& source : sources) {
    if (source.document == nullptr || !source.document->is_object()) continue;
    const auto section = source.document->find("mcp");
    if (section == source.document->end() || !section->is_object()) continue;
    for (const auto& [field, target] : {std::pair{"startupTimeoutMs", &settings.startup_timeout},
                                        std::pair{"callTimeoutMs", &settings.call_timeout}}) {
      const auto value = section->find(field);
      if (value == section->end()) continue;
      if (!value->is_number_integer() || value->get<std::int64_t>() <= 0) {
        settings.problems.push_back(source.file.string() + ": mcp." + field +
                                    " must be a positive number of milliseconds; the default "
                                    "is used");
        continue;
      }
      *target = std::chrono::milliseconds(value->get<std::int64_t>());
    }
    if (const auto above = section->find("toolSearchAboveKB"); above != section->end()) {
      if (above->is_number_integer() && above->get<std::int64_t>() >= 0) {
        settings.tool_search_above_bytes = above->get<std::size_t>() * 1024;
      } else {
        settings.problems.push_back(source.file.string() +
                                    ": mcp.toolSearchAboveKB must be a number of kilobytes (0 "
                                    "or more); the default is used");
      }
    }
    const auto allow = section->find("allow");
    if (allow == section->end()) continue;
    if (source.from_project) {
      settings.problems.push_back(source.file.string() +
                                  ": mcp.allow is only read from the user's settings (a project "
                                  "must not approve its own servers)");
      continue;
    }
    if (!allow->is_array()) continue;
    for (const auto& name : *allow) {
      if (name.is_string()) settings.allow.push_back(name.get<std::string>());
    }
  }
  return settings;
}

}  // namespace nib::mcp
