#pragma once
// The text an editor holds for the files it has open, unsaved changes included, when a front
// end's client offers it (`nib acp`: the client's fs/read_text_file and fs/write_text_file).
// read, edit and write locate, judge and claim a file on disk as always, then take its text
// from here and give the changed text back here, so the model sees and changes what the user
// sees. The functions are called from the tools' threads and must be thread-safe.

#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>

#include "util/result.hpp"

namespace nib::tools {

struct EditorFiles {
  // The text of the file at `path` (absolute, symbolic links resolved); empty: read from disk.
  std::function<util::Result<std::string>(const std::filesystem::path& path, std::stop_token)> read;
  // Gives the file at `path` the text `text`; empty: written to disk.
  std::function<util::Status(const std::filesystem::path& path, const std::string& text,
                             std::stop_token)>
      write;
};

}  // namespace nib::tools
