// Fuzz target: Quantity parsing (core/quantity.h). Properties, from upstream's
// resource.Quantity: a parsed quantity prints canonically, and the canonical text parses
// back to the same value. Value, MilliValue and the saturating sums run on every parsed
// quantity (UBSan watches their 128-bit arithmetic).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/quantity.h"
#include "core/result.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using berth::core::Quantity;
  const berth::core::Result<Quantity> q = Quantity::Parse(berth::fuzz::AsText(data, size));
  if (!q.has_value()) return 0;
  const std::string canonical = q->ToString();
  const berth::core::Result<Quantity> again = Quantity::Parse(canonical);
  if (!again.has_value()) {
    berth::fuzz::PropertyFailed("the canonical text of a quantity does not parse", canonical);
  }
  if (*again != *q) {
    berth::fuzz::PropertyFailed("the canonical text of a quantity reads another value",
                                canonical);
  }
  (void)q->Value();
  (void)q->MilliValue();
  (void)(*q + *q - *q);
  return 0;
}
