#include "tools/os_argument.hpp"

#include "util/json_text.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

// The part before the NUL quoted in the error: enough to recognise a path or a command.
constexpr std::size_t kMaxQuotedBytes = 200;

}  // namespace

std::optional<std::string> nul_refusal(const nlohmann::json& args,
                                       std::initializer_list<std::string_view> names) {
  for (const std::string_view name : names) {
    const auto it = args.find(name);
    if (it == args.end() || !it->is_string()) continue;
    const std::string& value = it->get_ref<const std::string&>();
    const std::size_t nul = value.find('\0');
    if (nul == std::string::npos) continue;
    const std::string_view before(value.data(), nul);
    const std::size_t quoted = util::utf8_prefix_length(before, kMaxQuotedBytes);
    std::string cut = util::json_text(std::string(before.substr(0, quoted)));
    if (quoted < before.size()) cut += util::cut_marker(before.size() - quoted);
    return std::string(name) + " holds a NUL character (\\u0000) at byte " + std::to_string(nul) +
           ". File names, paths and commands end at a NUL for the operating system, so it would "
           "stand for only " +
           cut + ". Nothing was done; remove the NUL and retry.";
  }
  return std::nullopt;
}

}  // namespace nib::tools
