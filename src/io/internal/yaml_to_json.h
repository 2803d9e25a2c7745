// YAML to JSON text, document by document, so YAML input goes through the same simdjson
// decode path as JSON. Scalars are typed with the YAML 1.2 core schema: plain scalars that
// read as null/bool/int/float become JSON null/booleans/numbers, quoted scalars (yaml-cpp tag
// "!") and !!str stay strings. Numbers JSON cannot hold (1e400, 2^70, .inf, .nan) become
// strings of their text, so a quantity field reports them instead of the whole file failing.
// Anchors and aliases are expanded (bounded as go-yaml bounds them); merge keys (<<) are not
// applied. Internal to io.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::io::internal {

// Where a YAML document sits in its stream: its 1-based index among the stream's documents
// and its first line (the `---` line when it has one).
struct YamlDocumentPlace {
  int index = 1;
  int line = 1;
};

// Calls `sink(json, place)` for every document in `text`, in order. The text is first cut
// into documents at its `---` and `...` marker lines (YAML forbids them inside scalars, so
// the cut is exact) and each document is parsed on its own: a document that cannot be read
// goes to `bad_document(error, place)` and reading goes on with the next one. Errors:
// malformed YAML ("line L, column C: ..." in lines of the whole text), a directive
// (`%YAML`, `%TAG`) inside a document instead of before its `---`, duplicate mapping keys
// (worded as kubectl words them: "error converting YAML to JSON: yaml: unmarshal errors:"
// then one "line N: key "k" already set in map" per duplicate), an alias to an unknown
// anchor, a collection as a key, and the bounds of io/input_limits.h (nesting depth,
// string bytes, alias expansion). Running out of memory converting a document is one error
// naming it and every document after it, which are not read. Throws nothing of its own
// (yaml-cpp's exceptions and bad_alloc are caught here); what the sinks throw propagates.
// Cost: one scan for the markers, then yaml-cpp.
core::Status ConvertYamlDocuments(
    std::string_view text,
    const std::function<void(std::string&& json, const YamlDocumentPlace& place)>& sink,
    const std::function<void(core::Error error, const YamlDocumentPlace& place)>& bad_document);

// The same with the document's first line only. Without `bad_document`, the first bad
// document ends the stream and its error is returned; the documents before it have been
// delivered.
core::Status ConvertYamlStream(
    std::string_view text, const std::function<void(std::string&& json, int line)>& sink,
    const std::function<void(core::Error error, int line)>& bad_document = nullptr);

// The documents of a YAML stream as ConvertYamlDocuments cuts them: each one's text (with
// its directives and `---` line) and the line it starts at, the document's first line (its
// `---` line, else its first line of content), and the line of a directive found inside it
// (0 when none). Exposed for tests.
struct YamlDocumentText {
  std::string_view text;
  int text_line = 1;
  int line = 1;
  int stray_directive_line = 0;
};
std::vector<YamlDocumentText> SplitYamlDocuments(std::string_view text);

// The JSON text of one plain (untagged) YAML scalar under the core schema: "null", "true",
// "42", "1.5" or a quoted JSON string. Exposed for tests.
std::string PlainScalarToJson(std::string_view value);

// Appends `s` as a JSON string literal (quotes and escapes).
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace berth::io::internal
