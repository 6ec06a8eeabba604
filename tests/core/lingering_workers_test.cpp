#include "core/lingering_workers.hpp"

#include <gtest/gtest.h>

#include <future>

namespace nib::core {
namespace {

TEST(LingeringWorkersTest, JoinsAThreadOnlyOnceItHasFinished) {
  LingeringWorkers keeper;
  std::promise<void> release;
  auto finished = std::make_shared<std::atomic<bool>>(false);
  std::thread worker([gate = release.get_future(), finished]() mutable {
    gate.wait();
    finished->store(true);
  });
  keeper.adopt(std::move(worker), finished);
  EXPECT_EQ(keeper.reap(), 1u) << "still running: kept, not joined";
  release.set_value();
  while (keeper.reap() != 0) std::this_thread::yield();  // joined as soon as it has finished
  EXPECT_TRUE(finished->load());
}

TEST(LingeringWorkersTest, TheProcessKeeperIsOneObject) {
  EXPECT_EQ(&lingering_workers(), &lingering_workers());
}

}  // namespace
}  // namespace nib::core
