// Fuzz target: `kind: List` splitting (io/internal/json_split.h), which cuts a kubectl dump
// into its items by matching brackets without parsing. Property: every item is a view into
// the text given.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "io/internal/json_split.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = berth::fuzz::AsText(data, size);
  berth::io::internal::JsonListSplit split;
  if (!berth::io::internal::SplitJsonList(text, &split)) return 0;
  for (std::string_view item : split.items) {
    if (item.data() < text.data() || item.data() + item.size() > text.data() + text.size()) {
      berth::fuzz::PropertyFailed("a List item is not a view into the text", item);
    }
  }
  return 0;
}
