#include "util/bounded_read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace nib::util {

Result<std::string> read_at_most(const std::filesystem::path& file, std::size_t limit) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return Result<std::string>::failure(std::string("cannot be read: ") + std::strerror(errno));
  constexpr std::size_t kChunk = 16 * 1024;
  std::string text;
  while (text.size() <= limit && in) {
    const std::size_t had = text.size();
    text.resize(had + std::min(kChunk, limit + 1 - had));
    in.read(text.data() + had, static_cast<std::streamsize>(text.size() - had));
    text.resize(had + static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return Result<std::string>::failure("cannot be read");
  return text;
}

}  // namespace nib::util
