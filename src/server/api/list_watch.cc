#include "server/api/list_watch.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "server/api/json_access.h"

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

// Splits ".spec.pytorchReplicaSpecs.Worker.replicas" into its keys.
std::vector<std::string> Keys(std::string_view path) {
  std::vector<std::string> out;
  size_t pos = path.empty() || path[0] != '.' ? 0 : 1;
  while (pos < path.size()) {
    size_t dot = path.find('.', pos);
    if (dot == std::string_view::npos) dot = path.size();
    out.emplace_back(path.substr(pos, dot - pos));
    pos = dot + 1;
  }
  return out;
}

}  // namespace

Json ListDocument(const model::KindInfo& kind, std::string_view api_version,
                  std::span<const Json> items, int64_t resource_version,
                  std::string_view continue_token, int64_t remaining_item_count) {
  Json list = Json::object();
  list["apiVersion"] = std::string(api_version);
  list["kind"] = std::string(kind.kind) + "List";
  Json meta = Json::object();
  meta["resourceVersion"] = std::to_string(resource_version);
  if (!continue_token.empty()) meta["continue"] = std::string(continue_token);
  if (remaining_item_count >= 0) meta["remainingItemCount"] = remaining_item_count;
  list["metadata"] = std::move(meta);
  Json arr = Json::array();
  for (const Json& item : items) arr.push_back(item);
  list["items"] = std::move(arr);
  return list;
}

std::string_view WatchEventTypeName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kBookmark:
      return "BOOKMARK";
    case WatchEventType::kError:
      return "ERROR";
  }
  return "ERROR";
}

Json WatchEvent(WatchEventType type, Json object) {
  Json e = Json::object();
  e["type"] = std::string(WatchEventTypeName(type));
  e["object"] = std::move(object);
  return e;
}

Json BookmarkEvent(const model::KindInfo& kind, std::string_view api_version,
                   int64_t resource_version) {
  Json o = Json::object();
  o["kind"] = std::string(kind.kind);
  o["apiVersion"] = std::string(api_version);
  o["metadata"] = Json{{"resourceVersion", std::to_string(resource_version)}};
  return WatchEvent(WatchEventType::kBookmark, std::move(o));
}

Json ErrorEvent(const ApiError& error) { return WatchEvent(WatchEventType::kError, error.ToJson()); }

std::string LabelSelectorText(const Json& selector) {
  std::vector<std::pair<std::string, std::string>> parts;  // key, text
  if (const Json* ml = Member(selector, "matchLabels"); ml != nullptr && ml->is_object()) {
    for (auto it = ml->begin(); it != ml->end(); ++it) {
      if (it.value().is_string()) {
        parts.emplace_back(it.key(), it.key() + "=" + it.value().get<std::string>());
      }
    }
  }
  if (const Json* me = Member(selector, "matchExpressions"); me != nullptr && me->is_array()) {
    for (const Json& e : *me) {
      const Json* k = Member(e, "key");
      const Json* op = Member(e, "operator");
      if (k == nullptr || !k->is_string() || op == nullptr || !op->is_string()) continue;
      const std::string key = k->get<std::string>();
      std::vector<std::string> values;
      if (const Json* vs = Member(e, "values"); vs != nullptr && vs->is_array()) {
        for (const Json& v : *vs) {
          if (v.is_string()) values.push_back(v.get<std::string>());
        }
      }
      std::sort(values.begin(), values.end());
      std::string list;
      for (const std::string& v : values) list += (list.empty() ? "" : ",") + v;
      const std::string o = op->get<std::string>();
      if (o == "In") parts.emplace_back(key, key + " in (" + list + ")");
      if (o == "NotIn") parts.emplace_back(key, key + " notin (" + list + ")");
      if (o == "Exists") parts.emplace_back(key, key);
      if (o == "DoesNotExist") parts.emplace_back(key, "!" + key);
    }
  }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p.second;
  return out;
}

Json ScaleOf(const model::KindInfo& kind, const Json& object) {
  Json scale = Json::object();
  scale["kind"] = "Scale";
  scale["apiVersion"] = "autoscaling/v1";
  Json meta = Json::object();
  if (const Json* m = Member(object, "metadata"); m != nullptr) {
    for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
      if (const Json* v = Member(*m, key); v != nullptr) meta[key] = *v;
    }
  }
  scale["metadata"] = std::move(meta);
  auto integer = [&](std::string_view path) -> int64_t {
    const Json* v = MemberAtPath(object, path);
    if (v == nullptr || !v->is_number()) return 0;
    return v->is_number_integer() ? v->get<int64_t>() : static_cast<int64_t>(v->get<double>());
  };
  scale["spec"] = Json{{"replicas", integer(kind.scale.spec_replicas_path)}};
  Json status = Json::object();
  status["replicas"] = integer(kind.scale.status_replicas_path);
  if (!kind.scale.label_selector_path.empty()) {
    const Json* sel = MemberAtPath(object, kind.scale.label_selector_path);
    if (sel != nullptr && sel->is_string()) {
      status["selector"] = sel->get<std::string>();
    } else if (sel != nullptr && sel->is_object()) {
      status["selector"] = LabelSelectorText(*sel);
    }
  }
  scale["status"] = std::move(status);
  return scale;
}

ApiResult<Json> ApplyScale(const model::KindInfo& kind, Json object, const Json& scale) {
  const Json* replicas = MemberAtPath(scale, ".spec.replicas");
  if (replicas == nullptr || !replicas->is_number_integer() || replicas->get<int64_t>() < 0) {
    const StatusCause cause{"FieldValueInvalid", "must be greater than or equal to 0",
                            "spec.replicas"};
    const Json* name = MemberAtPath(object, ".metadata.name");
    return InvalidError("autoscaling", "Scale",
                        name != nullptr && name->is_string() ? name->get<std::string>() : "",
                        std::span(&cause, 1));
  }
  Json* cur = &object;
  const std::vector<std::string> keys = Keys(kind.scale.spec_replicas_path);
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    Json& next = (*cur)[keys[i]];
    if (!next.is_object()) next = Json::object();
    cur = &next;
  }
  if (!keys.empty()) (*cur)[keys.back()] = replicas->get<int64_t>();
  return object;
}

}  // namespace berth::server
