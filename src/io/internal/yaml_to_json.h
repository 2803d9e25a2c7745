// YAML to JSON text, document by document, so YAML input goes through the same simdjson
// decode path as JSON. Scalars are typed with the YAML 1.2 core schema: plain scalars that
// read as null/bool/int/float become JSON null/booleans/numbers, quoted scalars (yaml-cpp tag
// "!") and !!str stay strings. Numbers JSON cannot hold (1e400, 2^70, .inf, .nan) become
// strings of their text, so a quantity field reports them instead of the whole file failing.
// Anchors and aliases are expanded; merge keys (<<) are not applied. Internal to io.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::io::internal {

// Calls `sink(json, line)` for every document in `text`, in order, with the document's first
// line (1-based). On malformed YAML returns InvalidArgument whose message starts with
// "line L, column C:"; the documents before the bad one have been delivered, the rest are
// lost. A document that parses but cannot be converted (duplicate mapping keys, reported
// as kubectl reports them: "error converting YAML to JSON: yaml: unmarshal errors:" then
// one "line N: key "k" already set in map" per duplicate; an alias to an unknown anchor; a
// collection as a key) goes to `bad_document(error, line)` when given, and reading goes on
// with the next document; without it the stream stops there with that error. Never throws
// (yaml-cpp exceptions are caught here).
core::Status ConvertYamlStream(
    std::string_view text, const std::function<void(std::string&& json, int line)>& sink,
    const std::function<void(core::Error error, int line)>& bad_document = nullptr);

// The JSON text of one plain (untagged) YAML scalar under the core schema: "null", "true",
// "42", "1.5" or a quoted JSON string. Exposed for tests.
std::string PlainScalarToJson(std::string_view value);

// Appends `s` as a JSON string literal (quotes and escapes).
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace berth::io::internal
