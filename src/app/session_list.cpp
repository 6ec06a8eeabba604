#include "app/session_list.hpp"

#include "session/session_store.hpp"

namespace nib::app {

// Enough of an id to resume by, and short enough to type.
constexpr std::size_t kShownIdDigits = 8;

std::string describe_session(const session::SessionSummary& summary) {
  return summary.id.substr(0, kShownIdDigits) + "  " + summary.started_at.substr(0, 16) + "  " +
         std::to_string(summary.message_count) +
         (summary.message_count == 1 ? " message " : " messages") + "  " +
         (summary.error.empty() ? summary.first_prompt : "(" + summary.error + ")");
}

int list_sessions(const util::UserPlaces& places, const std::filesystem::path& cwd,
                  std::ostream& out, std::ostream& err) {
  const auto store = session::SessionStore::for_user(places);
  if (!store.ok()) {
    err << "nib: " << store.error() << '\n';
    return 2;
  }
  const auto sessions = store.value().list(cwd);
  if (sessions.empty()) {
    out << "No saved sessions for " << cwd.string() << ".\n";
    return 0;
  }
  for (const auto& summary : sessions) out << describe_session(summary) << '\n';
  out << "Resume one with: nib -r ID -p \"PROMPT\" (or nib -c to continue the latest).\n";
  return 0;
}

}  // namespace nib::app
