#include "extensions/plugin_path.hpp"

#include <string>

#include "util/path_within.hpp"

namespace nib::extensions {

std::filesystem::path normal_folder(const std::filesystem::path& folder) {
  std::filesystem::path normal = folder.lexically_normal();
  // lexically_normal keeps a trailing slash as an empty last component: drop it, so folders
  // compare equal however they were written.
  return normal.has_filename() ? normal : normal.parent_path();
}

bool real_path_within(const std::filesystem::path& folder, const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path real_folder = std::filesystem::weakly_canonical(folder, error);
  if (error) return false;
  const std::filesystem::path real_path = std::filesystem::weakly_canonical(path, error);
  return !error && util::is_within(real_folder, real_path);
}

util::Result<std::filesystem::path> path_inside(const std::filesystem::path& folder,
                                                std::string_view written) {
  using Result = util::Result<std::filesystem::path>;
  const std::string quoted = "\"" + std::string(written) + "\"";
  const std::filesystem::path path(written);
  if (written.empty() || path.is_absolute()) {
    return Result::failure(quoted +
                           " is not a relative path; write it from the folder, such as "
                           "\"./commands/\"");
  }
  const std::filesystem::path resolved = normal_folder(folder / path);
  if (!util::is_within(folder, resolved) || !real_path_within(folder, resolved)) {
    return Result::failure(quoted + " leads out of " + folder.string() +
                           "; only files inside it are used");
  }
  return resolved;
}

}  // namespace nib::extensions
