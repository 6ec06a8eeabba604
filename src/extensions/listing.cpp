#include "extensions/listing.hpp"

#include "extensions/limits.hpp"
#include "util/utf8.hpp"

namespace nib::extensions {

std::string listing_entry(std::string_view name, std::string_view description) {
  const bool cut = description.size() > kMaxListedDescriptionBytes;
  if (cut)
    description =
        description.substr(0, util::utf8_prefix_length(description, kMaxListedDescriptionBytes));
  while (!description.empty() && (description.back() == '\n' || description.back() == ' ')) {
    description.remove_suffix(1);
  }
  std::string entry = "- " + std::string(name) + ": ";
  for (char c : description) {
    entry += c;
    if (c == '\n') entry += "  ";
  }
  if (cut) entry += "…";
  return entry + "\n";
}

}  // namespace nib::extensions
