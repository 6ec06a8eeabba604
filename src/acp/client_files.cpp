#include "acp/client_files.hpp"

#include <nlohmann/json.hpp>

namespace nib::acp {

using nlohmann::json;

std::shared_ptr<const tools::EditorFiles> client_files(
    RpcPeer& peer, const json& client_capabilities, std::shared_ptr<const std::string> session_id) {
  const json fs =
      client_capabilities.is_object() ? client_capabilities.value("fs", json()) : json();
  const auto offers = [&fs](const char* capability) {
    return fs.is_object() && fs.value(capability, json()) == true;
  };
  auto files = std::make_shared<tools::EditorFiles>();
  if (offers("readTextFile")) {
    files->read = [&peer, session_id](const std::filesystem::path& path,
                                      std::stop_token stop) -> util::Result<std::string> {
      auto answer = peer.request("fs/read_text_file",
                                 {{"sessionId", *session_id}, {"path", path.string()}}, stop);
      if (!answer.ok()) return util::Result<std::string>::failure(answer.error());
      const json& result = answer.value();
      if (!result.is_object() || !result.value("content", json()).is_string()) {
        return util::Result<std::string>::failure("the client's answer holds no text content");
      }
      return result["content"].get<std::string>();
    };
  }
  if (offers("writeTextFile")) {
    files->write = [&peer, session_id](const std::filesystem::path& path, const std::string& text,
                                       std::stop_token stop) -> util::Status {
      auto answer = peer.request(
          "fs/write_text_file",
          {{"sessionId", *session_id}, {"path", path.string()}, {"content", text}}, stop);
      return answer.ok() ? util::Status::success() : util::Status::failure(answer.error());
    };
  }
  if (!files->read && !files->write) return nullptr;
  return files;
}

}  // namespace nib::acp
