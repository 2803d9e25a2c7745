// Conversion goes through v1beta2 (the storage version upstream): an object is first brought
// up to v1beta2, then down to the version asked for, so each rename is written once per
// direction. Fields are read type-checked (StringAt): a body of the wrong shape converts
// as far as it can and never throws.
#include "server/api/kueue_conversion.h"

#include <string>
#include <utility>

#include "model/kueue.h"
#include "server/api/json_access.h"

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;

Json* Spec(Json& object) {
  auto spec = object.find("spec");
  return spec != object.end() && spec->is_object() ? &*spec : nullptr;
}

// Moves `from` to `to` in `obj` unless `to` is set already.
void Rename(Json& obj, const char* from, const char* to) {
  auto it = obj.find(from);
  if (it == obj.end()) return;
  if (!obj.contains(to)) obj[to] = std::move(*it);
  obj.erase(from);
}

void Fungibility(Json& spec, bool up) {
  auto ff = spec.find("flavorFungibility");
  if (ff == spec.end() || !ff->is_object()) return;
  for (auto [key, legacy] : {std::pair{"whenCanBorrow", "Borrow"}, std::pair{"whenCanPreempt", "Preempt"}}) {
    auto value = ff->find(key);
    if (value == ff->end() || !value->is_string()) continue;
    if (up && *value == legacy) *value = "MayStopSearch";
    if (!up && *value == "MayStopSearch") *value = legacy;
  }
}

void ClusterQueueUp(Json& spec) {  // v1beta1 -> v1beta2
  Rename(spec, "cohort", "cohortName");
  Fungibility(spec, true);
  auto checks = spec.find("admissionChecks");
  if (checks != spec.end() && checks->is_array()) {
    if (!spec.contains("admissionChecksStrategy")) {
      Json list = Json::array();
      for (const Json& name : *checks) list.push_back(Json{{"name", name}});
      spec["admissionChecksStrategy"] = Json{{"admissionChecks", std::move(list)}};
    }
    spec.erase("admissionChecks");
  }
}

void ClusterQueueDown(Json& spec) {  // v1beta2 -> v1beta1
  Rename(spec, "cohortName", "cohort");
  Fungibility(spec, false);
  // admissionChecksStrategy exists in v1beta1 too: it stays as written.
}

void WorkloadUp(Json& spec) {
  auto name = spec.find("priorityClassName");
  if (name == spec.end()) return;
  const std::string source = StringAt(spec, {"priorityClassSource"});
  if (!spec.contains("priorityClassRef") && name->is_string()) {
    const bool pod = source == model::kPodPriorityClassSource;
    spec["priorityClassRef"] = Json{{"group", pod ? "scheduling.k8s.io" : "kueue.x-k8s.io"},
                                    {"kind", pod ? "PriorityClass" : "WorkloadPriorityClass"},
                                    {"name", *name}};
  }
  spec.erase("priorityClassName");
  spec.erase("priorityClassSource");
}

void WorkloadDown(Json& spec) {
  auto ref = spec.find("priorityClassRef");
  if (ref == spec.end()) return;
  if (ref->is_object() && !spec.contains("priorityClassName")) {
    const bool pod = StringAt(*ref, {"kind"}) == "PriorityClass";
    spec["priorityClassName"] = StringAt(*ref, {"name"});
    spec["priorityClassSource"] = pod ? model::kPodPriorityClassSource : model::kWorkloadPriorityClassSource;
  }
  spec.erase("priorityClassRef");
}

void Up(std::string_view kind, std::string_view from, Json& spec) {
  if (from == "v1beta2") return;
  if (kind == "ClusterQueue") ClusterQueueUp(spec);
  if (kind == "Workload") WorkloadUp(spec);
  if (kind == "Cohort") Rename(spec, "parent", "parentName");
}

void Down(std::string_view kind, std::string_view to, Json& spec) {
  if (to == "v1beta2") return;
  if (kind == "ClusterQueue") ClusterQueueDown(spec);
  if (kind == "Workload") WorkloadDown(spec);
  if (kind == "Cohort" && to == "v1alpha1") Rename(spec, "parentName", "parent");
}

}  // namespace

void ConvertKueueVersion(std::string_view kind, std::string_view from, std::string_view to,
                         Json& object) {
  if (from == to) return;
  Json* spec = Spec(object);
  if (spec == nullptr) return;
  Up(kind, from, *spec);
  Down(kind, to, *spec);
}

}  // namespace berth::server
