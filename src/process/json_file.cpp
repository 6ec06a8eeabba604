#include "process/json_file.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "process/atomic_write.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::process {

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
  if (in.bad()) return Result::failure(file.string() + ": cannot be read");
  if (util::json_nests_deeper_than(text.str(), util::kMaxJsonDepth)) {
    return Result::failure(file.string() + ": not valid JSON: nests deeper than " +
                           std::to_string(util::kMaxJsonDepth) + " levels");
  }
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    const std::string what = error.what();
    const auto at = what.find("parse error");
    return Result::failure(
        file.string() + ": not valid JSON: " + (at == std::string::npos ? what : what.substr(at)));
  }
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
  const AtomicWriteResult written =
      atomic_write(file, util::json_text(value, 2) + "\n",
                   exists ? std::optional<struct stat>(existing) : std::nullopt);
  if (!written.ok()) {
    return util::Status::failure("cannot write " + file.string() + ": cannot " +
                                 written.failed_step + ": " + std::strerror(written.error_number));
  }
  return util::Status::success();
}

}  // namespace nib::process
