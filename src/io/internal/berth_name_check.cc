// Why a warning and not an error: a key under berth.dev/ that berth does not know changes
// nothing in the plan, so the object is still read; but since the key was clearly meant for
// berth, silence would hide a setting that never took effect.
#include "io/internal/berth_name_check.h"

#include <algorithm>

#include "io/internal/json_fields.h"
#include "model/berth_names.h"

namespace berth::io::internal {

namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool Known(std::string_view key) {
  return std::find(std::begin(model::kBerthNames), std::end(model::kBerthNames), key) !=
         std::end(model::kBerthNames);
}

}  // namespace

std::string_view ClosestBerthName(std::string_view key) {
  std::string_view best;
  size_t best_distance = SIZE_MAX;
  for (std::string_view name : model::kBerthNames) {
    const size_t d = EditDistance(key, name);
    if (d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::vector<UnknownBerthName> UnknownBerthNames(simdjson::dom::object obj) {
  std::vector<UnknownBerthName> out;
  dom::object meta;
  bool found = false;
  if (!GetObject(obj, "metadata", &meta, &found).has_value() || !found) return out;
  for (std::string_view map : {std::string_view("labels"), std::string_view("annotations")}) {
    dom::element e;
    dom::object keys;
    if (!Find(meta, map, &e) || e.get_object().get(keys) != simdjson::SUCCESS) continue;
    for (auto [key, value] : keys) {
      if (!key.starts_with(model::kBerthNamePrefix) || Known(key)) continue;
      out.push_back({"metadata." + std::string(map) + "[" + std::string(key) + "]",
                     std::string(key), std::string(ClosestBerthName(key))});
    }
  }
  return out;
}

}  // namespace berth::io::internal
