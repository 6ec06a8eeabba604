#include "sandbox/probe_memory.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.hpp"

namespace nib::sandbox {
namespace {

namespace fs = std::filesystem;

class ProbeMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = dir_.write("bwrap", "#!/bin/sh\nexit 0\n");
    dir_.write("sys/user/max_user_namespaces", "15000\n");
  }
  std::string fingerprint() const { return probe_fingerprint(program_, dir_.path() / "sys"); }

  testing::TempDir dir_;
  fs::path program_;
  const fs::path memory_ = dir_.path() / "private" / "sandbox-probe";
};

TEST_F(ProbeMemoryTest, WhatWasRememberedIsRecognisedAndNothingElse) {
  const std::string taken = fingerprint();
  ASSERT_FALSE(taken.empty());
  EXPECT_EQ(taken, fingerprint()) << "the same system gives the same fingerprint";
  EXPECT_FALSE(remembers_working(memory_, taken)) << "nothing remembered yet";
  remember_working(memory_, taken);
  EXPECT_TRUE(remembers_working(memory_, taken));
  EXPECT_FALSE(remembers_working(memory_, taken + "x"));
  EXPECT_FALSE(remembers_working(memory_, ""));
  EXPECT_FALSE(remembers_working("", taken));
  struct stat info {};
  ASSERT_EQ(::stat(memory_.parent_path().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u) << "kept in a directory of the user's own";
  ASSERT_EQ(::stat(memory_.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

TEST_F(ProbeMemoryTest, AChangedProgramOrKernelSettingChangesTheFingerprint) {
  const std::string before = fingerprint();
  dir_.write("sys/user/max_user_namespaces", "0\n");
  const std::string setting_changed = fingerprint();
  EXPECT_NE(setting_changed, before);
  std::ofstream(program_, std::ios::app) << "# another version\n";
  EXPECT_NE(fingerprint(), setting_changed);
}

TEST_F(ProbeMemoryTest, AMissingProgramHasNoFingerprint) {
  EXPECT_EQ(probe_fingerprint(dir_.path() / "missing", dir_.path() / "sys"), "");
}

TEST_F(ProbeMemoryTest, AMemoryThatIsASymbolicLinkIsNotRead) {
  const std::string taken = fingerprint();
  const fs::path elsewhere = dir_.write("elsewhere", taken);
  fs::create_directories(memory_.parent_path());
  fs::permissions(memory_.parent_path(), fs::perms::owner_all);
  fs::create_symlink(elsewhere, memory_);
  EXPECT_FALSE(remembers_working(memory_, taken));
}

}  // namespace
}  // namespace nib::sandbox
