// The small JSON files nib reads, changes and writes back (MCP server files, approvals, saved
// rules): what reading makes of missing and broken files, and that writing replaces a file
// atomically, keeping its permissions.

#include "process/json_file.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/temp_dir.hpp"

namespace nib::process {
namespace {

using nlohmann::json;

struct stat json_file_stat(const std::filesystem::path& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info;
}

TEST(JsonFile, AMissingFileReadsAsAnEmptyObject) {
  testing::TempDir dir;
  const auto read = read_json_file(dir.path() / "none.json");
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value(), json::object());
}

TEST(JsonFile, InvalidJsonIsAnErrorNamingTheFileAndWhere) {
  testing::TempDir dir;
  const auto file = dir.write("broken.json", "{\"a\": 1,\n \"b\": }");
  const auto read = read_json_file(file);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().rfind(file.string() + ": not valid JSON: parse error at line 2", 0), 0u)
      << read.error();
}

TEST(JsonFile, AFileThatIsNotAnObjectIsAnError) {
  testing::TempDir dir;
  const auto file = dir.write("list.json", "[1, 2]");
  const auto read = read_json_file(file);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), file.string() + ": must hold a JSON object");
}

TEST(JsonFile, AHostileNestingIsRefusedBeforeItIsParsed) {
  testing::TempDir dir;
  const auto file = dir.write(
      "deep.json", "{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  const auto read = read_json_file(file);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find(file.string() + ": not valid JSON: nests deeper than"),
            std::string::npos)
      << read.error();
}

TEST(JsonFile, AWriteCreatesTheDirectoryAndReadsBack) {
  testing::TempDir dir;
  const auto file = dir.path() / "new" / "dir" / "settings.json";
  const json value = {{"mcpServers", {{"x", {{"command", "run"}}}}}};
  ASSERT_TRUE(write_json_file(file, value).ok());
  EXPECT_EQ(testing::file_contents(file), value.dump(2) + "\n");
  const auto read = read_json_file(file);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value(), value);
}

TEST(JsonFile, AWriteReplacesTheFileAtomicallyKeepingItsPermissions) {
  testing::TempDir dir;
  const auto file = dir.write("private.json", "{\"old\": true}\n");
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  const ino_t before = json_file_stat(file).st_ino;
  ASSERT_TRUE(write_json_file(file, {{"new", true}}).ok());
  EXPECT_EQ(testing::file_contents(file), "{\n  \"new\": true\n}\n");
  const struct stat after = json_file_stat(file);
  EXPECT_EQ(after.st_mode & 07777, 0600u);
  // A new file renamed over the old one: a reader sees the old content or the new, never a part.
  EXPECT_NE(after.st_ino, before);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 1u) << "no temporary file is left behind";
}

TEST(JsonFile, TextThatIsNotUtf8IsWrittenWithoutThrowing) {
  testing::TempDir dir;
  const auto file = dir.path() / "odd.json";
  ASSERT_TRUE(write_json_file(file, {{"name", "caf\xE9"}}).ok());
  EXPECT_TRUE(read_json_file(file).ok());
}

TEST(JsonFile, AWriteThatCannotBeMadeSaysWhy) {
  testing::TempDir dir;
  const auto blocker = dir.write("file", "x");
  const util::Status written = write_json_file(blocker / "inside.json", json::object());
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().rfind("cannot create " + blocker.string() + ": ", 0), 0u)
      << written.error();
}

}  // namespace
}  // namespace nib::process
