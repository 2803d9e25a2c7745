// Fuzz target: io's YAML-to-JSON conversion (io/internal/yaml_to_json.h), document by
// document. Property: every document it delivers is JSON simdjson accepts (invalid UTF-8
// aside, see below), because the reader hands that text to simdjson as if the user had
// written it.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/result.h"
#include "fuzz/fuzz_support.h"
#include "io/internal/yaml_to_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simdjson::dom::parser parser;
  auto on_document = [&parser](std::string&& json, int line) {
    simdjson::dom::element element;
    const simdjson::error_code error = parser.parse(json).get(element);
    // Invalid UTF-8 passes through yaml-cpp unchecked and simdjson refuses it: the reader
    // then reports the document as invalid JSON (docs/fuzzing.md, findings). Any other
    // refusal means the conversion wrote bad JSON.
    if (error != simdjson::SUCCESS && error != simdjson::UTF8_ERROR) {
      berth::fuzz::PropertyFailed(simdjson::error_message(error), json);
    }
  };
  auto on_bad_document = [](berth::core::Error error, int line) {};
  (void)berth::io::internal::ConvertYamlStream(berth::fuzz::AsText(data, size), on_document,
                                               on_bad_document);
  return 0;
}
