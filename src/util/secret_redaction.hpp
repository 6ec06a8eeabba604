#pragma once
// The secrets nib holds (the API keys of its providers) and their removal from text it prints or
// saves: a service that echoes the key in an error, or a file the model read that holds one,
// must not put the key on the terminal or into a session file. Thread-safe: secrets are usually
// registered at start-up, and redaction may run on any thread.

#include <string>
#include <string_view>

namespace nib::util {

// What stands in for a secret.
inline constexpr std::string_view kRedacted = "[redacted]";

// Values shorter than this are not treated as secrets: a real API key is far longer, and
// redacting every occurrence of a short value (a local server's "none", "x") would mangle
// ordinary text.
inline constexpr std::size_t kMinSecretLength = 8;

// Adds `value` to the process's secrets (ignored when shorter than kMinSecretLength or known).
void register_secret(std::string_view value);

// `text` with every occurrence of every registered secret replaced by kRedacted.
std::string redact_secrets(std::string text);

// Forgets every secret (for tests).
void clear_secrets_for_testing();

}  // namespace nib::util
