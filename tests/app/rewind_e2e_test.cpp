// End-to-end: checkpoints of the working tree before each prompt and after each run, and
// `nib rewind` going back — the files, the conversation or both — judged on the files
// themselves and on what the model is sent next.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <csignal>
#include <fstream>

#include "support/mock_model_server.hpp"
#include "support/nib_process.hpp"
#include "support/small_window_models.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"

namespace nib::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class RewindTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(tree());
    fs::create_directory(dir_.path() / "run");
    fs::permissions(dir_.path() / "run", fs::perms::owner_all);
    dir_.write("tree/src/main.c", "int main() {\n  return 1;\n}\n");
    dir_.write("tree/docs/a.md", "alpha\n");
    dir_.write("tree/docs/b.md", "beta\n");
    dir_.write("tree/.gitignore", "build/\n");
    dir_.write("tree/old.txt", "old name\n");
    dir_.write("tree/thing", "a file\n");
    dir_.write("tree/tracked.txt", "v1\n");
    shell(
        "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && "
        "echo v2 > tracked.txt && git -c user.name=t -c user.email=t@t commit -qam two");
  }
  void shell(const std::string& command) const {
    const std::string line = "cd '" + tree().string() + "' && { " + command + "; } >/dev/null 2>&1";
    ASSERT_EQ(std::system(line.c_str()), 0) << command;
  }
  fs::path tree() const { return dir_.path() / "tree"; }
  std::map<std::string, std::string> env() const {
    return {{"OPENAI_BASE_URL", server_.base_url()},
            {"NIB_MODEL", "mock-model"},
            {"HOME", dir_.path().string()},
            {"XDG_CONFIG_HOME", (dir_.path() / "config").string()},
            {"XDG_DATA_HOME", (dir_.path() / "data").string()},
            {"XDG_RUNTIME_DIR", (dir_.path() / "run").string()}};
  }
  NibResult run(std::vector<std::string> args) { return run_nib(args, tree(), env()); }
  std::string file(const std::string& relative) const { return file_contents(tree() / relative); }
  // Every message the model received in request `index`, as text.
  std::string request_text(std::size_t index) const {
    return server_.requests().at(index).body["messages"].dump();
  }

  // Prompt 1 runs commands that change the tree in every way (an edit in place, a directory
  // removed, a build's ignored output, a new executable, a symbolic link, a rename, a file
  // replaced by a directory, git checking out an older version); prompt 2 writes a file with
  // the write tool.
  void two_prompts() {
    server_.enqueue(MockReply::tool_calls(
        {{"call_1", "bash",
          json{{"command",
                "sed -i 's/return 1/return 0/' src/main.c && rm -rf docs && mkdir -p build "
                "src/lib && echo out > build/app && echo lib > src/lib/x.c && "
                "chmod +x src/lib/x.c && ln -s main.c src/link.c && mv old.txt new.txt && "
                "rm thing && mkdir thing && echo in > thing/inner.txt && "
                "git checkout -q HEAD~1 -- tracked.txt"}}
              .dump()}}));
    server_.enqueue(MockReply::text("Changed the tree."));
    ASSERT_EQ(run({"-p", "change the tree"}).exit_code, 0);
    ASSERT_EQ(file("tracked.txt"), "v1\n") << "the commands ran";
    server_.enqueue(MockReply::tool_calls(
        {{"call_2", "write", json{{"path", "notes.txt"}, {"content", "written\n"}}.dump()}}));
    server_.enqueue(MockReply::text("Wrote notes."));
    const auto second = run({"-c", "-p", "write the notes"});
    ASSERT_EQ(second.exit_code, 0) << second.err;
  }

  MockModelServer server_;
  TempDir dir_;
};

TEST_F(RewindTest, ListsThePromptsWithTheFilesEachTurnChanged) {
  two_prompts();
  const auto listed = run({"rewind"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_TRUE(contains(listed.out, "1  \"change the tree\"")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "src/main.c (+1 -1)")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "docs/a.md (deleted)")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "src/lib/x.c (new)")) << listed.out;
  EXPECT_FALSE(contains(listed.out, "build/app")) << "ignored files are not recorded";
  EXPECT_TRUE(contains(listed.out, "2  \"write the notes\"  1 file: notes.txt (new)"))
      << listed.out;
  const auto shown = run({"rewind", "--show", "1"});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_TRUE(contains(shown.out, "-  return 1;\n+  return 0;")) << shown.out;
}

TEST_F(RewindTest, RewindingCodeAndConversationRestoresBothAndTellsTheModel) {
  two_prompts();
  const auto rewound = run({"rewind", "1"});
  ASSERT_EQ(rewound.exit_code, 0) << rewound.err;
  EXPECT_EQ(file("src/main.c"), "int main() {\n  return 1;\n}\n");
  EXPECT_EQ(file("docs/a.md"), "alpha\n");
  EXPECT_EQ(file("docs/b.md"), "beta\n");
  EXPECT_FALSE(fs::exists(tree() / "notes.txt"));
  EXPECT_FALSE(fs::exists(tree() / "src/lib"));
  EXPECT_FALSE(fs::is_symlink(tree() / "src/link.c"));
  EXPECT_EQ(file("build/app"), "out\n") << "ignored files stay";
  EXPECT_EQ(file("old.txt"), "old name\n");
  EXPECT_FALSE(fs::exists(tree() / "new.txt"));
  EXPECT_EQ(file("thing"), "a file\n");
  EXPECT_EQ(file("tracked.txt"), "v2\n");

  server_.enqueue(MockReply::text("Starting over."));
  ASSERT_EQ(run({"-c", "-p", "try again"}).exit_code, 0);
  const std::string sent = request_text(4);
  EXPECT_FALSE(contains(sent, "change the tree")) << sent;
  EXPECT_FALSE(contains(sent, "write the notes")) << sent;
  EXPECT_TRUE(contains(sent,
                       "rewound the conversation to before this prompt and restored the "
                       "files"))
      << sent;

  // The restore is checkpointed: the command printed how to take it back.
  const std::string marker = "nib rewind --checkpoint ";
  const std::size_t at = rewound.out.find(marker);
  ASSERT_NE(at, std::string::npos) << rewound.out;
  const std::string id = rewound.out.substr(at + marker.size(), 40);
  const auto undone = run({"rewind", "--checkpoint", id});
  ASSERT_EQ(undone.exit_code, 0) << undone.err;
  EXPECT_EQ(file("src/main.c"), "int main() {\n  return 0;\n}\n");
  EXPECT_EQ(file("notes.txt"), "written\n");
  EXPECT_TRUE(fs::is_symlink(tree() / "src/link.c"));
  EXPECT_NE(fs::status(tree() / "src/lib/x.c").permissions() & fs::perms::owner_exec,
            fs::perms::none);
}

// edit and write in one turn, apply_patch in the next and a subagent's command in the third:
// each turn's files are listed, and going back undoes them all.
TEST_F(RewindTest, EveryFileToolsAndASubagentsChangesAreTakenBack) {
  server_.enqueue(MockReply::tool_calls({{"r1", "read", json{{"path", "docs/a.md"}}.dump()}}));
  server_.enqueue(MockReply::tool_calls(
      {{"e1", "edit",
        json{{"path", "docs/a.md"}, {"oldText", "alpha"}, {"newText", "ALPHA"}}.dump()}}));
  server_.enqueue(MockReply::tool_calls(
      {{"w1", "write", json{{"path", "written.txt"}, {"content", "new\n"}}.dump()}}));
  server_.enqueue(MockReply::text("Edited."));
  ASSERT_EQ(run({"-p", "edit with every tool"}).exit_code, 0);
  ASSERT_EQ(file("docs/a.md"), "ALPHA\n");
  // apply_patch is a GPT model's edit tool; like edit, it changes only files it has read.
  server_.enqueue(MockReply::tool_calls({{"r3", "read", json{{"path", "docs/b.md"}}.dump()}}));
  server_.enqueue(MockReply::tool_calls(
      {{"p1", "apply_patch",
        json{{"input",
              "*** Begin Patch\n*** Update File: docs/b.md\n@@\n-beta\n+BETA\n*** End Patch\n"}}
            .dump()}}));
  server_.enqueue(MockReply::text("Patched."));
  const auto patched = run({"-c", "--model", "gpt-5.4", "-p", "patch it"});
  ASSERT_EQ(patched.exit_code, 0) << patched.err;
  ASSERT_EQ(file("docs/b.md"), "BETA\n") << patched.err;

  server_.enqueue(MockReply::tool_calls(
      {{"t1", "task",
        json{{"description", "write"}, {"prompt", "write sub.txt"}, {"agent", "general"}}
            .dump()}}));
  server_.enqueue(
      MockReply::tool_calls({{"s1", "bash", json{{"command", "echo sub > sub.txt"}}.dump()}}));
  server_.enqueue(MockReply::text("Wrote it."));
  server_.enqueue(MockReply::text("Delegated."));
  ASSERT_EQ(run({"-c", "-p", "delegate"}).exit_code, 0);
  ASSERT_EQ(file("sub.txt"), "sub\n");

  const auto listed = run({"rewind"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_TRUE(contains(listed.out,
                       "\"edit with every tool\"  2 files: docs/a.md (+1 -1), "
                       "written.txt (new)"))
      << listed.out;
  EXPECT_TRUE(contains(listed.out, "\"patch it\"  1 file: docs/b.md (+1 -1)")) << listed.out;
  EXPECT_TRUE(contains(listed.out, "\"delegate\"  1 file: sub.txt (new)")) << listed.out;
  ASSERT_EQ(run({"rewind", "1", "--code"}).exit_code, 0);
  EXPECT_EQ(file("docs/a.md"), "alpha\n");
  EXPECT_EQ(file("docs/b.md"), "beta\n");
  EXPECT_FALSE(fs::exists(tree() / "written.txt"));
  EXPECT_FALSE(fs::exists(tree() / "sub.txt"));
}

// A compaction made after the prompt rewound to summarised messages that are gone: the
// conversation goes on from the messages before that prompt, in full.
TEST_F(RewindTest, RewindingPastACompactionDropsItsSummary) {
  dir_.write("tree/big.txt", std::string(12000, 'x') + "\n");
  dir_.write("tree/.nib/models.json", small_window_models(server_.base_url()));
  dir_.write(
      "tree/.nib/settings.json",
      R"({"provider": "small", "compaction": {"reserveTokens": 500, "keepRecentTokens": 200}})");
  auto environment = env();
  environment.erase("NIB_MODEL");
  environment.erase("OPENAI_BASE_URL");
  const auto nib = [&](std::vector<std::string> args) {
    return run_nib(args, tree(), environment);
  };
  server_.enqueue(MockReply::text("Hello there."));
  ASSERT_EQ(nib({"-p", "say hello"}).exit_code, 0);
  server_.enqueue(MockReply::tool_calls({{"c1", "read", R"({"path":"big.txt"})"}}));
  server_.enqueue(MockReply::text("SUMMARY: the user asked to read big.txt."));
  server_.enqueue(MockReply::text("It is all x."));
  const auto compacted = nib({"-c", "-p", "What is in big.txt?"});
  ASSERT_EQ(compacted.exit_code, 0) << compacted.err;
  ASSERT_TRUE(contains(compacted.err, "compacting the conversation")) << compacted.err;

  const auto rewound = nib({"rewind", "2"});
  ASSERT_EQ(rewound.exit_code, 0) << rewound.err;
  server_.enqueue(MockReply::text("Again."));
  ASSERT_EQ(nib({"-c", "-p", "once more"}).exit_code, 0);
  const std::string sent = request_text(server_.requests().size() - 1);
  EXPECT_TRUE(contains(sent, "say hello")) << sent;
  EXPECT_TRUE(contains(sent, "Hello there.")) << sent;
  EXPECT_FALSE(contains(sent, "SUMMARY")) << sent;
  EXPECT_FALSE(contains(sent, "What is in big.txt?")) << sent;
}

TEST_F(RewindTest, GarbageCollectionKeepsTheStoreUnderItsCap) {
  dir_.write("tree/.nib/settings.json", R"({"checkpoints": {"maxStoreMB": 1}})");
  for (int round = 0; round < 3; ++round) {
    server_.enqueue(MockReply::tool_calls(
        {{"b" + std::to_string(round), "bash",
          json{{"command", "head -c 600000 /dev/urandom > noise.bin"}}.dump()}}));
    server_.enqueue(MockReply::text("Made noise."));
    ASSERT_EQ(run({"-p", "noise " + std::to_string(round)}).exit_code, 0);
  }
  const auto collected = run({"rewind", "--gc"});
  ASSERT_EQ(collected.exit_code, 0) << collected.err;
  EXPECT_TRUE(contains(collected.out, "(cap 1 MB); dropped the ")) << collected.out;
  const auto again = run({"rewind", "--gc"});
  EXPECT_FALSE(contains(again.out, "dropped")) << again.out;
}

TEST_F(RewindTest, CodeOnlyKeepsTheConversationAndConversationOnlyKeepsTheFiles) {
  two_prompts();
  ASSERT_EQ(run({"rewind", "2", "--code"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(tree() / "notes.txt"));
  EXPECT_EQ(file("src/main.c"), "int main() {\n  return 0;\n}\n") << "prompt 1's change stays";
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"-c", "-p", "third"}).exit_code, 0);
  std::string sent = request_text(4);
  EXPECT_TRUE(contains(sent, "write the notes")) << sent;
  EXPECT_TRUE(contains(sent,
                       "The user restored the files to their state before the prompt "
                       "\\\"write the notes\\\""))
      << sent;

  const auto conversation = run({"rewind", "1", "--conversation"});
  ASSERT_EQ(conversation.exit_code, 0) << conversation.err;
  EXPECT_EQ(file("src/main.c"), "int main() {\n  return 0;\n}\n") << "the files stay";
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"-c", "-p", "fourth"}).exit_code, 0);
  sent = request_text(5);
  EXPECT_FALSE(contains(sent, "change the tree")) << sent;
  EXPECT_FALSE(contains(sent, "third")) << sent;
  EXPECT_TRUE(contains(sent, "the files were not restored")) << sent;
  EXPECT_TRUE(contains(sent, "src/main.c")) << sent;
}

TEST_F(RewindTest, FilesChangedByHandAreNamedAndNotOverwrittenUnlessAsked) {
  two_prompts();
  dir_.write("tree/notes.txt", "my own notes\n");
  dir_.write("tree/src/main.c", "int main() { return 2; }\n");
  const auto refused = run({"rewind", "1", "--code"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(contains(refused.err, "notes.txt")) << refused.err;
  EXPECT_TRUE(contains(refused.err, "src/main.c")) << refused.err;
  EXPECT_TRUE(contains(refused.err, "Nothing was changed")) << refused.err;
  EXPECT_EQ(file("notes.txt"), "my own notes\n");
  EXPECT_FALSE(fs::exists(tree() / "docs/a.md"));

  const auto kept = run({"rewind", "1", "--code", "--keep-hand-changes"});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_EQ(file("notes.txt"), "my own notes\n");
  EXPECT_EQ(file("src/main.c"), "int main() { return 2; }\n");
  EXPECT_EQ(file("docs/a.md"), "alpha\n") << "the rest is restored";
  EXPECT_FALSE(fs::exists(tree() / "src/lib"));
}

TEST_F(RewindTest, AfterAKillNineTheSessionStillRewinds) {
  ASSERT_EQ(mkfifo((dir_.path() / "sync").c_str(), 0600), 0);
  server_.enqueue(MockReply::tool_calls(
      {{"call_1", "bash",
        json{{"command", "echo changed > docs/a.md; echo $$ > ../sync; exec sleep 1000"}}
            .dump()}}));
  pid_t sleeper = 0;
  {
    NibProcess nib({"-p", "change and hang"}, tree(), env());
    std::ifstream(dir_.path() / "sync") >> sleeper;
    ASSERT_GT(sleeper, 0);
    nib.send_signal(SIGKILL);
    EXPECT_EQ(nib.wait().exit_code, 128 + SIGKILL);
  }
  kill(sleeper, SIGKILL);
  EXPECT_EQ(file("docs/a.md"), "changed\n");
  const auto rewound = run({"rewind", "1"});
  ASSERT_EQ(rewound.exit_code, 0) << rewound.err;
  EXPECT_EQ(file("docs/a.md"), "alpha\n");
}

TEST_F(RewindTest, AMissingStoreIsAClearMessageAndChangesNothing) {
  two_prompts();
  fs::remove_all(dir_.path() / "data/nib/checkpoints");
  const auto result = run({"rewind", "1"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.err, "no checkpoints of")) << result.err;
  EXPECT_EQ(file("notes.txt"), "written\n");
  const auto unknown = run({"rewind", "--checkpoint", std::string(40, 'a')});
  EXPECT_EQ(unknown.exit_code, 1);
}

// A file over the size limit is not recorded, and the user is told so once.
TEST_F(RewindTest, AFileTooLargeToRecordIsNamedOnce) {
  std::ofstream(tree() / "huge.bin") << std::string(11 * 1024 * 1024, 'h');
  server_.enqueue(MockReply::text("ok"));
  const auto first = run({"-p", "hello"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.err,
                       "files over 10 MiB are not checkpointed, so a rewind leaves "
                       "them as they are: huge.bin"))
      << first.err;
}

TEST_F(RewindTest, CheckpointsCanBeTurnedOff) {
  dir_.write("tree/.nib/settings.json", R"({"checkpoints": {"enabled": false}})");
  server_.enqueue(MockReply::text("ok"));
  ASSERT_EQ(run({"-p", "hello"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_.path() / "data/nib/checkpoints"));
}

}  // namespace
}  // namespace nib::testing
