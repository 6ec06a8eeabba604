#pragma once
// libcurl, opened with dlopen on first use rather than linked: it and the thirty libraries it
// pulls in (TLS, Kerberos, LDAP, SSH, IDN, ...) were three quarters of nib's start-up cost, and
// a start that never reaches the network (--version, --help, `nib tool`, a settings error)
// needs none of it. A run starts opening it on a thread of its own at once (CurlPreload), in
// parallel with the rest of the start, so its first request does not wait for it either. The
// only users are the HTTP transfers (http_stream.cpp) and URL parsing (tools/web_url.cpp).
// Thread-safe.

#include <curl/curl.h>

#include <string>
#include <thread>

namespace nib::net {

// The libcurl functions nib calls, found in libcurl.so.4 (an ABI libcurl keeps stable). The
// header gives their types, so a call through a member is checked as a direct call would be.
struct CurlLibrary {
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_multi_init) multi_init;
  decltype(&::curl_multi_cleanup) multi_cleanup;
  decltype(&::curl_multi_setopt) multi_setopt;
  decltype(&::curl_multi_add_handle) multi_add_handle;
  decltype(&::curl_multi_remove_handle) multi_remove_handle;
  decltype(&::curl_multi_perform) multi_perform;
  decltype(&::curl_multi_poll) multi_poll;
  decltype(&::curl_multi_wakeup) multi_wakeup;
  decltype(&::curl_multi_info_read) multi_info_read;
  decltype(&::curl_multi_strerror) multi_strerror;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
  decltype(&::curl_url) url;
  decltype(&::curl_url_cleanup) url_cleanup;
  decltype(&::curl_url_set) url_set;
  decltype(&::curl_url_get) url_get;
  decltype(&::curl_url_strerror) url_strerror;
  decltype(&::curl_free) free;
};

// libcurl, opened and globally initialised by the first call (which waits for a preload under
// way); nullptr when it could not be opened, and curl_failure() says why.
const CurlLibrary* curl_library();
const std::string& curl_failure();
// libcurl, for code whose entry point has checked that curl_library() is not null.
const CurlLibrary& loaded_curl();

// Opens libcurl on a thread of its own, for a run that is about to need it, while the caller
// goes on. The destructor waits for the thread: the process must not exit while libcurl's
// libraries are being loaded and initialised (their exit handlers would run under them).
class CurlPreload {
 public:
  CurlPreload();
  ~CurlPreload();
  CurlPreload(const CurlPreload&) = delete;
  CurlPreload& operator=(const CurlPreload&) = delete;

 private:
  std::thread thread_;
};

}  // namespace nib::net
