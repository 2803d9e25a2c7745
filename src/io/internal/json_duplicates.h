// Duplicate object keys in JSON text. simdjson keeps every member of an object and lookups
// see the first, so `{"kind": "Pod", "kind": "Node"}` would read silently; kubectl refuses
// such input. Called by the reader on every JSON input before decoding it. Internal to io;
// stateless.
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

// Every key repeated within one object of `json`, in text order (at most `max` of them).
// One pass over the text; an object's keys are compared with the earlier keys of that
// object only, as written (escapes are not decoded). Malformed JSON is scanned as far as
// it goes: the parser reports its errors.
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
