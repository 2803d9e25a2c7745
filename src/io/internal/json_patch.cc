// Tolerations are compared field by field rather than as JSON text: a document may spell
// the default operator out ("Equal") or leave it out, and tolerationSeconds may be written
// as 300 or 300.0; both mean the same toleration, which must not be appended twice.
#include "io/internal/json_patch.h"

#include <cmath>
#include <utility>

namespace berth::io::internal {

using OrderedJson = nlohmann::ordered_json;

std::string StringMember(const OrderedJson& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

OrderedJson ParseDocument(const DocumentStore& documents, model::SourceRef ref) {
  if (!ref.valid()) return OrderedJson();
  OrderedJson doc =
      OrderedJson::parse(documents.Get(ref).json, nullptr, /*allow_exceptions=*/false);
  return doc.is_object() ? doc : OrderedJson();
}

OrderedJson DocumentOrMinimal(const DocumentStore& documents, model::SourceRef ref,
                              const char* api_version, const char* kind,
                              const model::ObjectMeta& meta) {
  OrderedJson doc = ParseDocument(documents, ref);
  if (!doc.is_null()) return doc;
  doc = OrderedJson::object();
  doc["apiVersion"] = api_version;
  doc["kind"] = kind;
  doc["metadata"] = OrderedJson::object({{"name", meta.name}, {"namespace", meta.namespace_}});
  return doc;
}

OrderedJson& ObjectMember(OrderedJson& obj, const char* key) {
  OrderedJson& member = obj[key];
  if (!member.is_object()) member = OrderedJson::object();
  return member;
}

void SetOrErase(OrderedJson& obj, const char* key, const std::string& value) {
  if (value.empty()) {
    obj.erase(key);
  } else {
    obj[key] = value;
  }
}

OrderedJson TolerationJson(const core::Toleration& t) {
  OrderedJson out = OrderedJson::object();
  if (!t.key.empty()) out["key"] = t.key;
  out["operator"] = t.op == core::TolerationOp::kExists ? "Exists" : "Equal";
  if (!t.value.empty()) out["value"] = t.value;
  if (t.effect.has_value()) out["effect"] = core::TaintEffectName(*t.effect);
  if (t.toleration_seconds.has_value()) out["tolerationSeconds"] = *t.toleration_seconds;
  return out;
}

bool SameToleration(const OrderedJson& entry, const core::Toleration& t) {
  if (!entry.is_object()) return false;
  std::string op = StringMember(entry, "operator");
  if (op.empty()) op = "Equal";
  std::string effect = StringMember(entry, "effect");
  if (StringMember(entry, "key") != t.key ||
      op != (t.op == core::TolerationOp::kExists ? "Exists" : "Equal") ||
      StringMember(entry, "value") != t.value ||
      effect != (t.effect.has_value() ? core::TaintEffectName(*t.effect) : "")) {
    return false;
  }
  auto seconds = entry.find("tolerationSeconds");
  bool has_seconds = seconds != entry.end() && seconds->is_number();
  if (has_seconds != t.toleration_seconds.has_value()) return false;
  return !has_seconds ||
         std::llround(seconds->get<double>()) == static_cast<long long>(*t.toleration_seconds);
}

void PatchMetaConditions(OrderedJson& conditions, const std::vector<model::Condition>& planned) {
  if (!conditions.is_array()) conditions = OrderedJson::array();
  for (const model::Condition& cond : planned) {
    const char* status = model::ConditionStatusName(cond.status);
    std::string time =
        cond.last_transition_time.has_value() ? cond.last_transition_time->ToString() : "";
    OrderedJson* entry = nullptr;
    for (OrderedJson& c : conditions) {
      auto type = c.is_object() ? c.find("type") : c.end();
      if (type != c.end() && type->is_string() && *type == cond.type) {
        entry = &c;
        break;
      }
    }
    if (entry == nullptr) {
      // metav1.Condition's field order; reason and message are not omitempty there.
      OrderedJson c = OrderedJson::object();
      c["type"] = cond.type;
      c["status"] = status;
      if (!time.empty()) c["lastTransitionTime"] = time;
      c["reason"] = cond.reason;
      c["message"] = cond.message;
      conditions.push_back(std::move(c));
      continue;
    }
    bool status_changed = StringMember(*entry, "status") != status;
    bool has_time = entry->contains("lastTransitionTime");
    (*entry)["status"] = status;
    if (!time.empty() && (status_changed || !has_time)) (*entry)["lastTransitionTime"] = time;
    (*entry)["reason"] = cond.reason;
    (*entry)["message"] = cond.message;
  }
}

}  // namespace berth::io::internal
