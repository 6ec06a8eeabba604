#pragma once
// The one network namespace that every sandboxed command of a nib process shares: loopback
// only, so a server one command starts answers `curl localhost` from another, and nothing
// routes out.
//
// bubblewrap 0.8 can create a network namespace per command (--unshare-net) but cannot join
// one, so the namespace is held by a process of nib's own: a child cloned into a new network
// namespace (and, when nib is not root, a new user namespace owning it, with nib's uid and gid
// mapped to themselves) that brings `lo` up and then only waits. Commands join it in their
// spawned child before bubblewrap starts (SpawnRequest::namespaces_to_enter: the user
// namespace first, which grants the rights to join the network namespace it owns).
//
// The holder never outlives nib: it blocks reading a pipe (its "lifeline") whose only write end
// nib holds, so it exits the moment nib closes it or dies in any way — unlike a parent-death
// signal, which fires when the spawning *thread* ends and so could not be created lazily from a
// tool's worker thread. It is in a session of its own with every signal blocked (Ctrl-C in the
// terminal does not reach it), holds no other descriptor of nib's, and is nib's registered
// child, reaped on destruction. The namespaces stay alive as long as nib holds their
// descriptors, even if the holder was killed (kill_all_descendants at exit).
// Thread-safe after construction: namespace_descriptors() is const.

#include <sys/types.h>

#include <memory>
#include <vector>

#include "tools/unique_fd.hpp"
#include "util/result.hpp"

namespace nib::sandbox {

class SharedNetwork {
 public:
  // Creates the holder; `with_user_namespace` for a nib that is not root (it lacks the right
  // to create or join a network namespace of the initial user namespace).
  static util::Result<std::unique_ptr<SharedNetwork>> create(bool with_user_namespace);
  ~SharedNetwork();
  SharedNetwork(const SharedNetwork&) = delete;
  SharedNetwork& operator=(const SharedNetwork&) = delete;

  // For SpawnRequest::namespaces_to_enter: the user namespace (when there is one), then the
  // network namespace.
  const std::vector<int>& namespace_descriptors() const { return descriptors_; }
  pid_t holder() const { return holder_; }

 private:
  SharedNetwork() = default;

  pid_t holder_ = -1;
  tools::UniqueFd lifeline_;  // the write end; closing it ends the holder
  tools::UniqueFd user_namespace_;
  tools::UniqueFd network_namespace_;
  std::vector<int> descriptors_;
};

}  // namespace nib::sandbox
