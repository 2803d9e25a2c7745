#include "server/member/member_json.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <utility>

#include "core/time.h"
#include "server/api/json_access.h"

namespace berth::server::member {

int64_t IntAt(const Json& obj, std::initializer_list<std::string_view> keys, int64_t fallback) {
  return OptionalIntAt(obj, keys).value_or(fallback);
}

std::optional<int64_t> OptionalIntAt(const Json& obj,
                                     std::initializer_list<std::string_view> keys) {
  const Json* v = MemberAt(obj, keys);
  if (v == nullptr) return std::nullopt;
  if (v->is_number_unsigned()) {
    const uint64_t u = v->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (v->is_number_integer()) return v->get<int64_t>();
  return std::nullopt;
}

bool BoolAt(const Json& obj, std::initializer_list<std::string_view> keys, bool fallback) {
  const Json* v = MemberAt(obj, keys);
  return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

std::optional<int64_t> TimeAt(const Json& obj, std::initializer_list<std::string_view> keys) {
  const Json* v = MemberAt(obj, keys);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  core::Result<core::Timestamp> t = core::Timestamp::Parse(v->get<std::string>());
  if (!t.has_value()) return std::nullopt;
  return t->unix_s;
}

std::string TimeText(int64_t unix_s) { return core::Timestamp{unix_s}.ToString(); }

Json& EnsureObject(Json& parent, std::string_view key) {
  if (!parent.is_object()) parent = Json::object();
  Json& v = parent[std::string(key)];
  if (!v.is_object()) v = Json::object();
  return v;
}

Json& EnsureArray(Json& parent, std::string_view key) {
  if (!parent.is_object()) parent = Json::object();
  Json& v = parent[std::string(key)];
  if (!v.is_array()) v = Json::array();
  return v;
}

std::string NameOf(const Json& obj) { return StringAt(obj, {"metadata", "name"}); }
std::string NamespaceOf(const Json& obj) { return StringAt(obj, {"metadata", "namespace"}); }
std::string UidOf(const Json& obj) { return StringAt(obj, {"metadata", "uid"}); }

std::string LabelOf(const Json& obj, std::string_view key) {
  return StringAt(obj, {"metadata", "labels", key});
}

std::string AnnotationOf(const Json& obj, std::string_view key) {
  return StringAt(obj, {"metadata", "annotations", key});
}

bool HasAnnotation(const Json& obj, std::string_view key) {
  const Json* v = MemberAt(obj, {"metadata", "annotations", key});
  return v != nullptr && v->is_string();
}

void SetLabel(Json& obj, std::string_view key, std::string value) {
  EnsureObject(EnsureObject(obj, "metadata"), "labels")[std::string(key)] = std::move(value);
}

void SetAnnotation(Json& obj, std::string_view key, std::string value) {
  EnsureObject(EnsureObject(obj, "metadata"), "annotations")[std::string(key)] = std::move(value);
}

void EraseAnnotation(Json& obj, std::string_view key) {
  if (MemberAt(obj, {"metadata", "annotations"}) == nullptr) return;
  Json& annotations = EnsureObject(EnsureObject(obj, "metadata"), "annotations");
  annotations.erase(std::string(key));
}

bool IsBeingDeleted(const Json& obj) {
  const Json* v = MemberAt(obj, {"metadata", "deletionTimestamp"});
  return v != nullptr && v->is_string() && !v->get<std::string>().empty();
}

const Json* ControllerRefOf(const Json& obj) {
  const Json* refs = MemberAt(obj, {"metadata", "ownerReferences"});
  if (refs == nullptr || !refs->is_array()) return nullptr;
  for (const Json& ref : *refs) {
    const Json* controller = Member(ref, "controller");
    if (controller != nullptr && controller->is_boolean() && controller->get<bool>()) return &ref;
  }
  return nullptr;
}

std::string ControllerUidOf(const Json& obj) {
  const Json* ref = ControllerRefOf(obj);
  return ref == nullptr ? std::string() : StringAt(*ref, {"uid"});
}

Json ControllerRefTo(const Json& owner, Kind owner_kind) {
  const KindInfo& info = InfoOf(owner_kind);
  std::string api_version = StringAt(owner, {"apiVersion"});
  if (api_version.empty()) api_version = std::string(info.api_version);
  return Json{{"apiVersion", api_version}, {"kind", std::string(info.name)},
              {"name", NameOf(owner)},     {"uid", UidOf(owner)},
              {"controller", true},        {"blockOwnerDeletion", true}};
}

bool HasFinalizer(const Json& obj, std::string_view finalizer) {
  const Json* list = MemberAt(obj, {"metadata", "finalizers"});
  if (list == nullptr || !list->is_array()) return false;
  return std::any_of(list->begin(), list->end(), [&](const Json& f) {
    return f.is_string() && f.get<std::string>() == finalizer;
  });
}

void AddFinalizer(Json& obj, std::string_view finalizer) {
  if (HasFinalizer(obj, finalizer)) return;
  EnsureArray(EnsureObject(obj, "metadata"), "finalizers").push_back(std::string(finalizer));
}

void RemoveFinalizer(Json& obj, std::string_view finalizer) {
  if (!HasFinalizer(obj, finalizer)) return;
  Json& metadata = EnsureObject(obj, "metadata");
  Json kept = Json::array();
  for (const Json& f : EnsureArray(metadata, "finalizers")) {
    if (!(f.is_string() && f.get<std::string>() == finalizer)) kept.push_back(f);
  }
  // The API server drops an empty list; so does a client's patch.
  if (kept.empty()) {
    metadata.erase("finalizers");
  } else {
    metadata["finalizers"] = std::move(kept);
  }
}

const Json* FindCondition(const Json& obj, std::string_view type) {
  const Json* list = MemberAt(obj, {"status", "conditions"});
  if (list == nullptr || !list->is_array()) return nullptr;
  for (const Json& c : *list) {
    if (StringAt(c, {"type"}) == type) return &c;
  }
  return nullptr;
}

bool ConditionIsTrue(const Json& obj, std::string_view type) {
  const Json* c = FindCondition(obj, type);
  return c != nullptr && StringAt(*c, {"status"}) == "True";
}

void RemoveCondition(Json& obj, std::string_view type) {
  if (FindCondition(obj, type) == nullptr) return;
  Json& list = EnsureArray(EnsureObject(obj, "status"), "conditions");
  Json kept = Json::array();
  for (Json& c : list) {
    if (StringAt(c, {"type"}) != type) kept.push_back(std::move(c));
  }
  list = std::move(kept);
}

std::optional<int64_t> ScaledIntOrPercent(const Json* value, int64_t total, bool round_up,
                                          std::string_view fallback) {
  std::string text(fallback);
  if (value != nullptr && !value->is_null()) {
    if (value->is_number_integer()) return value->get<int64_t>();
    // A string must be a percentage (intstr refuses "5": "invalid value for IntOrString").
    if (!value->is_string() || value->get<std::string>().empty() ||
        value->get<std::string>().back() != '%') {
      return std::nullopt;
    }
    text = value->get<std::string>();
  }
  if (text.empty() || text.back() != '%') {
    int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
  }
  int64_t percent = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size() - 1, percent);
  if (ec != std::errc() || end != text.data() + text.size() - 1 || percent < 0) {
    return std::nullopt;
  }
  const int64_t product = percent * total;
  return round_up ? (product + 99) / 100 : product / 100;
}

}  // namespace berth::server::member
