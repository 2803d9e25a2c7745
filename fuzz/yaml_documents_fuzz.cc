// Fuzz target: io's YAML-to-JSON conversion (io/internal/yaml_to_json.h), document by
// document. Property: every document it delivers is JSON simdjson accepts, because the
// reader hands that text to simdjson as if the user had written it.
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
    if (parser.parse(json).get(element) != simdjson::SUCCESS) {
      berth::fuzz::PropertyFailed("a converted YAML document is not JSON", json);
    }
  };
  auto on_bad_document = [](berth::core::Error error, int line) {};
  (void)berth::io::internal::ConvertYamlStream(berth::fuzz::AsText(data, size), on_document,
                                               on_bad_document);
  return 0;
}
