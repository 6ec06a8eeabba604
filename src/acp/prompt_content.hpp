#pragma once
// An ACP prompt (session/prompt's `prompt`: text, image, embedded resource and resource link
// blocks) as the content of the user's message. An embedded resource's text goes in with its
// URI, as the file the user attached; a link is named for the model to read. Pure function.

#include <nlohmann/json_fwd.hpp>

#include "core/messages.hpp"
#include "util/result.hpp"

namespace nib::acp {

// The message's content; a failure names the block nib cannot take (audio, a malformed block).
util::Result<core::Content> prompt_content(const nlohmann::json& prompt);

}  // namespace nib::acp
