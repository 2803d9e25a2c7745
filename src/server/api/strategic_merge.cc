// Semantics from k8s.io/apimachinery/pkg/util/strategicpatch (patch.go: mergeMap,
// mergeSlice, the directive handling), reduced to what the built-in kinds' struct tags say
// for the fields berth serves. Unknown fields merge as in a JSON merge patch and their lists
// replace, which is what strategicpatch does for a field without patchStrategy.
#include "server/api/strategic_merge.h"

#include <string>
#include <utility>
#include <vector>

#include "server/api/patch.h"

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

// What differs between the kinds served: a NetworkPolicy's `ports` (spec.ingress[].ports,
// spec.egress[].ports) have no patch strategy upstream and are replaced whole, unlike a
// container's, which merge by containerPort. Every other list field means the same in every
// built-in kind berth serves.
struct MergeKind {
  bool ports_atomic = false;
};

// patchMergeKey of list fields with patchStrategy "merge" in core/v1, apps/v1, batch/v1 and
// meta/v1 (by field name).
std::string_view MergeKeyOf(std::string_view field, const MergeKind& kind) {
  if (kind.ports_atomic && field == "ports") return {};
  struct Entry {
    std::string_view field;
    std::string_view key;
  };
  static constexpr Entry kKeys[] = {
      {"containers", "name"},        {"initContainers", "name"},
      {"ephemeralContainers", "name"}, {"env", "name"},
      {"volumes", "name"},           {"volumeMounts", "mountPath"},
      {"volumeDevices", "devicePath"}, {"ports", "containerPort"},
      {"imagePullSecrets", "name"},  {"conditions", "type"},
      {"addresses", "type"},         {"ownerReferences", "uid"},
      {"hostAliases", "ip"},         {"topologySpreadConstraints", "topologyKey"},
      {"resourceClaims", "name"},    {"schedulingGates", "name"},
      {"podIPs", "ip"},              {"hostIPs", "ip"},
  };
  for (const Entry& e : kKeys) {
    if (e.field == field) return e.key;
  }
  return {};
}

// Lists of scalars merged as sets (patchStrategy merge without a key).
bool IsPrimitiveMergeList(std::string_view field) { return field == "finalizers"; }

constexpr std::string_view kSetElementOrder = "$setElementOrder/";
constexpr std::string_view kDeleteFromPrimitiveList = "$deleteFromPrimitiveList/";

struct Failure {
  std::string message;
};

std::optional<Failure> MergeObject(Json& target, const Json& patch, const MergeKind& kind,
                                   size_t depth);

std::optional<Failure> MergeValue(Json& target, const Json& patch, std::string_view field,
                                  const MergeKind& kind, size_t depth);

std::optional<Failure> MergeKeyedList(Json& target, const Json& patch, std::string_view key,
                                      const MergeKind& kind, size_t depth) {
  if (!target.is_array()) target = Json::array();
  // A {"$patch": "replace"} element replaces the whole list with the other elements.
  for (const Json& p : patch) {
    if (p.is_object() && p.contains("$patch") && p["$patch"] == "replace") {
      Json replaced = Json::array();
      for (const Json& q : patch) {
        if (!(q.is_object() && q.contains("$patch"))) replaced.push_back(q);
      }
      target = std::move(replaced);
      return std::nullopt;
    }
  }
  for (const Json& p : patch) {
    if (!p.is_object()) {
      return Failure{"an element of a list merged by " + std::string(key) + " is not an object"};
    }
    auto k = p.find(std::string(key));
    if (k == p.end()) {
      return Failure{"map: " + p.dump() + " does not contain declared merge key: " +
                     std::string(key)};
    }
    size_t at = target.size();
    for (size_t i = 0; i < target.size(); ++i) {
      if (target[i].is_object() && target[i].contains(std::string(key)) &&
          target[i][std::string(key)] == *k) {
        at = i;
        break;
      }
    }
    const bool remove = p.contains("$patch") && p["$patch"] == "delete";
    if (remove) {
      if (at < target.size()) target.erase(target.begin() + static_cast<ptrdiff_t>(at));
      continue;
    }
    if (at == target.size()) {
      Json fresh = Json::object();
      if (auto f = MergeObject(fresh, p, kind, depth + 1)) return f;
      target.push_back(std::move(fresh));
    } else if (auto f = MergeObject(target[at], p, kind, depth + 1)) {
      return f;
    }
  }
  return std::nullopt;
}

std::optional<Failure> MergeValue(Json& target, const Json& patch, std::string_view field,
                                  const MergeKind& kind, size_t depth) {
  if (depth > kMaxPatchDepth) return Failure{"the patch nests too deeply"};
  if (patch.is_object()) {
    if (!target.is_object()) target = Json::object();
    return MergeObject(target, patch, kind, depth + 1);
  }
  if (patch.is_array()) {
    if (const std::string_view key = MergeKeyOf(field, kind); !key.empty()) {
      return MergeKeyedList(target, patch, key, kind, depth);
    }
    if (IsPrimitiveMergeList(field) && target.is_array()) {
      for (const Json& v : patch) {
        bool present = false;
        for (const Json& t : target) present = present || t == v;
        if (!present) target.push_back(v);
      }
      return std::nullopt;
    }
  }
  target = patch;
  return std::nullopt;
}

std::optional<Failure> MergeObject(Json& target, const Json& patch, const MergeKind& kind,
                                   size_t depth) {
  if (depth > kMaxPatchDepth) return Failure{"the patch nests too deeply"};
  if (auto directive = patch.find("$patch"); directive != patch.end()) {
    if (*directive == "replace") {
      Json replaced = Json::object();
      for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.key() != "$patch") replaced[it.key()] = it.value();
      }
      target = std::move(replaced);
      return std::nullopt;
    }
    if (*directive == "delete") {
      target = Json::object();
      return std::nullopt;
    }
    if (*directive != "merge") {
      return Failure{"Unknown patch type: " + (directive->is_string() ? directive->get<std::string>()
                                                                      : directive->dump())};
    }
  }
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    const std::string& key = it.key();
    if (key == "$patch" || key == "$retainKeys") continue;
    if (key.compare(0, kSetElementOrder.size(), kSetElementOrder) == 0) continue;
    if (key.compare(0, kDeleteFromPrimitiveList.size(), kDeleteFromPrimitiveList) == 0) {
      const std::string field = key.substr(kDeleteFromPrimitiveList.size());
      auto list = target.find(field);
      if (list != target.end() && list->is_array() && it.value().is_array()) {
        Json kept = Json::array();
        for (const Json& v : *list) {
          bool drop = false;
          for (const Json& d : it.value()) drop = drop || d == v;
          if (!drop) kept.push_back(v);
        }
        *list = std::move(kept);
      }
      continue;
    }
    if (it.value().is_null()) {
      target.erase(key);
      continue;
    }
    Json& slot = target[key];
    if (auto f = MergeValue(slot, it.value(), key, kind, depth + 1)) return f;
  }
  if (auto retain = patch.find("$retainKeys"); retain != patch.end()) {
    if (!retain->is_array()) return Failure{"$retainKeys must be a list of strings"};
    Json kept = Json::object();
    for (auto it = target.begin(); it != target.end(); ++it) {
      for (const Json& k : *retain) {
        if (k == it.key()) kept[it.key()] = it.value();
      }
    }
    target = std::move(kept);
  }
  return std::nullopt;
}

}  // namespace

ApiResult<Json> ApplyStrategicMergePatch(const Json& target, std::string_view patch_text) {
  const Json patch = Json::parse(patch_text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded() || !patch.is_object()) {
    return BadRequestError("the strategic merge patch body must be a JSON object");
  }
  Json doc = target.is_object() ? target : Json::object();
  MergeKind kind;
  auto k = doc.find("kind");
  kind.ports_atomic = k != doc.end() && k->is_string() && k->get_ref<const std::string&>() == "NetworkPolicy";
  if (auto f = MergeObject(doc, patch, kind, 0)) return BadRequestError(f->message);
  return doc;
}

}  // namespace berth::server
