// core/v1 ConfigMap, for berth doctor (the NVIDIA device plugin's time-slicing and MPS
// configuration, GPU Feature Discovery's, mig-parted's). Checked as kube-apiserver's
// ValidateConfigMap checks it: keys are config keys, no key in both data and binaryData, and
// the values together at most 1 MiB (MaxSecretSize; docs/limits.md). binaryData counts by its
// decoded size and is not kept.
#include <string>
#include <string_view>
#include <utility>

#include "core/labels.h"
#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {
namespace {

// apimachinery's IsConfigMapKey, first problem only; "" when `key` is valid.
std::string ConfigKeyProblem(std::string_view key) {
  if (key.size() > core::kMaxDnsSubdomainBytes) return "must be no more than 253 characters";
  bool valid_chars = !key.empty();
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) valid_chars = false;
  }
  if (!valid_chars) {
    return "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. "
           "'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
           "'[-._a-zA-Z0-9]+')";
  }
  if (key == ".") return "must not be '.'";
  if (key == "..") return "must not be '..'";
  if (key.starts_with("..")) return "must not start with '..'";
  return "";
}

// The bytes standard base64 `text` decodes to (its padding excluded); not validated.
size_t DecodedBase64Bytes(std::string_view text) {
  const size_t rest = text.size() % 4;
  if (rest != 0) return (text.size() / 4) * 3 + rest * 3 / 4;  // unpadded (or not base64)
  size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  return (text.size() / 4) * 3 - padding;
}

}  // namespace

core::Result<model::ConfigMap> DecodeConfigMap(dom::object obj) {
  model::ConfigMap map;
  BERTH_ASSIGN_OR_RETURN(map.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  size_t total = 0;
  dom::object data;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "data", &data));
  map.data.reserve(data.size());
  for (auto [key, value] : data) {
    if (std::string problem = ConfigKeyProblem(key); !problem.empty()) {
      return InvalidValue(KeyField("data", key), key, problem);
    }
    std::string_view text;  // null reads as "", as Go's decoder stores it in a map
    if (!value.is_null() && value.get_string().get(text) != simdjson::SUCCESS) {
      return FieldError(KeyField("data", key), "must be a string");
    }
    total += text.size();
    if (total > kMaxConfigMapBytes) {
      return FieldError("data", "Too long: may not be more than " +
                                    std::to_string(kMaxConfigMapBytes) + " bytes");
    }
    map.data.emplace_back(std::string(key), std::string(text));
  }
  dom::object binary;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "binaryData", &binary));
  for (auto [key, value] : binary) {
    if (std::string problem = ConfigKeyProblem(key); !problem.empty()) {
      return InvalidValue(KeyField("binaryData", key), key, problem);
    }
    if (data.at_key(key).error() == simdjson::SUCCESS) {
      return InvalidValue("binaryData", key, "duplicate of key present in data");
    }
    std::string_view text;
    if (!value.is_null() && value.get_string().get(text) != simdjson::SUCCESS) {
      return FieldError(KeyField("binaryData", key), "must be a base64 string");
    }
    total += DecodedBase64Bytes(text);
    if (total > kMaxConfigMapBytes) {
      return FieldError("binaryData", "Too long: may not be more than " +
                                          std::to_string(kMaxConfigMapBytes) + " bytes");
    }
  }
  return map;
}

}  // namespace berth::io::internal
