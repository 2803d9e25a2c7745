// Fuzz target: label and field selectors as io decodes them (io/internal/decoders.h): the
// input is JSON; its "labelSelector" member goes through DecodeLabelSelector (a
// metav1.LabelSelector, validated), its "nodeSelector" member through DecodeNodeSelector
// (terms with matchExpressions, Gt/Lt, and matchFields, the field selector), and its
// "labels" object is what both are matched against. Property: a selector that decodes
// validates, and matching it never fails.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/labels.h"
#include "core/selector.h"
#include "fuzz/fuzz_support.h"
#include "io/internal/decoders.h"

namespace {

namespace dom = simdjson::dom;

berth::core::Labels LabelsOf(dom::object root) {
  berth::core::Labels labels;
  dom::object obj;
  if (root["labels"].get(obj) != simdjson::SUCCESS) return labels;
  for (auto field : obj) {
    std::string_view value;
    if (field.value.get(value) == simdjson::SUCCESS) {
      labels[std::string(field.key)] = std::string(value);
    }
  }
  return labels;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace io = berth::io::internal;
  dom::parser parser;
  dom::element root_element;
  if (parser.parse(reinterpret_cast<const char*>(data), size).get(root_element) !=
      simdjson::SUCCESS) {
    return 0;
  }
  dom::object root;
  if (root_element.get(root) != simdjson::SUCCESS) return 0;
  const berth::core::Labels labels = LabelsOf(root);
  dom::object obj;
  if (root["labelSelector"].get(obj) == simdjson::SUCCESS) {
    auto selector = io::DecodeLabelSelector(obj);
    if (selector.has_value()) {
      if (!selector->Validate().ok()) {
        berth::fuzz::PropertyFailed("a decoded label selector does not validate", "");
      }
      (void)selector->Matches(labels);
    }
  }
  if (root["nodeSelector"].get(obj) == simdjson::SUCCESS) {
    auto selector = io::DecodeNodeSelector(obj);
    if (selector.has_value()) {
      if (!selector->Validate().ok()) {
        berth::fuzz::PropertyFailed("a decoded node selector does not validate", "");
      }
      (void)selector->Matches(labels, "node-a");
    }
  }
  return 0;
}
