#include "app/process_hooks.hpp"

#include <array>
#include <mutex>

namespace nib::app {
namespace {

std::mutex hook_mutex;
std::array<std::function<void()>, 2> registered_hooks;

std::function<void()>& slot(ProcessHook which) {
  return registered_hooks.at(static_cast<std::size_t>(which));
}

}  // namespace

ScopedProcessHook::ScopedProcessHook(ProcessHook which, std::function<void()> hook)
    : which_(which) {
  const std::lock_guard lock(hook_mutex);
  slot(which_) = std::move(hook);
}

ScopedProcessHook::~ScopedProcessHook() {
  const std::lock_guard lock(hook_mutex);
  slot(which_) = nullptr;
}

void run_process_hook(ProcessHook which) {
  // Held while the hook runs, so its owner cannot end and destroy what the hook uses meanwhile.
  const std::lock_guard lock(hook_mutex);
  if (slot(which)) slot(which)();
}

}  // namespace nib::app
