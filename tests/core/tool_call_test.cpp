#include "core/tool_call.hpp"

#include <gtest/gtest.h>

#include "core/tool_scheduler.hpp"
#include "support/gated_tool.hpp"
#include "support/registry_of.hpp"

namespace nib::core {
namespace {

ToolPtr tool_with_schema(const std::string& name, nlohmann::json schema) {
  return make_tool(
      ToolSpec{name, "test", std::move(schema)},
      [](const nlohmann::json&, std::stop_token, const ToolContext&) { return ToolOutput{"ran"}; });
}

std::string rejection(const ToolCall& call, const ToolRegistry& registry) {
  auto prepared = prepare_tool_call(call, registry, {});
  const auto* result = std::get_if<ToolResult>(&prepared);
  if (!result) return "(accepted)";
  EXPECT_TRUE(result->is_error);
  EXPECT_EQ(result->tool_call_id, call.id);
  EXPECT_EQ(result->tool_name, call.name);
  return content_text(result->content);
}

const nlohmann::json kReadSchema = {
    {"type", "object"},
    {"properties",
     {{"path", {{"type", "string"}}}, {"offset", {{"type", "integer"}, {"minimum", 1}}}}},
    {"required", {"path"}}};

TEST(RegistryTest, DuplicateNameIsAnErrorNamingBoth) {
  const auto registry = ToolRegistry::create(
      {tool_with_schema("read", kReadSchema)},
      {tool_with_schema("grep", kReadSchema), tool_with_schema("read", kReadSchema)});
  EXPECT_FALSE(registry.ok());
  EXPECT_EQ(registry.error(),
            "tool name \"read\" is registered twice: by built-in tool #1 and by extra tool #2; "
            "each tool needs a unique name");
}

TEST(RegistryTest, InvalidSchemaIsAnErrorAtStartUp) {
  const auto registry = ToolRegistry::create(
      {tool_with_schema("bad", {{"type", "object"}, {"properties", {{"x", {{"type", 7}}}}}})}, {});
  EXPECT_FALSE(registry.ok());
  EXPECT_NE(registry.error().find("tool \"bad\""), std::string::npos);
}

TEST(RegistryTest, SpecsKeepRegistrationOrder) {
  auto registry = testing::registry_of(
      {tool_with_schema("b", kReadSchema), tool_with_schema("a", kReadSchema)});
  ASSERT_EQ(registry->specs().size(), 2u);
  EXPECT_EQ(registry->specs()[0].name, "b");
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"b", "a"}));
}

TEST(RegistryTest, AddedToolsComeAfterTheOthersAndKeepEarlierLookupsValid) {
  auto registry = testing::registry_of({tool_with_schema("b", kReadSchema)});
  const RegisteredTool* before = registry->find("b");
  ASSERT_TRUE(registry->add(tool_with_schema("late", kReadSchema)).ok());
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"b", "late"}));
  EXPECT_EQ(registry->find("b"), before);
  ASSERT_NE(registry->find("late"), nullptr);
  EXPECT_TRUE(registry->find("late")->schema->validate(nlohmann::json::object()).size() == 1);
}

// Servers become ready in any order; the tool list the services cache must not depend on it.
TEST(RegistryTest, AddedToolsAreOfferedByNameWhateverOrderTheyArriveIn) {
  auto first = testing::registry_of({tool_with_schema("b", kReadSchema)});
  auto second = testing::registry_of({tool_with_schema("b", kReadSchema)});
  for (const char* name : {"mcp__z__t", "mcp__a__t", "mcp__m__t"}) {
    ASSERT_TRUE(first->add(tool_with_schema(name, kReadSchema)).ok());
  }
  for (const char* name : {"mcp__m__t", "mcp__z__t", "mcp__a__t"}) {
    ASSERT_TRUE(second->add(tool_with_schema(name, kReadSchema)).ok());
  }
  const std::vector<std::string> expected{"b", "mcp__a__t", "mcp__m__t", "mcp__z__t"};
  EXPECT_EQ(first->names(), expected);
  EXPECT_EQ(second->names(), expected);
  std::vector<std::string> offered;
  for (const ToolSpec& spec : second->specs()) offered.push_back(spec.name);
  EXPECT_EQ(offered, expected);
}

// Past the threshold the added tools leave the list for tool_search, which loads what it finds
// for the next request; loaded tools come last, in the order they were loaded.
TEST(RegistryTest, ManyAddedToolsAreOfferedThroughToolSearch) {
  auto registry = testing::registry_of({tool_with_schema("b", kReadSchema)});
  registry->defer_added_tools_over(600);
  const auto offered = [&] {
    std::vector<std::string> names;
    for (const ToolSpec& spec : registry->specs()) names.push_back(spec.name);
    return names;
  };
  ASSERT_TRUE(
      registry
          ->add(make_tool(ToolSpec{"mcp__gh__create_issue", "Open a GitHub issue", kReadSchema},
                          [](const nlohmann::json&, std::stop_token, const ToolContext&) {
                            return ToolOutput{"ran"};
                          }))
          .ok());
  EXPECT_EQ(offered(), (std::vector<std::string>{"b", "mcp__gh__create_issue"}));
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        registry->add(tool_with_schema("mcp__db__query" + std::to_string(i), kReadSchema)).ok());
  }
  ASSERT_TRUE(registry->deferral().active);
  EXPECT_EQ(registry->deferral().deferred, 6u);
  EXPECT_EQ(offered(), (std::vector<std::string>{"b", "tool_search"}));
  EXPECT_NE(registry->find("mcp__db__query3"), nullptr) << "still callable by name";

  const RegisteredTool* search = registry->find("tool_search");
  ASSERT_NE(search, nullptr);
  const auto run = [&](const nlohmann::json& args) {
    return search->tool->execute(args, {}, ToolContext{}).output;
  };
  const std::string found = run({{"query", "github issue"}});
  EXPECT_NE(found.find("<tool name=\"mcp__gh__create_issue\">"), std::string::npos) << found;
  EXPECT_NE(found.find("\"properties\""), std::string::npos) << "the schema comes with it";
  EXPECT_EQ(found.find("mcp__db__"), std::string::npos) << found;
  run({{"query", "select:mcp__db__query4, mcp__db__query1"}});
  EXPECT_EQ(offered(), (std::vector<std::string>{"b", "tool_search", "mcp__gh__create_issue",
                                                 "mcp__db__query4", "mcp__db__query1"}));
  EXPECT_NE(run({{"query", "weather"}}).find("No tool matches"), std::string::npos);
  EXPECT_EQ(registry->deferral().loaded, 3u);
}

TEST(RegistryTest, AddRefusesADuplicateOrABadSchemaAndChangesNothing) {
  auto registry = testing::registry_of({tool_with_schema("b", kReadSchema)});
  const util::Status duplicate = registry->add(tool_with_schema("b", kReadSchema));
  EXPECT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.error().find("registered twice: by built-in tool #1"), std::string::npos);
  EXPECT_FALSE(registry->add(tool_with_schema("bad", {{"type", 7}})).ok());
  EXPECT_EQ(registry->names(), (std::vector<std::string>{"b"}));
}

TEST(RegistryTest, AMissAsksTheAwaiterWhichMayBringTheTool) {
  auto registry = testing::registry_of({});
  std::vector<std::string> asked;
  registry->set_awaiter([&](const std::string& name) {
    asked.push_back(name);
    if (name != "mcp__x__t") return false;
    EXPECT_TRUE(registry->add(tool_with_schema(name, kReadSchema)).ok());
    return true;
  });
  EXPECT_NE(registry->find_or_await("mcp__x__t"), nullptr);
  EXPECT_EQ(registry->find_or_await("other"), nullptr);
  EXPECT_NE(registry->find_or_await("mcp__x__t"), nullptr);  // found: nobody asked
  EXPECT_EQ(asked, (std::vector<std::string>{"mcp__x__t", "other"}));
  const auto prepared =
      prepare_tool_call(ToolCall{"c", "mcp__x__t", R"({"path":"a"})"}, *registry, {});
  EXPECT_TRUE(std::holds_alternative<PreparedCall>(prepared));
}

// The policy for fields a built-in tool does not list (tool_registry.cpp, docs/tools.md).
TEST(RegistryTest, BuiltInToolsRefuseUnknownFieldsWhileOthersKeepTheirSchemas) {
  auto registry = ToolRegistry::create({tool_with_schema("read", kReadSchema)},
                                       {tool_with_schema("extra", kReadSchema)});
  ASSERT_TRUE(registry.ok()) << registry.error();
  ASSERT_TRUE(registry.value()->add(tool_with_schema("mcp__s__t", kReadSchema)).ok());
  const std::string args = R"({"path":"a","colour":"red"})";
  EXPECT_EQ(rejection(ToolCall{"1", "read", args}, *registry.value()),
            "Error: invalid arguments for read — (root): unknown property \"colour\" (allowed: "
            "offset, path). Fix the arguments and retry.");
  EXPECT_EQ(rejection(ToolCall{"2", "extra", args}, *registry.value()), "(accepted)");
  EXPECT_EQ(rejection(ToolCall{"3", "mcp__s__t", args}, *registry.value()), "(accepted)");
  // The model is offered the schema that is enforced; the tool's own spec is unchanged.
  const std::vector<ToolSpec> specs = registry.value()->specs();
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].parameters["additionalProperties"], false);
  EXPECT_FALSE(specs[1].parameters.contains("additionalProperties"));
  EXPECT_FALSE(specs[2].parameters.contains("additionalProperties"));
  EXPECT_FALSE(
      registry.value()->find("read")->tool->spec().parameters.contains("additionalProperties"));
}

TEST(RegistryTest, ASchemaThatSaysOtherwiseOrListsNoFieldsIsLeftAsItIs) {
  const nlohmann::json map = {{"type", "object"},
                              {"properties", {{"path", {{"type", "string"}}}}},
                              {"additionalProperties", {{"type", "integer"}}}};
  auto registry = testing::registry_of(
      {tool_with_schema("map", map), tool_with_schema("free", {{"type", "object"}})});
  EXPECT_EQ(rejection(ToolCall{"1", "map", R"({"path":"a","n":1})"}, *registry), "(accepted)");
  EXPECT_NE(rejection(ToolCall{"2", "map", R"({"path":"a","n":"x"})"}, *registry)
                .find("/n: expected \"integer\", got string"),
            std::string::npos);
  EXPECT_EQ(rejection(ToolCall{"3", "free", R"({"anything":1})"}, *registry), "(accepted)");
}

TEST(RegistryTest, KeepsANoteForTheSystemPrompt) {
  auto registry = testing::registry_of({});
  EXPECT_EQ(registry->note(), "");
  registry->set_note("MCP server x is connecting");
  EXPECT_EQ(registry->note(), "MCP server x is connecting");
}

TEST(PrepareTest, UnknownToolListsTheAvailableOnes) {
  auto registry = testing::registry_of(
      {tool_with_schema("read", kReadSchema), tool_with_schema("bash", kReadSchema)});
  EXPECT_EQ(rejection(ToolCall{"1", "Read", "{}"}, *registry),
            "Error: unknown tool \"Read\". Available tools: read, bash.");
}

// A model is offered only the edit tools of its style: to its calls the others do not exist,
// and the registry's specs and names leave them out.
TEST(PrepareTest, AToolNotOfferedToTheModelIsUnknown) {
  ToolSpec patch{"apply_patch", "test", kReadSchema};
  patch.edit_style = EditStyle::kPatch;
  ToolSpec edit{"edit", "test", kReadSchema};
  edit.edit_style = EditStyle::kReplace;
  const auto run = [](const nlohmann::json&, std::stop_token, const ToolContext&) {
    return ToolOutput{"ran"};
  };
  auto registry = testing::registry_of(
      {make_tool(patch, run), make_tool(edit, run), tool_with_schema("read", kReadSchema)});
  EXPECT_EQ(registry->names(EditStyle::kReplace), (std::vector<std::string>{"edit", "read"}));
  EXPECT_EQ(registry->specs(EditStyle::kPatch).size(), 2u);
  EXPECT_EQ(registry->names().size(), 3u);
  auto prepared = prepare_tool_call(ToolCall{"1", "apply_patch", R"({"path":"a"})"}, *registry, {},
                                    EditStyle::kReplace);
  const auto* refused = std::get_if<ToolResult>(&prepared);
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(content_text(refused->content),
            "Error: unknown tool \"apply_patch\". Available tools: edit, read.");
  prepared = prepare_tool_call(ToolCall{"2", "apply_patch", R"({"path":"a"})"}, *registry, {},
                               EditStyle::kPatch);
  EXPECT_TRUE(std::holds_alternative<PreparedCall>(prepared));
}

TEST(PrepareTest, ArgumentsMustBeAJsonObject) {
  auto registry = testing::registry_of({tool_with_schema("read", kReadSchema)});
  EXPECT_NE(rejection(ToolCall{"1", "read", "{\"path\": \"a"}, *registry).find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(
      rejection(ToolCall{"1", "read", "[1,2]"}, *registry).find("must be a JSON object, not array"),
      std::string::npos);
  EXPECT_NE(rejection(ToolCall{"1", "read", "null"}, *registry).find("not null"),
            std::string::npos);
}

TEST(PrepareTest, DeeplyNestedArgumentsAreRefusedBeforeTheyAreParsed) {
  nlohmann::json schema = kReadSchema;
  schema["properties"]["x"] = nlohmann::json::object();  // any value: only the depth is judged
  const auto registry = testing::registry_of({tool_with_schema("read", schema)});
  // 100,000 levels: copying or printing such a value recursively overflows the stack.
  const std::string deep =
      R"({"path":"a","x":)" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  const std::string text = rejection(ToolCall{"c1", "read", deep}, *registry);
  EXPECT_NE(text.find("nest deeper than 256 levels"), std::string::npos) << text;
  // A sane depth is still parsed (and then judged by the schema).
  const std::string fine =
      R"({"path":"a","x":)" + std::string(200, '[') + std::string(200, ']') + "}";
  EXPECT_EQ(rejection(ToolCall{"c2", "read", fine}, *registry), "(accepted)");
}

TEST(PrepareTest, UnknownToolIsCheckedBeforeArguments) {
  auto registry = testing::registry_of({tool_with_schema("read", kReadSchema)});
  EXPECT_NE(rejection(ToolCall{"1", "nope", "not json"}, *registry).find("unknown tool"),
            std::string::npos);
}

TEST(PrepareTest, SchemaErrorNamesFieldAndWhatWasExpected) {
  auto registry = testing::registry_of({tool_with_schema("read", kReadSchema)});
  EXPECT_EQ(rejection(ToolCall{"1", "read", "{\"path\":123}"}, *registry),
            "Error: invalid arguments for read — /path: expected \"string\", got integer. Fix the "
            "arguments and retry.");
}

TEST(PrepareTest, ABoundIsNamedAsTheSchemaWritesIt) {
  auto registry = testing::registry_of({tool_with_schema("read", kReadSchema)});
  EXPECT_EQ(rejection(ToolCall{"1", "read", R"({"path":"a","offset":0})"}, *registry),
            "Error: invalid arguments for read — /offset: must be ≥ 1, got 0. Fix the arguments "
            "and retry.");
}

TEST(PrepareTest, MissingRequiredFieldIsARootError) {
  auto registry = testing::registry_of({tool_with_schema("read", kReadSchema)});
  EXPECT_NE(rejection(ToolCall{"1", "read", "{}"}, *registry)
                .find("(root): Missing required property 'path'"),
            std::string::npos);
}

TEST(PrepareTest, AtMostFiveFieldErrorsAreReported) {
  nlohmann::json properties;
  nlohmann::json args;
  for (const char* field : {"a", "b", "c", "d", "e", "f", "g"}) {
    properties[field] = {{"type", "string"}};
    args[field] = 1;
  }
  auto registry = testing::registry_of(
      {tool_with_schema("many", {{"type", "object"}, {"properties", properties}})});
  const std::string text = rejection(ToolCall{"1", "many", args.dump()}, *registry);
  EXPECT_EQ(std::count(text.begin(), text.end(), ';'), 4) << text;
  EXPECT_NE(text.find("/a:"), std::string::npos);
  EXPECT_EQ(text.find("/f:"), std::string::npos);
  EXPECT_NE(text.find("Fix the arguments and retry."), std::string::npos);
}

TEST(PrepareTest, NestedArrayErrorsUseJsonPointers) {
  auto registry = testing::registry_of({tool_with_schema(
      "edit",
      {{"type", "object"},
       {"properties",
        {{"edits",
          {{"type", "array"},
           {"items",
            {{"type", "object"}, {"properties", {{"oldText", {{"type", "string"}}}}}}}}}}}})});
  EXPECT_NE(
      rejection(ToolCall{"1", "edit", R"({"edits":[{"oldText":"x"},{"oldText":5}]})"}, *registry)
          .find("/edits/1/oldText: expected \"string\", got integer"),
      std::string::npos);
}

TEST(PrepareTest, ValidCallIsPreparedButNotRun) {
  int runs = 0;
  auto tool = make_tool(ToolSpec{"read", "", kReadSchema},
                        [&](const nlohmann::json&, std::stop_token, const ToolContext&) {
                          ++runs;
                          return ToolOutput{"ran"};
                        });
  auto registry = testing::registry_of({tool});
  auto prepared =
      prepare_tool_call(ToolCall{"1", "read", R"({"path":"README.md"})"}, *registry, {});
  ASSERT_TRUE(std::holds_alternative<PreparedCall>(prepared));
  EXPECT_EQ(std::get<PreparedCall>(prepared).args["path"], "README.md");
  EXPECT_EQ(runs, 0);
}

TEST(RunToolTest, ContentWinsOverOutput) {
  auto tool =
      make_tool(ToolSpec{"img", "", {{"type", "object"}}},
                [](const nlohmann::json&, std::stop_token, const ToolContext&) {
                  ToolOutput output{"ignored text"};
                  output.content = Content{TextBlock{"caption"}, ImageBlock{"AAAA", "image/png"}};
                  output.exit_code = 3;
                  return output;
                });
  const ToolCall call{"7", "img", "{}"};
  const auto outcome = run_tool(call, PreparedCall{tool, nlohmann::json::object()}, {}, {});
  ASSERT_EQ(outcome.result.content.size(), 2u);
  EXPECT_EQ(std::get<TextBlock>(outcome.result.content[0]).text, "caption");
  EXPECT_EQ(outcome.result.exit_code, 3);
  EXPECT_EQ(outcome.result.tool_call_id, "7");
}

// A read tool that returns the path it was given.
ToolPtr echo_path_tool() {
  return make_tool(ToolSpec{"read", "", kReadSchema},
                   [](const nlohmann::json& args, std::stop_token, const ToolContext&) {
                     return ToolOutput{"read " + args["path"].get<std::string>()};
                   });
}

struct GatedRun {
  std::optional<ToolResult> blocked;
  PreparedCall prepared;
};

// A call of read through a PreToolUse check answering `verdict` and a gate that lets it run.
GatedRun gate_call(const ToolRegistry& registry, const PreToolVerdict& verdict) {
  const ToolCall call{"1", "read", R"({"path":"a.txt"})"};
  GatedRun run{std::nullopt, std::get<PreparedCall>(prepare_tool_call(call, registry, {}))};
  const PreToolCheck check = [&](const GateRequest&, std::stop_token) { return verdict; };
  const Gate gate = [](const GateRequest&, std::stop_token) { return GateDecision{}; };
  run.blocked = apply_gate(check, gate, call, run.prepared, registry, {}, {});
  return run;
}

TEST(ApplyGateTest, TheGateSeesTheToolAndTheContextTheCallWouldRunWith) {
  auto registry = testing::registry_of({echo_path_tool()});
  const ToolCall call{"1", "read", R"({"path":"a.txt"})"};
  auto prepared = std::get<PreparedCall>(prepare_tool_call(call, *registry, {}));
  const ToolContext context{"1", "/work/tree"};
  const Tool* seen_tool = nullptr;
  std::string seen_cwd;
  const Gate gate = [&](const GateRequest& request, std::stop_token) {
    seen_tool = request.tool;
    seen_cwd = request.context != nullptr ? request.context->cwd.string() : "";
    return GateDecision{};
  };
  EXPECT_FALSE(apply_gate({}, gate, call, prepared, *registry, context, {}));
  EXPECT_EQ(seen_tool, prepared.tool.get());
  EXPECT_EQ(seen_cwd, "/work/tree");
}

TEST(ApplyGateTest, UpdatedArgumentsThatPassTheSchemaAreWhatTheCallRunsWith) {
  auto registry = testing::registry_of({echo_path_tool()});
  PreToolVerdict verdict;
  verdict.updated_args = nlohmann::json{{"path", "b.txt"}};
  GatedRun run = gate_call(*registry, verdict);
  ASSERT_FALSE(run.blocked);
  EXPECT_TRUE(run.prepared.args_updated);
  const auto outcome = run_tool(ToolCall{"1", "read", ""}, run.prepared, {}, {});
  EXPECT_EQ(content_text(outcome.result.content),
            "read b.txt\n\n(A hook changed this call's arguments before it ran; it ran with "
            "{\"path\":\"b.txt\"}.)");
}

TEST(ApplyGateTest, UpdatedArgumentsThatFailTheSchemaBlockTheCallSayingWhy) {
  auto registry = testing::registry_of({echo_path_tool()});
  PreToolVerdict verdict;
  verdict.source = "hook ./fix.sh";
  verdict.updated_args = nlohmann::json{{"path", 7}};
  const GatedRun run = gate_call(*registry, verdict);
  ASSERT_TRUE(run.blocked);
  EXPECT_TRUE(run.blocked->is_error);
  EXPECT_EQ(content_text(run.blocked->content),
            "Tool \"read\" blocked: hook ./fix.sh replaced its arguments with ones the tool does "
            "not accept (/path: expected \"string\", got integer), so the call did not run. Tell "
            "the user; the hook's updatedInput needs fixing.");
  EXPECT_EQ(run.prepared.args["path"], "a.txt") << "the model's arguments are kept";
}

TEST(ApplyGateTest, UpdatedArgumentsThatAreNotAnObjectBlockTheCall) {
  auto registry = testing::registry_of({echo_path_tool()});
  PreToolVerdict verdict;
  verdict.updated_args = nlohmann::json::array();
  const GatedRun run = gate_call(*registry, verdict);
  ASSERT_TRUE(run.blocked);
  EXPECT_NE(content_text(run.blocked->content).find("(they are array, not a JSON object)"),
            std::string::npos);
}

TEST(ApplyGateTest, TheHooksContextEndsTheResult) {
  auto registry = testing::registry_of({echo_path_tool()});
  PreToolVerdict verdict;
  verdict.additional_context = "Remember: a.txt is generated.";
  GatedRun run = gate_call(*registry, verdict);
  ASSERT_FALSE(run.blocked);
  EXPECT_FALSE(run.prepared.args_updated);
  const auto outcome = run_tool(ToolCall{"1", "read", ""}, run.prepared, {}, {});
  EXPECT_EQ(content_text(outcome.result.content), "read a.txt\n\nRemember: a.txt is generated.");
}

TEST(ApplyAfterToolTest, TheHookSeesTheArgumentsThatRanAndMayAddToTheResult) {
  const PreparedCall prepared{echo_path_tool(), {{"path", "b.txt"}}};
  ToolResult result{"1", "read", text_content("read b.txt"), false, std::nullopt};
  std::string seen;
  const AfterTool after = [&](const GateRequest& request, ToolResult& r, std::stop_token) {
    seen = request.name + " " + request.args->dump();
    append_text(r.content, "checked");
  };
  apply_after_tool(after, ToolCall{"1", "read", R"({"path":"a.txt"})"}, prepared, result, {});
  EXPECT_EQ(seen, R"(read {"path":"b.txt"})");
  EXPECT_EQ(content_text(result.content), "read b.txt\n\nchecked");
}

TEST(ApplyAfterToolTest, AHookThatThrowsLeavesANoteInsteadOfLosingTheResult) {
  const PreparedCall prepared{echo_path_tool(), {{"path", "b.txt"}}};
  ToolResult result{"1", "read", text_content("read b.txt"), false, std::nullopt};
  const AfterTool after = [](const GateRequest&, ToolResult&, std::stop_token) {
    throw std::runtime_error("no hooks file");
  };
  apply_after_tool(after, ToolCall{"1", "read", "{}"}, prepared, result, {});
  EXPECT_EQ(content_text(result.content),
            "read b.txt\n\n(The after-tool check failed: no hooks file.)");
}

TEST(AppendTextTest, AnImageIsFollowedByATextBlockOfItsOwn) {
  Content content{ImageBlock{"AAAA", "image/png"}};
  append_text(content, "note");
  append_text(content, "");
  ASSERT_EQ(content.size(), 2u);
  EXPECT_EQ(std::get<TextBlock>(content[1]).text, "note");
}

}  // namespace
// A tool that says its call touches the path it is given (as if resolved), and records the
// access its run got.
class AccessTool final : public Tool {
 public:
  AccessTool() : Tool(ToolSpec{"write", "", kReadSchema, false, AccessKind::kWrite}) {}
  CallAccess access(const nlohmann::json& args, const ToolContext& context) const override {
    if (args["path"] == "throw") throw std::runtime_error("cannot resolve");
    const std::filesystem::path path = context.cwd / args["path"].get<std::string>();
    CallAccess access;
    access.kind = AccessKind::kNone;  // whatever it says, the spec's kind is stamped
    access.paths.push_back({args["path"], path, path});
    return access;
  }
  ToolOutput execute(const nlohmann::json&, std::stop_token, const ToolContext& context) override {
    ran_with = context.access;
    return ToolOutput{"ran"};
  }
  std::shared_ptr<const CallAccess> ran_with;
};

TEST(CallAccessTest, ThePreparedCallCarriesWhatTheToolSaysItTouchesWithItsSpecsKind) {
  auto registry = testing::registry_of({std::make_shared<AccessTool>()});
  const auto prepared =
      prepare_tool_call(ToolCall{"1", "write", R"({"path":"a.txt"})"}, *registry, {"1", "/t"});
  ASSERT_TRUE(std::holds_alternative<PreparedCall>(prepared));
  const CallAccess& access = *std::get<PreparedCall>(prepared).access;
  EXPECT_EQ(access.kind, AccessKind::kWrite);
  ASSERT_EQ(access.paths.size(), 1u);
  EXPECT_EQ(access.paths[0].path, "/t/a.txt");
  EXPECT_EQ(claims_of(access), (std::vector<ResourceClaim>{{"file:/t/a.txt", true}}));
}

TEST(CallAccessTest, AToolThatCannotSayWhatItTouchesRefusesTheCall) {
  auto registry = testing::registry_of({std::make_shared<AccessTool>()});
  EXPECT_EQ(rejection(ToolCall{"1", "write", R"({"path":"throw"})"}, *registry),
            "Error: nib could not work out what this call of write would touch (cannot "
            "resolve). Fix the arguments and retry.");
}

TEST(CallAccessTest, TheGateJudgesTheCallAHookRewroteOnItsOwnAccess) {
  auto tool = std::make_shared<AccessTool>();
  auto registry = testing::registry_of({tool});
  const ToolCall call{"1", "write", R"({"path":"a.txt"})"};
  auto prepared = std::get<PreparedCall>(prepare_tool_call(call, *registry, {"1", "/t"}));
  const PreToolCheck hook = [](const GateRequest&, std::stop_token) {
    return PreToolVerdict{.updated_args = nlohmann::json{{"path", "b.txt"}}};
  };
  std::filesystem::path judged;
  const Gate gate = [&](const GateRequest& request, std::stop_token) {
    judged = request.access->paths.at(0).path;
    return GateDecision{};
  };
  EXPECT_FALSE(apply_gate(hook, gate, call, prepared, *registry, {"1", "/t"}, {}));
  EXPECT_EQ(judged, "/t/b.txt");
  EXPECT_EQ(prepared.access->paths.at(0).path, "/t/b.txt") << "it runs with what was judged";
}

TEST(CallAccessTest, TheRunGetsTheAccessItWasJudgedOn) {
  auto tool = std::make_shared<AccessTool>();
  SchedulerOptions options;
  auto registry = testing::registry_of({tool});
  options.tools = registry.get();
  options.cwd = "/t";
  ToolScheduler scheduler(options);
  scheduler.execute_batch({ToolCall{"1", "write", R"({"path":"a.txt"})"}}, {});
  ASSERT_TRUE(tool->ran_with);
  EXPECT_EQ(tool->ran_with->paths.at(0).path, "/t/a.txt");
}

TEST(PreToolCheckTest, ABlockStopsTheCallBeforeTheGate) {
  auto registry = testing::registry_of({echo_path_tool()});
  const GatedRun run = gate_call(
      *registry, PreToolVerdict{PreToolVerdict::Kind::kBlock, "not today", "hook ./no.sh"});
  ASSERT_TRUE(run.blocked);
  EXPECT_EQ(content_text(run.blocked->content), "Tool \"read\" blocked by hook ./no.sh: not today");
}

TEST(PreToolCheckTest, AnAskWithNobodyToAskRefusesTheCall) {
  auto registry = testing::registry_of({echo_path_tool()});
  const ToolCall call{"1", "read", R"({"path":"a.txt"})"};
  auto prepared = std::get<PreparedCall>(prepare_tool_call(call, *registry, {}));
  const PreToolCheck hook = [](const GateRequest&, std::stop_token) {
    return PreToolVerdict{PreToolVerdict::Kind::kAsk, "sensitive", "hook ./ask.sh"};
  };
  const auto blocked = apply_gate(hook, {}, call, prepared, *registry, {}, {});
  ASSERT_TRUE(blocked);
  EXPECT_NE(content_text(blocked->content).find("nobody can be asked here"), std::string::npos);
}

TEST(PreToolCheckTest, TheGateHearsOfAHooksAllowAndAsk) {
  auto registry = testing::registry_of({echo_path_tool()});
  for (const auto kind : {PreToolVerdict::Kind::kAllow, PreToolVerdict::Kind::kAsk}) {
    const ToolCall call{"1", "read", R"({"path":"a.txt"})"};
    auto prepared = std::get<PreparedCall>(prepare_tool_call(call, *registry, {}));
    const PreToolCheck hook = [kind](const GateRequest&, std::stop_token) {
      return PreToolVerdict{kind, "why", "hook"};
    };
    GateRequest seen;
    const Gate gate = [&](const GateRequest& request, std::stop_token) {
      seen = request;
      return GateDecision{};
    };
    apply_gate(hook, gate, call, prepared, *registry, {}, {});
    EXPECT_EQ(seen.hook_allows, kind == PreToolVerdict::Kind::kAllow);
    EXPECT_EQ(seen.hook_asks, kind == PreToolVerdict::Kind::kAsk ? "why" : "");
  }
}

TEST(PreToolCheckTest, ACheckThatThrowsBlocksTheCall) {
  auto registry = testing::registry_of({echo_path_tool()});
  const ToolCall call{"1", "read", R"({"path":"a.txt"})"};
  auto prepared = std::get<PreparedCall>(prepare_tool_call(call, *registry, {}));
  const PreToolCheck hook = [](const GateRequest&, std::stop_token) -> PreToolVerdict {
    throw std::runtime_error("hooks file gone");
  };
  const auto blocked = apply_gate(hook, {}, call, prepared, *registry, {}, {});
  ASSERT_TRUE(blocked);
  EXPECT_NE(content_text(blocked->content).find("hooks file gone"), std::string::npos);
}

TEST(FollowUpTest, AFollowUpGoesThroughTheChecksOfACallOfItsOwn) {
  auto registry = testing::registry_of({echo_path_tool()});
  std::vector<std::string> judged;
  const Gate gate = [&](const GateRequest& request, std::stop_token) {
    judged.push_back(request.args->at("path"));
    return GateDecision{request.args->at("path") == "secret", "no secrets", "permission rule"};
  };
  const auto check = follow_up_checker({}, gate, ToolCall{"1", "read", ""}, *registry, {});
  EXPECT_FALSE(check({{"path", "b.txt"}}, {}));
  EXPECT_EQ(check({{"path", "secret"}}, {}),
            "Tool \"read\" blocked by permission rule: no secrets");
  EXPECT_NE(check({{"path", 7}}, {})->find("invalid arguments"), std::string::npos);
  EXPECT_EQ(judged, (std::vector<std::string>{"b.txt", "secret"}));
  std::stop_source stopped;
  stopped.request_stop();
  EXPECT_TRUE(check({{"path", "c.txt"}}, stopped.get_token())) << "never after an abort";
}

}  // namespace nib::core
