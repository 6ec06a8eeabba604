#include "extensions/command_catalog.hpp"

#include <algorithm>

#include "extensions/front_matter_fields.hpp"
#include "extensions/tool_list.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;

bool is_typable(std::string_view part) {
  return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

}  // namespace

std::string CommandDefinition::qualified_name() const {
  return namespace_path.empty() ? name : namespace_path + ":" + name;
}

std::string CommandDefinition::label() const {
  std::string label = "(" + std::string(scope_label(origin));
  if (!namespace_path.empty()) label += ":" + namespace_path;
  return label + ")";
}

CommandParse parse_command(const MarkdownDocument& document, const fs::path& file,
                           const fs::path& relative, Origin origin) {
  CommandParse parse;
  parse.problems = document.notes;
  CommandDefinition command;
  command.origin = origin;
  command.file = file;
  command.name = relative.stem().string();
  for (const fs::path& folder : relative.parent_path()) {
    command.namespace_path += (command.namespace_path.empty() ? "" : ":") + folder.string();
    if (!is_typable(folder.string())) {
      parse.problems.push_back({file, 0,
                                "the folder name \"" + folder.string() +
                                    "\" cannot be typed in a command; use letters, digits, "
                                    "'-', '_' or '.'"});
      return parse;
    }
  }
  if (!is_typable(command.name)) {
    parse.problems.push_back({file, 0,
                              "the file name \"" + command.name +
                                  "\" cannot be typed as a command; use letters, digits, '-', "
                                  "'_' or '.'"});
    return parse;
  }
  command.body = trimmed_body(document.body);
  const FrontMatter no_front_matter;
  FieldReader reader(document.front_matter ? *document.front_matter : no_front_matter, file);
  command.description = reader.text("description").value_or("");
  if (command.description.empty()) command.description = default_description(command.body);
  command.argument_hint = reader.display_text("argument-hint").value_or("");
  command.model = read_model(reader);
  if (const std::optional<std::vector<std::string>> allowed =
          reader.text_or_list("allowed-tools")) {
    for (const std::string& item : *allowed) {
      // As written: the rule parser, not the list's, judges each (an unclosed "(" included).
      for (ToolEntry& entry : split_tool_list(item)) {
        command.allowed_tools.push_back(std::move(entry.written));
      }
    }
    command.allowed_tools_line = reader.line("allowed-tools");
  }
  if (reader.ok()) parse.definition = std::move(command);
  parse.problems.insert(parse.problems.end(), reader.problems().begin(), reader.problems().end());
  return parse;
}

util::Result<const CommandDefinition*> CommandCatalog::find(std::string_view typed) const {
  using Result = util::Result<const CommandDefinition*>;
  const CommandDefinition* best = nullptr;
  std::vector<const CommandDefinition*> tied;
  for (const CommandDefinition& command : commands) {
    if (command.qualified_name() == typed) return &command;
    if (command.name != typed) continue;
    if (!best || command.origin < best->origin) {
      best = &command;
      tied = {&command};
    } else if (command.origin == best->origin) {
      tied.push_back(&command);
    }
  }
  if (!best) return Result::failure("unknown command /" + std::string(typed));
  if (tied.size() == 1) return best;
  std::string choices;
  for (const CommandDefinition* command : tied) {
    choices += (choices.empty() ? "/" : ", /") + command->qualified_name();
  }
  return Result::failure("/" + std::string(typed) + " is in several folders: " + choices +
                         "; type one of these");
}

CommandCatalog load_commands(const ExtensionRoots& roots,
                             const std::vector<std::string>& reserved) {
  CommandCatalog catalog;
  std::vector<CommandDefinition> found;
  for (const DefinitionFolder& folder :
       definition_folders(roots, "commands", ScopeOrder::kProjectFirst)) {
    for (const fs::path& file : markdown_files(folder.path, true, catalog.problems)) {
      // A plugin may list a single file; its commands are namespaced by the plugin's name, as
      // sub-folders are: /my-plugin:hello, or /hello when no other command has that name.
      fs::path relative =
          file == folder.path ? file.filename() : file.lexically_relative(folder.path);
      if (folder.plugin) relative = folder.plugin->name / relative;
      read_definition(
          file, folder.origin,
          [&](const MarkdownDocument& document, const fs::path& path, Origin origin) {
            CommandParse parse = parse_command(document, path, relative, origin);
            if (folder.plugin && parse.definition) {
              parse.definition->body =
                  expand_plugin_root(parse.definition->body, folder.plugin->root);
            }
            return parse;
          },
          found, catalog.problems);
    }
  }
  std::erase_if(found, [&](const CommandDefinition& command) {
    if (std::find(reserved.begin(), reserved.end(), command.qualified_name()) == reserved.end()) {
      return false;
    }
    catalog.problems.push_back({command.file, 0,
                                "/" + command.name +
                                    " is a built-in command, which comes first; rename the file "
                                    "to use it as a command"});
    return true;
  });
  catalog.commands = keep_first_of_each_name(
      std::move(found), [](const CommandDefinition& command) { return command.qualified_name(); },
      catalog.problems);
  return catalog;
}

}  // namespace nib::extensions
