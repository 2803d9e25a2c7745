// Reading members of a JSON object by key or path, absent when any step is missing or not an
// object. Pure functions over nlohmann::ordered_json (the API's documents).
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace berth::server {

// obj[key] when `obj` is an object holding `key`, else nullptr.
inline const nlohmann::ordered_json* Member(const nlohmann::ordered_json& obj,
                                            std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(std::string(key));
  return it == obj.end() ? nullptr : &*it;
}

// obj[k1][k2]...; nullptr at the first missing step.
inline const nlohmann::ordered_json* MemberAt(const nlohmann::ordered_json& obj,
                                              std::initializer_list<std::string_view> keys) {
  const nlohmann::ordered_json* cur = &obj;
  for (std::string_view k : keys) {
    cur = Member(*cur, k);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

// The member at a dotted path as CRDs write one (".spec.replicas"; the leading dot optional).
inline const nlohmann::ordered_json* MemberAtPath(const nlohmann::ordered_json& obj,
                                                  std::string_view path) {
  if (!path.empty() && path[0] == '.') path.remove_prefix(1);
  const nlohmann::ordered_json* cur = &obj;
  while (!path.empty()) {
    size_t dot = path.find('.');
    cur = Member(*cur, path.substr(0, dot));
    if (cur == nullptr || dot == std::string_view::npos) return cur;
    path.remove_prefix(dot + 1);
  }
  return cur;
}

// The string at obj[k1][k2]...; "" when a step is missing or the value is not a string.
inline std::string StringAt(const nlohmann::ordered_json& obj,
                            std::initializer_list<std::string_view> keys) {
  const nlohmann::ordered_json* v = MemberAt(obj, keys);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}
}  // namespace berth::server
