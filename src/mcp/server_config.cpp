#include "mcp/server_config.hpp"

#include <xxhash.h>

#include <cstdio>

#include "util/json_text.hpp"

namespace nib::mcp {
namespace {

using Result = util::Result<std::vector<ServerConfig>>;

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

util::Result<Pairs> string_map(const nlohmann::json& entry, const char* field) {
  Pairs pairs;
  const auto found = entry.find(field);
  if (found == entry.end()) return pairs;
  if (!found->is_object()) {
    return util::Result<Pairs>::failure(std::string("\"") + field + "\" must be an object");
  }
  for (const auto& [key, value] : found->items()) {
    if (!value.is_string()) {
      return util::Result<Pairs>::failure(std::string("\"") + field + "\"." + key +
                                          " must be a string");
    }
    pairs.emplace_back(key, value.get<std::string>());
  }
  return pairs;
}

std::optional<std::string> optional_string(const nlohmann::json& entry, const char* field,
                                           std::string& error) {
  const auto found = entry.find(field);
  if (found == entry.end()) return std::nullopt;
  if (!found->is_string()) {
    error = std::string("\"") + field + "\" must be a string";
    return std::nullopt;
  }
  return found->get<std::string>();
}

util::Result<ServerConfig> parse_entry(const std::string& name, const nlohmann::json& entry) {
  using Entry = util::Result<ServerConfig>;
  if (!entry.is_object()) return Entry::failure("must be an object");
  ServerConfig config;
  config.name = name;
  std::string error;
  const std::string type = optional_string(entry, "type", error).value_or("");
  if (!error.empty()) return Entry::failure(error);
  if (type == "http" || type == "streamable-http" ||
      (type.empty() && entry.contains("url") && !entry.contains("command"))) {
    config.kind = ServerConfig::Kind::kHttp;
    config.url = optional_string(entry, "url", error).value_or("");
    if (!error.empty()) return Entry::failure(error);
    if (config.url.empty()) return Entry::failure("an http server needs a \"url\"");
    auto headers = string_map(entry, "headers");
    if (!headers.ok()) return Entry::failure(headers.error());
    config.headers = std::move(headers.value());
  } else if (type == "stdio" || type.empty()) {
    config.command = optional_string(entry, "command", error).value_or("");
    if (!error.empty()) return Entry::failure(error);
    if (config.command.empty()) {
      return Entry::failure("needs a \"command\" (a stdio server) or a \"url\" (an http server)");
    }
    if (const auto args = entry.find("args"); args != entry.end()) {
      if (!args->is_array()) return Entry::failure("\"args\" must be an array of strings");
      for (const nlohmann::json& arg : *args) {
        if (!arg.is_string()) return Entry::failure("\"args\" must be an array of strings");
        config.args.push_back(arg.get<std::string>());
      }
    }
    auto env = string_map(entry, "env");
    if (!env.ok()) return Entry::failure(env.error());
    config.env = std::move(env.value());
    config.cwd = optional_string(entry, "cwd", error).value_or("");
    if (!error.empty()) return Entry::failure(error);
  } else if (type == "sse") {
    return Entry::failure(
        "the SSE transport of MCP 2024-11-05 is not supported; use \"type\": \"http\" "
        "(streamable HTTP), which current servers offer");
  } else {
    return Entry::failure("unknown \"type\" \"" + type + "\" (use \"stdio\" or \"http\")");
  }
  for (const auto& [field, target] : {std::pair{"startupTimeoutMs", &config.startup_timeout},
                                      std::pair{"callTimeoutMs", &config.call_timeout}}) {
    const auto found = entry.find(field);
    if (found == entry.end()) continue;
    if (!found->is_number_integer() || found->get<std::int64_t>() <= 0) {
      return Entry::failure(std::string("\"") + field +
                            "\" must be a positive number of milliseconds");
    }
    *target = std::chrono::milliseconds(found->get<std::int64_t>());
  }
  const std::string written = util::json_text(entry);
  config.fingerprint = hex64(XXH3_64bits(written.data(), written.size()));
  return config;
}

}  // namespace

util::Result<std::vector<ServerConfig>> parse_servers(const nlohmann::json& servers,
                                                      const std::filesystem::path& file,
                                                      bool from_project) {
  if (!servers.is_object()) {
    return Result::failure(file.string() + ": \"mcpServers\" must be an object of servers");
  }
  std::vector<ServerConfig> configs;
  for (const auto& [name, entry] : servers.items()) {
    if (name.empty() || name.find_first_of(" \t\n/") != std::string::npos) {
      return Result::failure(file.string() + ": mcpServers: the server name \"" + name +
                             "\" must be non-empty without spaces or \"/\"");
    }
    auto config = parse_entry(name, entry);
    if (!config.ok()) {
      return Result::failure(file.string() + ": mcpServers." + name + ": " + config.error());
    }
    config.value().file = file;
    config.value().from_project = from_project;
    configs.push_back(std::move(config.value()));
  }
  return configs;
}

util::Result<std::string> expand_variables(const std::string& text, const VariableLookup& lookup) {
  using Expanded = util::Result<std::string>;
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = text.find("${", at);
    if (open == std::string::npos) break;
    const std::size_t close = text.find('}', open);
    if (close == std::string::npos) break;  // no closing brace: the text stays as written
    out.append(text, at, open - at);
    const std::string inner = text.substr(open + 2, close - open - 2);
    const std::size_t dash = inner.find(":-");
    const std::string name = inner.substr(0, dash);
    const std::optional<std::string> value = lookup(name);
    if (value && !value->empty()) {
      out += *value;
    } else if (dash != std::string::npos) {
      out += inner.substr(dash + 2);
    } else {
      return Expanded::failure("the environment variable " + name + " is not set (write ${" + name +
                               ":-default} for a default)");
    }
    at = close + 1;
  }
  out.append(text, at, std::string::npos);
  return out;
}

util::Result<ServerConfig> expand_config(ServerConfig config, const VariableLookup& lookup) {
  using Expanded = util::Result<ServerConfig>;
  std::vector<std::string*> fields = {&config.command, &config.cwd, &config.url};
  for (std::string& arg : config.args) fields.push_back(&arg);
  for (auto& [name, value] : config.env) fields.push_back(&value);
  for (auto& [name, value] : config.headers) fields.push_back(&value);
  for (std::string* field : fields) {
    auto expanded = expand_variables(*field, lookup);
    if (!expanded.ok()) return Expanded::failure(expanded.error());
    *field = std::move(expanded.value());
  }
  return config;
}

nlohmann::json to_json(const ServerConfig& config) {
  nlohmann::json entry = nlohmann::json::object();
  const auto add_pairs = [&](const char* field, const Pairs& pairs) {
    if (pairs.empty()) return;
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, value] : pairs) object[key] = value;
    entry[field] = std::move(object);
  };
  if (config.kind == ServerConfig::Kind::kHttp) {
    entry["type"] = "http";
    entry["url"] = config.url;
    add_pairs("headers", config.headers);
  } else {
    entry["command"] = config.command;
    entry["args"] = config.args;
    add_pairs("env", config.env);
    if (!config.cwd.empty()) entry["cwd"] = config.cwd;
  }
  if (config.startup_timeout) entry["startupTimeoutMs"] = config.startup_timeout->count();
  if (config.call_timeout) entry["callTimeoutMs"] = config.call_timeout->count();
  return entry;
}

std::string describe_transport(const ServerConfig& config) {
  if (config.kind == ServerConfig::Kind::kHttp) return "http: " + config.url;
  std::string line = "stdio: " + config.command;
  for (const std::string& arg : config.args) line += " " + arg;
  return line;
}

}  // namespace nib::mcp
