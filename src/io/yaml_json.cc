// A thin wrapper over internal/yaml_to_json.h, so io's users need not reach into io/internal
// (which no other module may include).
#include "io/yaml_json.h"

#include <optional>
#include <utility>

#include "io/internal/yaml_emitter.h"
#include "io/internal/yaml_to_json.h"

namespace berth::io {

core::Result<std::string> YamlDocumentAsJson(std::string_view text) {
  std::optional<std::string> first;
  std::optional<core::Error> first_error;
  int first_index = 0;
  core::Status status = internal::ConvertYamlDocuments(
      text,
      [&](std::string&& json, const internal::YamlDocumentPlace& place) {
        if (first_index != 0) return;
        first_index = place.index;
        first = std::move(json);
      },
      [&](core::Error error, const internal::YamlDocumentPlace& place) {
        if (first_index != 0) return;
        first_index = place.index;
        first_error = std::move(error);
      });
  if (first_error) return std::move(*first_error);
  if (first) return std::move(*first);
  if (!status.ok()) return std::move(status).error();
  return core::InvalidArgument("no YAML document in the text");
}

core::Result<std::string> JsonAsYamlDocument(std::string_view json) {
  // ordered_json keeps the keys as written: a revision's template prints as its author wrote
  // it, not sorted.
  const nlohmann::ordered_json value =
      nlohmann::ordered_json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!value.is_object()) return core::InvalidArgument("not one JSON object");
  std::string out;
  internal::EmitYaml(value, &out);
  return out;
}

}  // namespace berth::io
