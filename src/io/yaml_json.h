// YAML text to JSON text for callers outside io that hold a single YAML document of their
// own (the cli reading a kubeconfig for server/kube), using io's YAML reader so its typing
// (YAML 1.2 core schema), duplicate-key refusal and input bounds apply. Pure: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::io {

// The first document of `text` (usually the only one) as JSON text. Documents after the first
// are not read. InvalidArgument when the text holds no document or the first one is not valid
// YAML (the message names the line and column).
core::Result<std::string> YamlDocumentAsJson(std::string_view text);

}  // namespace berth::io
