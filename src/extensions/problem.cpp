#include "extensions/problem.hpp"

namespace nib::extensions {

std::string Problem::text() const {
  std::string out = file.string();
  if (line > 0) out += ":" + std::to_string(line);
  return out + ": " + message;
}

}  // namespace nib::extensions
