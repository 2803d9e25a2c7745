// cluster.open-cluster-management.io: ManagedCluster (v1), ClusterClaim and
// AddOnPlacementScore (v1alpha1), ManagedClusterSet and ManagedClusterSetBinding (v1beta2).
// Validation follows the CRDs (api:cluster/*/types*.go): an object the hub would have
// refused is reported with the field that breaks the rule.
#include <map>
#include <string>
#include <utility>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

core::Result<model::ClusterTaintEffect> ParseClusterTaintEffect(const std::string& text,
                                                                const std::string& field) {
  if (text == "NoSelect") return model::ClusterTaintEffect::kNoSelect;
  if (text == "PreferNoSelect") return model::ClusterTaintEffect::kPreferNoSelect;
  if (text == "NoSelectIfNew") return model::ClusterTaintEffect::kNoSelectIfNew;
  return Unsupported(field, text, {"NoSelect", "PreferNoSelect", "NoSelectIfNew"});
}

core::Result<core::Timestamp> GetTime(dom::object obj, std::string_view key, bool* found) {
  std::string text;
  BERTH_RETURN_IF_ERROR(GetString(obj, key, &text, found));
  if (!*found) return core::Timestamp{};
  auto t = core::Timestamp::Parse(text);
  if (!t.has_value()) return FieldError(std::string(key), t.error().message());
  return *t;
}

core::Result<model::ClusterTaint> DecodeClusterTaint(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::ClusterTaint taint;
  BERTH_RETURN_IF_ERROR(GetString(obj, "key", &taint.key));
  if (taint.key.empty()) return FieldError("key", "Required value");
  BERTH_RETURN_IF_ERROR(GetString(obj, "value", &taint.value));
  std::string effect;
  BERTH_RETURN_IF_ERROR(GetString(obj, "effect", &effect));
  if (effect.empty()) return FieldError("effect", "Required value");
  BERTH_ASSIGN_OR_RETURN(taint.effect, ParseClusterTaintEffect(effect, "effect"));
  bool found = false;
  BERTH_ASSIGN_OR_RETURN(core::Timestamp t, GetTime(obj, "timeAdded", &found));
  if (found) taint.time_added = t;
  return taint;
}

core::Result<model::NamedValue> DecodeNamedValue(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::NamedValue nv;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &nv.name));
  BERTH_RETURN_IF_ERROR(GetString(obj, "value", &nv.value));
  return nv;
}

core::Status DecodeResourceList(dom::object status, std::string_view key,
                                std::map<std::string, core::Quantity>* out) {
  dom::object list;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(status, key, &list, &found));
  if (!found) return core::OkStatus();
  for (auto [name, value] : list) {
    auto q = ParseQuantityElement(value);
    BERTH_IO_RETURN_IF_ERROR_AT(q, KeyField(key, name));
    (*out)[std::string(name)] = *q;
  }
  return core::OkStatus();
}

}  // namespace

core::Result<model::ManagedCluster> DecodeManagedCluster(dom::object obj) {
  model::ManagedCluster mc;
  BERTH_ASSIGN_OR_RETURN(mc.meta, DecodeObjectMeta(obj, false, true));
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "metadata", &part, &found));
  if (found) {
    auto t = GetTime(part, "deletionTimestamp", &found);
    BERTH_IO_RETURN_IF_ERROR_AT(t, "metadata");
    if (found) mc.deletion_timestamp = *t;
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(part, "hubAcceptsClient", &mc.hub_accepts_client), "spec");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(part, "taints", DecodeClusterTaint, &mc.taints), "spec");
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(part, "clusterClaims", DecodeNamedValue, &mc.cluster_claims), "status");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceList(part, "capacity", &mc.capacity), "status");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceList(part, "allocatable", &mc.allocatable), "status");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(part, "conditions", DecodeMetaCondition, &mc.conditions),
                                "status");
    dom::object version;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(part, "version", &version, &found), "status");
    if (found) {
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(version, "kubernetes", &mc.kubernetes_version),
                                  "status.version");
    }
  }
  return mc;
}

core::Result<model::ClusterClaim> DecodeClusterClaim(dom::object obj) {
  model::ClusterClaim claim;
  BERTH_ASSIGN_OR_RETURN(claim.meta, DecodeObjectMeta(obj, false, true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "value", &claim.value), "spec");
  // The CRD bounds spec.value to 1..1024 characters.
  if (claim.value.empty()) return FieldError("spec.value", "Required value");
  if (claim.value.size() > 1024) {
    return FieldError("spec.value", "Too long: may not be more than 1024 bytes");
  }
  return claim;
}

core::Result<model::ManagedClusterSet> DecodeManagedClusterSet(dom::object obj) {
  model::ManagedClusterSet set;
  BERTH_ASSIGN_OR_RETURN(set.meta, DecodeObjectMeta(obj, false, true));
  dom::object spec;
  dom::object selector;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return set;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "clusterSelector", &selector, &found), "spec");
  if (!found) return set;
  std::string type;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(selector, "selectorType", &type), "spec.clusterSelector");
  if (type.empty() || type == "ExclusiveClusterSetLabel") {
    set.selector_type = model::ClusterSetSelectorType::kExclusiveClusterSetLabel;
  } else if (type == "LabelSelector") {
    set.selector_type = model::ClusterSetSelectorType::kLabelSelector;
    dom::object ls;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(selector, "labelSelector", &ls, &found),
                                "spec.clusterSelector");
    if (found) {
      auto decoded = DecodeLabelSelector(ls);
      BERTH_IO_RETURN_IF_ERROR_AT(decoded, "spec.clusterSelector.labelSelector");
      set.label_selector = std::move(*decoded);
    }
  } else {
    return Unsupported("spec.clusterSelector.selectorType", type,
                       {"ExclusiveClusterSetLabel", "LabelSelector"});
  }
  return set;
}

core::Result<model::ManagedClusterSetBinding> DecodeManagedClusterSetBinding(dom::object obj) {
  model::ManagedClusterSetBinding binding;
  BERTH_ASSIGN_OR_RETURN(binding.meta, DecodeObjectMeta(obj, true, true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found)
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "clusterSet", &binding.cluster_set), "spec");
  if (binding.cluster_set.empty()) return FieldError("spec.clusterSet", "Required value");
  // The hub's webhook requires the binding to be named after its set.
  if (binding.cluster_set != binding.meta.name) {
    return FieldError("spec.clusterSet",
                      "must match the binding's name " + core::Quote(binding.meta.name));
  }
  return binding;
}

core::Result<model::AddOnPlacementScore> DecodeAddOnPlacementScore(dom::object obj) {
  model::AddOnPlacementScore score;
  BERTH_ASSIGN_OR_RETURN(score.meta, DecodeObjectMeta(obj, true, true));
  dom::object status;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (!found) return score;
  auto decode = [](dom::element e) -> core::Result<model::AddOnScore> {
    BERTH_ASSIGN_OR_RETURN(dom::object item, AsObject(e));
    model::AddOnScore s;
    BERTH_RETURN_IF_ERROR(GetString(item, "name", &s.name));
    if (s.name.empty()) return FieldError("name", "Required value");
    BERTH_RETURN_IF_ERROR(GetInt32(item, "value", &s.value));
    if (s.value < -100 || s.value > 100) {
      return FieldError("value", "must be between -100 and 100");
    }
    return s;
  };
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(status, "scores", decode, &score.scores), "status");
  auto t = GetTime(status, "validUntil", &found);
  BERTH_IO_RETURN_IF_ERROR_AT(t, "status");
  if (found) score.valid_until = *t;
  return score;
}

}  // namespace berth::io::internal
