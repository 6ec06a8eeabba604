#pragma once
// The namespaces every sandboxed command of a nib process shares:
// - one network namespace, loopback only, so a server one command starts answers `curl
//   localhost` from another, and nothing routes out;
// - one pid namespace, so a pid one command prints means the same process to the next
//   (`server & echo $!`, then `kill PID`), as outside the sandbox.
//
// bubblewrap 0.8 can make either per command but join only a pid namespace (--pidns, inside a
// user namespace it is given with --userns), so the namespaces are held by processes of nib's
// own. When nib is not root:
//   holder  cloned into a new user namespace U (nib's ids mapped to themselves) and network
//           namespace N; brings `lo` up; then clones
//   init    into a new user namespace U1 (a child of U, the same ids) and pid namespace P,
//           owned by U1, of which it is pid 1.
// A command's spawned child joins U and then N (a command with the host's network joins
// neither) before bubblewrap starts, and bubblewrap is given U1 (--userns: it sets the sandbox
// up with the rights U1 grants) and P (--pidns: the command is a process of P). As root no user
// namespaces are needed: the holder is in N, init is pid 1 of P.
//
// init reaps whatever the commands leave behind (in P, orphans go to it), and it never outlives
// nib: like the holder it reads a pipe (its "lifeline") whose only write end nib holds, and exits
// the moment nib closes it or dies in any way. When init exits the kernel kills every process
// left in P: no sandboxed command outlives nib, even a `kill -9` of it, which no parent-death
// signal would have caught once bubblewrap stood between nib and the command.
// Both are in a session of their own with every signal blocked (Ctrl-C in the terminal does
// not reach them) and hold no other descriptor of nib's; the holder is nib's registered child,
// reaped on destruction (init is the holder's, which reaps it).
// Thread-safe after construction: the accessors are const.

#include <sys/types.h>

#include <memory>
#include <vector>

#include "process/unique_fd.hpp"
#include "util/result.hpp"

namespace nib::sandbox {

class SharedNamespaces {
 public:
  // Creates the holder and init; `with_user_namespaces` for a nib that is not root (it lacks the
  // right to create namespaces of the initial user namespace).
  static util::Result<std::unique_ptr<SharedNamespaces>> create(bool with_user_namespaces);
  ~SharedNamespaces();
  SharedNamespaces(const SharedNamespaces&) = delete;
  SharedNamespaces& operator=(const SharedNamespaces&) = delete;

  // For SpawnRequest::namespaces_to_enter: on the shared network, U (when there is one) then N;
  // with the host's network, nothing.
  std::vector<int> to_enter(bool shared_network) const;
  // For bubblewrap: the user namespace to set the sandbox up in (--userns; -1 as root) and the
  // pid namespace (--pidns).
  int setup_user_namespace() const { return setup_user_namespace_.get(); }
  int pid_namespace() const { return pid_namespace_.get(); }
  pid_t holder() const { return holder_; }
  pid_t init() const { return init_; }

 private:
  SharedNamespaces() = default;

  pid_t holder_ = -1;
  pid_t init_ = -1;             // as nib sees it
  process::UniqueFd lifeline_;  // the write end; closing it ends the holder and init
  process::UniqueFd user_namespace_;
  process::UniqueFd network_namespace_;
  process::UniqueFd setup_user_namespace_;
  process::UniqueFd pid_namespace_;
};

}  // namespace nib::sandbox
