#include "app/forced_quit.hpp"

#include <mutex>

namespace nib::app {
namespace {

std::mutex hook_mutex;
std::function<void()> registered_hook;

}  // namespace

ScopedForcedQuitHook::ScopedForcedQuitHook(std::function<void()> hook) {
  const std::lock_guard lock(hook_mutex);
  registered_hook = std::move(hook);
}

ScopedForcedQuitHook::~ScopedForcedQuitHook() {
  const std::lock_guard lock(hook_mutex);
  registered_hook = nullptr;
}

void run_forced_quit_hook() {
  // Held while the hook runs, so the run cannot end and destroy what the hook uses meanwhile.
  const std::lock_guard lock(hook_mutex);
  if (registered_hook) registered_hook();
}

}  // namespace nib::app
