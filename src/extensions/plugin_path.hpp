#pragma once
// The rule for the paths plugins and marketplaces write (a plugin's "./commands/extra.md", a
// marketplace entry's "./plugins/formatter"): relative to their folder and inside it. Claude
// Code copies an installed plugin into its cache, so a path leading out of the folder ("../x",
// "/etc/x") names nothing there; nib refuses them too, so a plugin cannot make nib read files
// it does not hold. Judged on the text (lexically), as written; pure; thread-safe.

#include <filesystem>
#include <string_view>

#include "util/result.hpp"

namespace nib::extensions {

// `folder` made normal, without a trailing slash: "/a/b/./" is "/a/b".
std::filesystem::path normal_folder(const std::filesystem::path& folder);

// `written` resolved against `folder` (which is normal and absolute): a normal path, without a
// trailing slash, that is `folder` or lies below it. Failure, quoting `written`: empty,
// absolute, or leading out of `folder`, as written or through a symbolic link.
util::Result<std::filesystem::path> path_inside(const std::filesystem::path& folder,
                                                std::string_view written);

// Whether `path` lies in `folder` once symbolic links are followed (as far as they exist).
bool real_path_within(const std::filesystem::path& folder, const std::filesystem::path& path);

}  // namespace nib::extensions
