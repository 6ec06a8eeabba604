#include "core/tool_registry.hpp"

#include <algorithm>
#include <mutex>
#include <sstream>

#include "util/ascii.hpp"

namespace nib::core {
namespace {

// The one policy for fields a built-in tool does not know (docs/tools.md, "Extra fields"): the
// arguments object of every built-in tool is closed (additionalProperties: false), here and not
// in each tool, so a call naming a field the tool does not list is refused before anything
// runs, with an error that names the field and lists the allowed ones (schema_validator's
// "unknown property"). Ignoring such a field would run the call without what the model meant by
// it ("recursive", "case_sensitive", "encoding") and let it believe otherwise; one corrected
// call costs less. Nested objects keep their own schema (todo_write's items accept Claude
// Code's "activeForm"). A schema that lists no properties, or says additionalProperties or
// patternProperties itself, is left as it is; MCP tools keep the schemas their servers wrote.
nlohmann::json closed_to_unknown_fields(nlohmann::json parameters) {
  if (parameters.is_object() && parameters.contains("properties") &&
      !parameters.contains("additionalProperties") && !parameters.contains("patternProperties")) {
    parameters["additionalProperties"] = false;
  }
  return parameters;
}

// What a spec costs in every request that lists it.
std::size_t spec_bytes(const ToolSpec& spec, const nlohmann::json& parameters) {
  return spec.name.size() + spec.description.size() + parameters.dump().size();
}

// tool_search: how the model finds the added tools once they are no longer listed (see the
// header). A search returns the matching tools' names, descriptions and parameter schemas, and
// lists them from the next request on, so a session pays for the schemas it uses rather than for
// every server's in every request.
constexpr std::size_t kDefaultResults = 5;
constexpr std::size_t kMaxResults = 20;

class ToolSearchTool final : public Tool {
 public:
  explicit ToolSearchTool(ToolRegistry& registry)
      : Tool({std::string(kToolSearchToolName),
              "Find tools of the MCP servers, which are not listed to save context: give words "
              "of what you need (\"github issue comment\"), or \"select:NAME,NAME\" for tools "
              "whose names you know. The matches' schemas are returned and the tools can be "
              "called from your next reply on.",
              {{"type", "object"},
               {"properties",
                {{"query", {{"type", "string"}, {"minLength", 1}}},
                 {"max_results", {{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxResults}}}}},
               {"required", {"query"}}},
              /*concurrency_safe=*/true,
              AccessKind::kNone}),
        registry_(registry) {}

  ToolOutput execute(const nlohmann::json& args, std::stop_token /*stop*/,
                     const ToolContext& /*context*/) override {
    const std::string query = args["query"].get<std::string>();
    const std::size_t limit = args.value("max_results", kDefaultResults);
    const std::vector<ToolSpec> found = registry_.load_deferred(query, limit);
    const ToolRegistry::Deferral deferral = registry_.deferral();
    if (found.empty()) {
      return ToolOutput{"No tool matches \"" + query + "\" among the " +
                        std::to_string(deferral.deferred + deferral.loaded) +
                        " MCP tools. Try other words, or fewer."};
    }
    std::string text;
    for (const ToolSpec& spec : found) {
      text += "<tool name=\"" + spec.name + "\">\n" + spec.description +
              "\nParameters: " + spec.parameters.dump() + "\n</tool>\n";
    }
    return ToolOutput{text + "These tools can be called from your next reply on."};
  }

 private:
  ToolRegistry& registry_;
};

}  // namespace

util::Result<std::unique_ptr<ToolRegistry>> ToolRegistry::create(std::vector<ToolPtr> builtin,
                                                                 std::vector<ToolPtr> extra) {
  using Result = util::Result<std::unique_ptr<ToolRegistry>>;
  std::unique_ptr<ToolRegistry> registry(new ToolRegistry());
  const std::pair<const char*, std::vector<ToolPtr>*> groups[] = {{"built-in tool", &builtin},
                                                                  {"extra tool", &extra}};
  for (const auto& [group, tools] : groups) {
    for (std::size_t i = 0; i < tools->size(); ++i) {
      const std::string origin = std::string(group) + " #" + std::to_string(i + 1);
      const util::Status added = registry->insert(
          std::move((*tools)[i]), origin, tools == &builtin ? Group::kBuiltin : Group::kExtra);
      if (!added.ok()) return Result::failure(added.error());
    }
  }
  return registry;
}

util::Status ToolRegistry::insert(ToolPtr tool, const std::string& origin, Group group) {
  if (!tool) return util::Status::failure(origin + " is null");
  const std::string& name = tool->name();
  if (name.empty()) return util::Status::failure(origin + " has an empty name");
  if (const auto seen = tools_.find(name); seen != tools_.end()) {
    return util::Status::failure("tool name \"" + name + "\" is registered twice: by " +
                                 seen->second.origin + " and by " + origin +
                                 "; each tool needs a unique name");
  }
  nlohmann::json parameters = group == Group::kBuiltin
                                  ? closed_to_unknown_fields(tool->spec().parameters)
                                  : tool->spec().parameters;
  auto schema = CompiledSchema::compile(parameters);
  if (!schema.ok()) {
    return util::Status::failure("tool \"" + name + "\" (" + origin +
                                 ") has invalid parameters schema: " + schema.error());
  }
  if (group == Group::kAdded) {
    added_.insert(std::upper_bound(added_.begin(), added_.end(), name), name);
    added_bytes_ += spec_bytes(tool->spec(), parameters);
  } else {
    order_.push_back(name);
  }
  tools_.emplace(name, RegisteredTool{std::move(tool), std::move(parameters),
                                      std::move(schema.value()), origin});
  return util::Status::success();
}

util::Status ToolRegistry::add(ToolPtr tool) {
  std::unique_lock lock(mutex_);
  util::Status added =
      insert(std::move(tool), "added tool #" + std::to_string(added_.size() + 1), Group::kAdded);
  if (added.ok() && !deferring_ && defer_over_bytes_ > 0 && added_bytes_ > defer_over_bytes_) {
    deferring_ = true;
    // Cannot fail: added tools are MCP tools, named mcp__<server>__<tool>.
    (void)insert(std::make_shared<ToolSearchTool>(*this), "tool search", Group::kBuiltin);
  }
  return added;
}

void ToolRegistry::defer_added_tools_over(std::size_t bytes) {
  std::unique_lock lock(mutex_);
  defer_over_bytes_ = bytes;
}

ToolRegistry::Deferral ToolRegistry::deferral() const {
  std::shared_lock lock(mutex_);
  Deferral deferral{deferring_, defer_over_bytes_, added_bytes_, 0, loaded_.size()};
  if (deferring_) deferral.deferred = added_.size() - loaded_.size();
  return deferral;
}

bool ToolRegistry::listed(const std::string& name) const {
  return !deferring_ || std::find(loaded_.begin(), loaded_.end(), name) != loaded_.end();
}

std::vector<ToolSpec> ToolRegistry::load_deferred(const std::string& query, std::size_t limit) {
  std::unique_lock lock(mutex_);
  std::vector<std::pair<int, std::string>> scored;  // (score, name)
  if (query.starts_with("select:")) {
    std::string names = query.substr(7) + ",";
    for (std::size_t at = 0, comma; (comma = names.find(',', at)) != std::string::npos;
         at = comma + 1) {
      const std::string name(util::ascii_trim(std::string_view(names).substr(at, comma - at)));
      if (std::binary_search(added_.begin(), added_.end(), name)) scored.emplace_back(1, name);
    }
  } else {
    std::vector<std::string> words;
    std::istringstream query_words(util::ascii_lower(query));
    for (std::string word; query_words >> word;) words.push_back(word);
    for (const std::string& name : added_) {
      const std::string lower_name = util::ascii_lower(name);
      const std::string text = util::ascii_lower(tools_.at(name).tool->spec().description);
      int score = 0;
      for (const std::string& word : words) {
        if (lower_name.find(word) != std::string::npos)
          score += 2;
        else if (text.find(word) != std::string::npos)
          score += 1;
      }
      if (score > 0) scored.emplace_back(score, name);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
  }
  std::vector<ToolSpec> found;
  for (const auto& [score, name] : scored) {
    if (found.size() == limit) break;
    const RegisteredTool& registered = tools_.at(name);
    found.push_back(registered.tool->spec());
    found.back().parameters = registered.parameters;
    if (std::find(loaded_.begin(), loaded_.end(), name) == loaded_.end()) loaded_.push_back(name);
  }
  return found;
}

const RegisteredTool* ToolRegistry::find(const std::string& name) const {
  std::shared_lock lock(mutex_);
  const auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second;
}

std::vector<ToolSpec> ToolRegistry::specs(EditStyle model_style) const {
  std::shared_lock lock(mutex_);
  std::vector<ToolSpec> specs;
  const auto offer = [&](const std::string& name) {
    const RegisteredTool& registered = tools_.at(name);
    if (!offered_to(registered.tool->spec(), model_style)) return;
    specs.push_back(registered.tool->spec());
    specs.back().parameters = registered.parameters;
  };
  for (const auto& name : order_) offer(name);
  for (const auto& name : deferring_ ? loaded_ : added_) offer(name);
  return specs;
}

std::vector<std::string> ToolRegistry::names(EditStyle model_style) const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> names;
  for (const auto* group : {&order_, &added_}) {
    for (const auto& name : *group) {
      if (offered_to(tools_.at(name).tool->spec(), model_style)) names.push_back(name);
    }
  }
  return names;
}

void ToolRegistry::set_awaiter(Awaiter awaiter) {
  std::unique_lock lock(mutex_);
  awaiter_ = std::move(awaiter);
}

const RegisteredTool* ToolRegistry::find_or_await(const std::string& name) const {
  if (const RegisteredTool* found = find(name)) return found;
  Awaiter awaiter;
  {
    std::shared_lock lock(mutex_);
    awaiter = awaiter_;
  }
  return awaiter && awaiter(name) ? find(name) : nullptr;
}

void ToolRegistry::set_note(std::string note) {
  std::unique_lock lock(mutex_);
  note_ = std::move(note);
}

std::string ToolRegistry::note() const {
  std::shared_lock lock(mutex_);
  return note_;
}

}  // namespace nib::core
