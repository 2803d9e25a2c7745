#include "io/internal/strict_fields.h"

#include <algorithm>

#include "core/excerpt.h"

namespace berth::io::internal {

void CollectUnknownFields(dom::object obj, std::initializer_list<std::string_view> known,
                          std::string_view prefix, std::vector<std::string>* unknown) {
  for (auto [key, value] : obj) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string path(prefix);
    if (!path.empty()) path += '.';
    path += key;
    unknown->push_back(std::move(path));
  }
}

core::Error StrictDecodingError(const std::vector<std::string>& unknown) {
  std::string message = "strict decoding error: ";
  for (size_t i = 0; i < unknown.size(); ++i) {
    if (i > 0) message += ", ";
    message += "unknown field " + core::Quote(unknown[i]) + "";
  }
  return core::InvalidArgument(std::move(message));
}

}  // namespace berth::io::internal
