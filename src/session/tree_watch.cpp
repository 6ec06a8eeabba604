#include "session/tree_watch.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <system_error>
#include <utility>

namespace nib::session {
namespace {

namespace fs = std::filesystem;

// What marks a directory changed: any change to one of its entries.
constexpr std::uint32_t kEvents = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE |
                                  IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_ONLYDIR;

}  // namespace

struct TreeWatch::State {
  fs::path tree;
  SkipDirectory skip;
  int fd = -1;
  std::map<int, std::string> directory_of;  // watch descriptor -> relative directory
  std::set<std::string> changed;
  bool lost = false;

  // Watches `relative` and every directory under it that is not skipped, marking each
  // changed when `mark` (a directory that appeared: whatever it holds is new).
  void watch(const std::string& relative, bool mark) {
    const fs::path full = relative.empty() ? tree : tree / relative;
    const int descriptor = inotify_add_watch(fd, full.c_str(), kEvents);
    if (descriptor < 0) {
      if (errno != ENOENT && errno != ENOTDIR) lost = true;  // out of watches, say
      return;
    }
    directory_of[descriptor] = relative;
    if (mark) changed.insert(relative);
    std::error_code error;
    for (fs::directory_iterator entries(full, error), end; !error && entries != end;
         entries.increment(error)) {
      if (!fs::is_directory(entries->symlink_status(error))) continue;
      const std::string child = (fs::path(relative) / entries->path().filename()).generic_string();
      if (!skip(child)) watch(child, mark);
    }
  }

  void drain() {
    alignas(inotify_event) char buffer[64 * 1024];
    for (;;) {
      const ssize_t got = read(fd, buffer, sizeof buffer);
      if (got <= 0) return;  // EAGAIN: nothing more now
      for (ssize_t at = 0; at < got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        on_event(*event);
      }
    }
  }

  void on_event(const inotify_event& event) {
    if ((event.mask & IN_Q_OVERFLOW) != 0) {
      lost = true;
      return;
    }
    const auto found = directory_of.find(event.wd);
    if (found == directory_of.end()) return;
    if ((event.mask & IN_IGNORED) != 0) {
      directory_of.erase(found);  // the directory is gone; its parent saw it go
      return;
    }
    const std::string directory = found->second;
    changed.insert(directory);
    if (event.len == 0 || (event.mask & IN_ISDIR) == 0) return;
    const std::string child = (fs::path(directory) / event.name).generic_string();
    if ((event.mask & (IN_MOVED_FROM | IN_MOVED_TO)) != 0) {
      lost = true;  // the moved directory's watches would name their old paths
    } else if ((event.mask & IN_CREATE) != 0 && !skip(child)) {
      watch(child, /*mark=*/true);
    }
  }

  void restart() {
    if (fd >= 0) close(fd);
    directory_of.clear();
    changed.clear();
    lost = false;
    fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) {
      lost = true;
      return;
    }
    watch("", /*mark=*/false);
  }
};

TreeWatch::TreeWatch(std::unique_ptr<State> state) : state_(std::move(state)) {}

TreeWatch::~TreeWatch() {
  if (state_->fd >= 0) close(state_->fd);
}

std::unique_ptr<TreeWatch> TreeWatch::start(const fs::path& tree, SkipDirectory skip) {
  auto state = std::make_unique<State>();
  state->tree = tree;
  state->skip = std::move(skip);
  state->restart();
  if (state->fd < 0) return nullptr;
  return std::unique_ptr<TreeWatch>(new TreeWatch(std::move(state)));
}

std::optional<std::set<std::string>> TreeWatch::take_changed() {
  state_->drain();
  if (state_->lost) {
    // Watching again from here on: the caller's full look covers what happened until now.
    state_->restart();
    return std::nullopt;
  }
  return std::exchange(state_->changed, {});
}

}  // namespace nib::session
