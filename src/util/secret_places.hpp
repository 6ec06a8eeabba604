#pragma once
// The places in the home directory that hold credentials: keys, tokens and the stores of tools
// that sign in (ssh, cloud command lines, container registries, git, the keyring). One list
// for both who keep them: the built-in permission rules ask before a call reads one
// (permissions/rule_set.hpp), and the sandbox hides them from commands unless a rule of the
// user's allows reading them (sandbox/command_sandbox.hpp). Pure.

#include <array>
#include <string_view>

namespace nib::util {

// Relative to the home directory; directories and files alike.
inline constexpr std::array<std::string_view, 12> kSecretPlaces = {
    ".ssh",
    ".aws",
    ".gnupg",
    ".config/gcloud",
    ".azure",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".config/gh",
    ".password-store",
    ".local/share/keyrings",
};

}  // namespace nib::util
