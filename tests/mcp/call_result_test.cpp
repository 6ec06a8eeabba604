#include "mcp/call_result.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/temp_dir.hpp"

namespace nib::mcp {
namespace {

std::string bar_terminated_texts(const core::ToolOutput& output) {
  std::string text;
  for (const core::ContentBlock& block : *output.content) {
    if (const auto* part = std::get_if<core::TextBlock>(&block)) text += part->text + "|";
  }
  return text;
}

TEST(CallResult, MapsEachKindOfContent) {
  const auto output = map_call_result(nlohmann::json::parse(R"({"content": [
      {"type": "text", "text": "hello"},
      {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
      {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
      {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "mimeType": "text/plain"},
      {"type": "resource", "resource": {"uri": "test://1", "mimeType": "text/plain", "text": "body"}},
      {"type": "resource", "resource": {"uri": "test://2", "mimeType": "application/zip", "blob": "AAAA"}}
  ]})"));
  EXPECT_FALSE(output.is_error);
  ASSERT_EQ(output.content->size(), 6u);
  const auto* image = std::get_if<core::ImageBlock>(&(*output.content)[1]);
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->mime_type, "image/png");
  EXPECT_EQ(bar_terminated_texts(output),
            "hello|[audio (audio/wav, 3 bytes) not shown: nib cannot pass audio to the model]|"
            "[resource link: file:///a.txt \"a.txt\" (text/plain)]|[resource test://1 "
            "(text/plain)]\nbody|[resource test://2: binary application/zip, 3 bytes, not shown: "
            "nib passes only text and images]|");
}

TEST(CallResult, StructuredContentIsTheTextOnlyWhenThereIsNoText) {
  const auto alone =
      map_call_result(nlohmann::json::parse(R"({"content": [], "structuredContent": {"t": 22}})"));
  EXPECT_EQ(bar_terminated_texts(alone), "{\n  \"t\": 22\n}|");
  const auto with_text = map_call_result(nlohmann::json::parse(
      R"({"content": [{"type": "text", "text": "22 degrees"}], "structuredContent": {"t": 22}})"));
  EXPECT_EQ(bar_terminated_texts(with_text), "22 degrees|");
}

TEST(CallResult, IsErrorMakesAnErrorResultAndEmptyContentSaysSo) {
  const auto error = map_call_result(nlohmann::json::parse(
      R"({"isError": true, "content": [{"type": "text", "text": "bad input"}]})"));
  EXPECT_TRUE(error.is_error);
  EXPECT_EQ(bar_terminated_texts(error), "bad input|");
  EXPECT_EQ(bar_terminated_texts(map_call_result(nlohmann::json::object())),
            "(the tool returned no content)|");
  EXPECT_TRUE(map_call_result(nlohmann::json::array()).is_error);
}

TEST(CallResult, ALongResultIsCutAndSavedWhole) {
  nib::testing::TempDir dir;
  const std::string long_text(150'000, 'y');
  const auto output = map_call_result(
      {{"content", {{{"type", "text"}, {"text", long_text}}}}}, [&](std::string_view prefix) {
        return process::create_log_in(process::open_private_dir(dir.path()).value(), prefix);
      });
  ASSERT_EQ(output.content->size(), 2u);
  EXPECT_EQ(std::get<core::TextBlock>((*output.content)[0]).text.size(), 100'000u);
  const std::string note = std::get<core::TextBlock>((*output.content)[1]).text;
  EXPECT_TRUE(note.starts_with("… [50,000 more bytes; ")) << note;
  EXPECT_NE(note.find("about 37500 tokens, more than the 25000 shown"), std::string::npos) << note;
  const std::size_t at = note.find(dir.path().string());
  ASSERT_NE(at, std::string::npos) << note;
  const std::string path = note.substr(at, note.find(';', at) - at);
  std::ifstream saved(path);
  std::stringstream contents;
  contents << saved.rdbuf();
  EXPECT_EQ(contents.str(), long_text + "\n");
}

}  // namespace
}  // namespace nib::mcp
