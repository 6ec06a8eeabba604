#include "mcp/json_file.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "process/atomic_write.hpp"

namespace nib::mcp {

util::Result<nlohmann::json> read_json_file(const std::filesystem::path& file) {
  using Result = util::Result<nlohmann::json>;
  std::ifstream in(file);
  if (!in) {
    std::error_code error;
    if (!std::filesystem::exists(file, error)) return nlohmann::json::object();
    return Result::failure(file.string() + ": cannot be read");
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json value = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return Result::failure(file.string() + ": not valid JSON");
  if (!value.is_object()) return Result::failure(file.string() + ": must hold a JSON object");
  return value;
}

util::Status write_json_file(const std::filesystem::path& file, const nlohmann::json& value) {
  std::error_code error;
  std::filesystem::create_directories(file.parent_path(), error);
  if (error) {
    return util::Status::failure("cannot create " + file.parent_path().string() + ": " +
                                 error.message());
  }
  struct stat existing {};
  const bool exists = ::stat(file.c_str(), &existing) == 0;
  const process::AtomicWriteResult written = process::atomic_write(
      file, value.dump(2) + "\n", exists ? std::optional<struct stat>(existing) : std::nullopt);
  if (!written.ok()) {
    return util::Status::failure("cannot write " + file.string() + ": cannot " +
                                 written.failed_step + ": " + std::strerror(written.error_number));
  }
  return util::Status::success();
}

}  // namespace nib::mcp
