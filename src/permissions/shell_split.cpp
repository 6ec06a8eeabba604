#include "permissions/shell_split.hpp"

#include "permissions/shell_parser.hpp"

namespace nib::permissions {

ShellSplit split_command(std::string_view command) {
  ShellSplit split;
  ShellParser parser(command, 0);
  if (!parser.parse(split.commands)) {
    split.commands.clear();
    split.problem = parser.problem();
    return split;
  }
  split.understood = true;
  return split;
}

}  // namespace nib::permissions
