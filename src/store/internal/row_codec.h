// How the store's rows encode labels and decode into StoredObject. Private to src/store.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "store/internal/sqlite_db.h"
#include "store/object.h"

namespace berth::store::internal {

// Labels as "k=v\n" lines in key order, with '%', '=' and '\n' percent-escaped, so any bytes
// round-trip and a later label-selector query can match a "k=v" line.
std::string EncodeLabels(const std::map<std::string, std::string>& labels);
std::map<std::string, std::string> DecodeLabels(std::string_view text);

// The columns both tables share, in this order, starting at `first` in a SELECT:
//   grp, kind, ns, name, uid, rv, generation, created, deleted, labels, body
// (events select their own rv into the rv position).
inline constexpr const char* kObjectColumns =
    "grp, kind, ns, name, uid, rv, generation, created, deleted, labels, body";
StoredObject ReadObject(const Statement& row, int first);

}  // namespace berth::store::internal
