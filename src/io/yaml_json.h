// YAML text to JSON text and back for callers outside io that hold a single document of
// their own (the cli reading a kubeconfig for server/kube, `berth rollout history` printing
// a revision's template), using io's YAML reader so its typing (YAML 1.2 core schema),
// duplicate-key refusal and input bounds apply, and io's emitter so the YAML reads as
// `kubectl get -o yaml` prints it. Pure: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::io {

// The first document of `text` (usually the only one) as JSON text. Documents after the first
// are not read. InvalidArgument when the text holds no document or the first one is not valid
// YAML (the message names the line and column).
core::Result<std::string> YamlDocumentAsJson(std::string_view text);

// One JSON value (an object) as a block-style YAML document, keys in the order written,
// without a leading "---". InvalidArgument when the text is not one JSON object.
core::Result<std::string> JsonAsYamlDocument(std::string_view json);

}  // namespace berth::io
