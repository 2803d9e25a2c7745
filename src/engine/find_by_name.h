// FindByName: the one lookup explain's targets share: an object of a list by "namespace/name"
// or by a "name" that must be unique, with the error kubectl users expect for none and for
// several. Header-only; pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace berth::engine {

// The index in `objects` (anything with `meta`) of the one named `name`. NotFound
// (`NOUN "NAME" not found in the input`) or InvalidArgument (`NOUN name "NAME" is ambiguous:
// ns/a, ns/b; name it as namespace/name`). O(objects).
template <typename T>
core::Result<int32_t> FindByName(const std::vector<T>& objects, const std::string& name,
                                 const std::string& noun) {
  const bool qualified = name.find('/') != std::string::npos;
  std::vector<int32_t> matches;
  for (size_t i = 0; i < objects.size(); ++i) {
    const auto& meta = objects[i].meta;
    if (qualified ? meta.NamespacedName() == name : meta.name == name) {
      matches.push_back(static_cast<int32_t>(i));
    }
  }
  if (matches.empty()) return core::NotFound(noun + " \"" + name + "\" not found in the input");
  if (matches.size() > 1) {
    std::string candidates;
    for (int32_t i : matches) {
      if (!candidates.empty()) candidates += ", ";
      candidates += objects[static_cast<size_t>(i)].meta.NamespacedName();
    }
    return core::InvalidArgument(noun + " name \"" + name + "\" is ambiguous: " + candidates +
                                 "; name it as namespace/name");
  }
  return matches.front();
}

}  // namespace berth::engine
