// Splits a JSON `kind: ...List` object (what `kubectl get -o json` prints) into the text of
// its items without parsing them, so that each item is parsed on its own: the DOM of one
// item stays in cache and a dump of hundreds of MB never needs a DOM of hundreds of MB.
// Items are delimited by matching brackets outside strings; they are not validated here (the
// caller parses each one). Internal to io; pure function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace berth::io::internal {

struct JsonListSplit {
  std::vector<std::string_view> items;  // views into the text given
  // The object with the items array emptied ("items":[]), for the caller to validate.
  std::string shell;
};

// True when `text` holds exactly one JSON object (and whitespace) with a string "kind"
// ending in "List" and an "items" array; `out` then holds the items. False for anything
// else (a single object, a stream, an array, malformed text): read those as a whole.
bool SplitJsonList(std::string_view text, JsonListSplit* out);

}  // namespace berth::io::internal
