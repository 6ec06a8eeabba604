#pragma once
// TempDir: a fresh directory under the test temp root (its path canonical: no symbolic links),
// removed with everything in it when the object goes. Not thread-safe: one owner, like a
// std::unique_ptr. file_contents() reads a file back whole.

#include <filesystem>
#include <string>
#include <string_view>

namespace nib::testing {

class TempDir {
 public:
  // Creates the directory; throws std::filesystem::filesystem_error when it cannot.
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes `content` to `relative` (creating parent directories) and returns its full path.
  std::filesystem::path write(const std::filesystem::path& relative,
                              std::string_view content) const;

 private:
  std::filesystem::path path_;
};

// The whole content of the file at `path`; empty when it cannot be read.
std::string file_contents(const std::filesystem::path& path);

}  // namespace nib::testing
