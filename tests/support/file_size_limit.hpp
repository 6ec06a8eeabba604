#pragma once
// FileSizeLimit: while it lives, writes that would make a file larger than a limit fail with
// EFBIG (RLIMIT_FSIZE, with SIGXFSZ ignored so that the process is not killed): a disk that
// fills up part way through a write, on demand. Changes process-wide state: use it only in a
// test that runs alone in its process, with no other thread writing files.

#include <sys/resource.h>

#include <csignal>

namespace nib::testing {

class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &previous_);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit previous_{};
  void (*previous_handler_)(int) = nullptr;
};

}  // namespace nib::testing
