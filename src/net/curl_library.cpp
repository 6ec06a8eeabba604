#include "net/curl_library.hpp"

#include <dlfcn.h>

namespace nib::net {
namespace {

constexpr const char* kSoname = "libcurl.so.4";

struct Opened {
  CurlLibrary library{};
  bool ok = false;
  std::string failure;
};

// Finds each function by name; false (naming the first missing one) when one is absent.
template <typename Function>
bool find(void* handle, const char* name, Function& function, std::string& failure) {
  function = reinterpret_cast<Function>(::dlsym(handle, name));
  if (function == nullptr) failure = std::string(kSoname) + " has no " + name;
  return function != nullptr;
}

Opened open_curl() {
  Opened opened;
  void* handle = ::dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    opened.failure = std::string("libcurl could not be loaded: ") + (why ? why : kSoname) +
                     " (install Debian's libcurl4 package)";
    return opened;
  }
  CurlLibrary& c = opened.library;
  std::string& f = opened.failure;
  // The library stays open for the process's life (a transfer may run until exit).
  opened.ok =
      find(handle, "curl_easy_init", c.easy_init, f) &&
      find(handle, "curl_easy_cleanup", c.easy_cleanup, f) &&
      find(handle, "curl_easy_setopt", c.easy_setopt, f) &&
      find(handle, "curl_easy_getinfo", c.easy_getinfo, f) &&
      find(handle, "curl_easy_strerror", c.easy_strerror, f) &&
      find(handle, "curl_multi_init", c.multi_init, f) &&
      find(handle, "curl_multi_cleanup", c.multi_cleanup, f) &&
      find(handle, "curl_multi_setopt", c.multi_setopt, f) &&
      find(handle, "curl_multi_add_handle", c.multi_add_handle, f) &&
      find(handle, "curl_multi_remove_handle", c.multi_remove_handle, f) &&
      find(handle, "curl_multi_perform", c.multi_perform, f) &&
      find(handle, "curl_multi_poll", c.multi_poll, f) &&
      find(handle, "curl_multi_wakeup", c.multi_wakeup, f) &&
      find(handle, "curl_multi_info_read", c.multi_info_read, f) &&
      find(handle, "curl_multi_strerror", c.multi_strerror, f) &&
      find(handle, "curl_slist_append", c.slist_append, f) &&
      find(handle, "curl_slist_free_all", c.slist_free_all, f) &&
      find(handle, "curl_url", c.url, f) && find(handle, "curl_url_cleanup", c.url_cleanup, f) &&
      find(handle, "curl_url_set", c.url_set, f) && find(handle, "curl_url_get", c.url_get, f) &&
      find(handle, "curl_url_strerror", c.url_strerror, f) && find(handle, "curl_free", c.free, f);
  if (!opened.ok) return opened;
  decltype(&::curl_global_init) global_init = nullptr;
  if (!find(handle, "curl_global_init", global_init, f)) {
    opened.ok = false;
    return opened;
  }
  if (const CURLcode code = global_init(CURL_GLOBAL_DEFAULT); code != CURLE_OK) {
    opened.ok = false;
    opened.failure = std::string("libcurl could not be initialised: ") + c.easy_strerror(code);
  }
  return opened;
}

const Opened& opened() {
  static const Opened library = open_curl();  // thread-safe: later callers wait for the first
  return library;
}

}  // namespace

const CurlLibrary* curl_library() {
  return opened().ok ? &opened().library : nullptr;
}

const std::string& curl_failure() {
  return opened().failure;
}

const CurlLibrary& loaded_curl() {
  return opened().library;
}

CurlPreload::CurlPreload() : thread_([] { opened(); }) {}

CurlPreload::~CurlPreload() {
  thread_.join();
}

}  // namespace nib::net
