// Duplicate object keys in JSON text. simdjson keeps every member of an object and lookups
// see the first, so `{"kind": "Pod", "kind": "Node"}` would read silently; kubectl refuses
// such input. Called by the reader on every JSON input before decoding it; the same scan
// enforces the nesting and string bounds of io/input_limits.h. Internal to io; stateless.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace berth::io::internal {

struct JsonDuplicateKey {
  size_t offset = 0;  // of the repeated key's opening quote in the text scanned
  std::string key;    // as written, with its quotes: "\"kind\""
};

// A bound of io/input_limits.h passed: nesting deeper than kMaxNestingDepth, or a string
// longer than kMaxStringBytes.
struct JsonLimitBreach {
  size_t offset = 0;    // of the opening bracket or quote that passed it
  std::string message;  // without a position: "more than 256 nested objects and arrays ..."
};

struct JsonScan {
  std::vector<JsonDuplicateKey> duplicates;  // at most `max`
  std::vector<JsonLimitBreach> breaches;     // at most `max`; one per excursion past the depth
};

// Every key repeated within one object of `json`, in text order, and every bound passed.
// One pass over the text (the whole text, whatever was found); an object's keys are
// compared with the earlier keys of that object only, as written (escapes are not decoded).
// Memory is bounded by kMaxNestingDepth frames, however deep the text. Malformed JSON is
// scanned as far as it goes: the parser reports its errors.
JsonScan ScanJson(std::string_view json, size_t max = 100);

// ScanJson's duplicates only.
std::vector<JsonDuplicateKey> FindJsonDuplicateKeys(std::string_view json, size_t max = 100);

// The 1-based line of `offset` in `text`.
int LineOf(std::string_view text, size_t offset);

// The error text for the duplicates of one document, worded as kubectl's YAML-to-JSON
// conversion words them (sigs.k8s.io/yaml): "error converting YAML to JSON: yaml: unmarshal
// errors:" then "  line N: key \"k\" already set in map" per duplicate. `base` is the text
// the offsets count in.
std::string DuplicateKeysMessage(std::string_view base,
                                 const std::vector<JsonDuplicateKey>& duplicates);

}  // namespace berth::io::internal
