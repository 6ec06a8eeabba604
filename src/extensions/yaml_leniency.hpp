#pragma once
// Reading front matter that strict YAML refuses but Claude Code's files carry: plain values
// such as `argument-hint: [issue] [priority]` (the form Claude Code's own slash-command page
// shows), `description: Use it when: the user asks` (a ": " inside a plain value), or
// `description: @reviewer ...` (a reserved indicator). Claude Code reads such values as the text
// written; strict YAML rejects the whole front matter. Pure; thread-safe.

#include <optional>
#include <string>
#include <string_view>

namespace nib::extensions {

// `yaml` with each top-level `key: value` line whose value YAML cannot parse on its own put in
// single quotes, so the value is the text written; nullopt when there is no such line (the
// YAML is broken some other way, and its own error should be reported). A value is left alone
// when quoting cannot be what was meant: it is quoted already, starts a block (| or >), an
// anchor, alias or tag, or opens a list or mapping ("[", "{") that does not close on its line.
std::optional<std::string> quote_unparseable_values(std::string_view yaml);

}  // namespace nib::extensions
