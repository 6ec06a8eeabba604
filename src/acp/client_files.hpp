#pragma once
// The client's files as read, edit and write take them (tools::EditorFiles): fs/read_text_file
// and fs/write_text_file of session `session_id`, for what the client's capabilities
// (initialize's clientCapabilities) say it offers, so an editor's unsaved buffers are what the
// model reads and changes. Nothing the client does not offer is ever asked of it.

#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "acp/rpc_peer.hpp"
#include "tools/editor_files.hpp"

namespace nib::acp {

// Null when the client offers neither. `peer` must outlive the result; `session_id` is read at
// each call (the session learns its id once it has opened).
std::shared_ptr<const tools::EditorFiles> client_files(
    RpcPeer& peer, const nlohmann::json& client_capabilities,
    std::shared_ptr<const std::string> session_id);

}  // namespace nib::acp
