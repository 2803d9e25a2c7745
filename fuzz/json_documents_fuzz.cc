// Fuzz target: JSON input as io reads it before decoding: the duplicate-key scan
// (io/internal/json_duplicates.h) over arbitrary text, the line it names for each
// duplicate, and the kubectl-worded message. Property: every offset the scan reports
// points at a quoted key inside the text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "io/internal/json_duplicates.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace io = berth::io::internal;
  const std::string_view text = berth::fuzz::AsText(data, size);
  const std::vector<io::JsonDuplicateKey> duplicates = io::FindJsonDuplicateKeys(text);
  for (const io::JsonDuplicateKey& d : duplicates) {
    if (d.offset >= text.size() || text[d.offset] != '"' ||
        text.substr(d.offset, d.key.size()) != d.key) {
      berth::fuzz::PropertyFailed("a duplicate key's offset does not point at the key", d.key);
    }
    (void)io::LineOf(text, d.offset);
  }
  if (!duplicates.empty()) (void)io::DuplicateKeysMessage(text, duplicates);
  return 0;
}
