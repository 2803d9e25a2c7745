// A block-style YAML emitter for nlohmann::ordered_json, shaped like `kubectl get -o yaml`:
// keys in their stored order, sequences at their parent key's indentation ("- "), empty
// containers as {} and [], multi-line strings as literal blocks (|, |-, |+), and any string
// that a YAML 1.1 or 1.2 reader would take as something else ("true", "yes", "123", "1e3",
// "", "~", "a: b", "- x", "2024-01-01") double-quoted. Deterministic. Internal to io.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace berth::io::internal {

// Appends `value` (an object at the top, as every Kubernetes object is) as a YAML document
// without the leading "---".
void EmitYaml(const nlohmann::ordered_json& value, std::string* out);

// Appends `value` as one item of a block sequence at `indent` ("- ..."), as EmitYaml would
// inside a sequence: lets a writer stream a long list one item at a time.
void EmitYamlSequenceItem(const nlohmann::ordered_json& value, int indent, std::string* out);

// True when `s` must be quoted to read back as the same string.
bool YamlNeedsQuotes(std::string_view s);

}  // namespace berth::io::internal
