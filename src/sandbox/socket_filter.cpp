#include "sandbox/socket_filter.hpp"

#include <seccomp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "util/fd_io.hpp"

namespace nib::sandbox {
namespace {

struct ContextFree {
  void operator()(scmp_filter_ctx context) const { seccomp_release(context); }
};
using Context = std::unique_ptr<void, ContextFree>;

std::string failed(const char* step, int error) {
  return std::string(step) + ": " + std::strerror(-error);
}

// The filter's rules on the architectures in `context`.
int add_rules(scmp_filter_ctx context) {
  int result = seccomp_rule_add(context, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
  if (result != 0) return result;
  return seccomp_rule_add(context, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(io_uring_setup), 0);
}

// A filter context with the rules on this machine's architecture and, with `x86`, on 32-bit
// x86's too; the libseccomp error when it cannot be made.
util::Result<Context> make_context(bool x86) {
  Context context(seccomp_init(SCMP_ACT_ALLOW));
  if (!context) return util::Result<Context>::failure("libseccomp failed");
  // The filter is applied after no_new_privs is set (bubblewrap and the Landlock path both set
  // it); libseccomp must not try to set it itself.
  seccomp_attr_set(context.get(), SCMP_FLTATR_CTL_NNP, 0);
  if (x86) {
    if (const int error = seccomp_arch_add(context.get(), SCMP_ARCH_X86); error != 0) {
      return util::Result<Context>::failure(failed("x86", error));
    }
  }
  if (const int error = add_rules(context.get()); error != 0) {
    return util::Result<Context>::failure(failed("rules", error));
  }
  return context;
}

}  // namespace

util::Result<SocketFilter> SocketFilter::build() {
  using Result = util::Result<SocketFilter>;
#if defined(__x86_64__)
  // 32-bit programs keep working, under the same rules; where libseccomp cannot express them for
  // their calls, such programs are killed instead (the default for a foreign architecture).
  auto made = make_context(/*x86=*/true);
  if (!made.ok()) made = make_context(false);
#else
  auto made = make_context(false);
#endif
  if (!made.ok()) return Result::failure("cannot build the socket filter: " + made.error());
  Context context = std::move(made.value());
  process::UniqueFd memory(::memfd_create("nib-socket-filter", MFD_CLOEXEC));
  if (!memory.valid())
    return Result::failure("cannot build the socket filter: " + failed("memfd", -errno));
  if (const int error = seccomp_export_bpf(context.get(), memory.get()); error != 0) {
    return Result::failure("cannot build the socket filter: " + failed("export", error));
  }
  const off_t size = ::lseek(memory.get(), 0, SEEK_END);
  if (size <= 0 || size % static_cast<off_t>(sizeof(sock_filter)) != 0) {
    return Result::failure("cannot build the socket filter: libseccomp wrote no program");
  }
  SocketFilter filter;
  filter.instructions_.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
  if (::pread(memory.get(), filter.instructions_.data(), static_cast<std::size_t>(size), 0) !=
      size) {
    return Result::failure("cannot build the socket filter: " + failed("read back", -errno));
  }
  return filter;
}

sock_fprog SocketFilter::program() const {
  return {static_cast<unsigned short>(instructions_.size()),
          const_cast<sock_filter*>(instructions_.data())};
}

util::Result<process::UniqueFd> SocketFilter::program_descriptor() const {
  using Result = util::Result<process::UniqueFd>;
  process::UniqueFd memory(::memfd_create("nib-socket-filter", MFD_CLOEXEC));
  if (!memory.valid())
    return Result::failure("cannot pass the socket filter: " + failed("memfd", -errno));
  const std::string_view bytes(reinterpret_cast<const char*>(instructions_.data()),
                               instructions_.size() * sizeof(sock_filter));
  if (!util::write_all(memory.get(), bytes) || ::lseek(memory.get(), 0, SEEK_SET) != 0) {
    return Result::failure("cannot pass the socket filter: " + failed("write", -errno));
  }
  return memory;
}

}  // namespace nib::sandbox
