// The misspelled-berth.dev-key check: a label or annotation key under berth.dev/ that is
// none of model/berth_names.h's is almost surely a typo (berth.dev/gpu-sharee) whose
// setting would be ignored. Called by the reader once per object decoded. Internal to io;
// stateless.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

namespace berth::io::internal {

struct UnknownBerthName {
  std::string field;    // "metadata.labels[berth.dev/x]" or "metadata.annotations[...]"
  std::string key;      // as written
  std::string closest;  // the known name nearest by edit distance
};

// The berth.dev/ keys of obj.metadata.labels and .annotations that berth does not know, in
// document order, each with the closest known name. Costs a prefix comparison per key.
std::vector<UnknownBerthName> UnknownBerthNames(simdjson::dom::object obj);

// The known berth.dev/ name nearest to `key` (Levenshtein distance; the first of the list
// on a tie).
std::string_view ClosestBerthName(std::string_view key);

}  // namespace berth::io::internal
