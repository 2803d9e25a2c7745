// kueue.x-k8s.io v1beta1 and v1beta2: MultiKueueConfig and MultiKueueCluster. Validation
// follows the CRDs (apis/kueue/v1beta{1,2}/multikueue_types.go and the generated
// config/components/crd/bases/kueue.x-k8s.io_multikueue{configs,clusters}.yaml), since the
// API server would have refused an object that breaks them: spec.clusters holds 1..20
// unique names; a v1beta1 cluster names its kubeconfig in spec.kubeConfig, a v1beta2 one
// in spec.clusterSource, which holds exactly one of kubeConfig and clusterProfileRef.
#include <set>
#include <string>
#include <utility>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

constexpr size_t kMaxConfigClusters = 20;  // MaxItems of spec.clusters
constexpr size_t kMaxNameLength = 256;     // MaxLength of names and locations (v1beta2)
constexpr size_t kMaxConditions = 16;      // MaxItems of status.conditions (v1beta2)

// A string the CRD bounds to 1..256 characters (v1beta2 names and locations).
core::Status CheckBoundedName(const std::string& value, const std::string& field) {
  if (value.empty()) return FieldError(field, "should be at least 1 chars long");
  if (value.size() > kMaxNameLength) {
    return FieldError(field, "Too long: may not be more than 256 bytes");
  }
  return core::OkStatus();
}

core::Status DecodeKubeConfig(dom::object kc, KueueVersion version, model::MultiKueueCluster* out) {
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(kc, "location", &out->kubeconfig_location, &found));
  if (!found) return FieldError("location", "Required value");
  if (version == KueueVersion::kV1beta2) {
    BERTH_RETURN_IF_ERROR(CheckBoundedName(out->kubeconfig_location, "location"));
  }
  std::string type;
  BERTH_RETURN_IF_ERROR(GetString(kc, "locationType", &type));
  // The CRD defaults an absent locationType to Secret.
  if (type.empty()) type = "Secret";
  if (type != "Secret" && type != "Path") {
    return Unsupported("locationType", type, "\"Secret\", \"Path\"");
  }
  out->kubeconfig_location_type = std::move(type);
  return core::OkStatus();
}

core::Status DecodeProfileRef(dom::object ref, std::string* name) {
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(ref, "name", name, &found));
  if (!found) return FieldError("name", "Required value");
  return CheckBoundedName(*name, "name");
}

// v1beta2: spec.clusterSource, exactly one of kubeConfig and clusterProfileRef.
core::Status DecodeClusterSource(dom::object source, model::MultiKueueCluster* out) {
  dom::object kc;
  dom::object ref;
  bool has_kc = false;
  bool has_ref = false;
  BERTH_RETURN_IF_ERROR(GetObject(source, "kubeConfig", &kc, &has_kc));
  BERTH_RETURN_IF_ERROR(GetObject(source, "clusterProfileRef", &ref, &has_ref));
  if (has_kc == has_ref) {
    return FieldError("",
                      "exactly one of the fields in [kubeConfig clusterProfileRef] must be set");
  }
  if (has_kc) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeKubeConfig(kc, KueueVersion::kV1beta2, out), "kubeConfig");
  } else {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeProfileRef(ref, &out->cluster_profile), "clusterProfileRef");
  }
  return core::OkStatus();
}

// v1beta1: spec.kubeConfig is required. clusterProfileRef exists there only so a v1beta2
// object survives conversion ("it has no effect in v1beta1"), so it is validated, not kept.
core::Status DecodeV1beta1Spec(dom::object spec, model::MultiKueueCluster* out) {
  dom::object kc;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "kubeConfig", &kc, &found));
  if (!found) return FieldError("kubeConfig", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeKubeConfig(kc, KueueVersion::kV1beta1, out), "kubeConfig");
  dom::object ref;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "clusterProfileRef", &ref, &found));
  if (found) {
    std::string ignored;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeProfileRef(ref, &ignored), "clusterProfileRef");
  }
  return core::OkStatus();
}

}  // namespace

core::Result<model::MultiKueueConfig> DecodeMultiKueueConfig(dom::object obj,
                                                             KueueVersion version) {
  model::MultiKueueConfig config;
  BERTH_ASSIGN_OR_RETURN(config.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                       /*name_required=*/true));
  dom::object spec;
  dom::array clusters;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "clusters", &clusters, &found), "spec");
  }
  if (!found) return FieldError("spec.clusters", "Required value");
  if (clusters.size() == 0) return FieldError("spec.clusters", "should have at least 1 items");
  if (clusters.size() > kMaxConfigClusters) {
    return FieldError("spec.clusters", "must have at most 20 items");
  }
  std::set<std::string> seen;
  size_t i = 0;
  for (dom::element item : clusters) {
    std::string field = "spec.clusters" + IndexField(i++);
    std::string_view name;
    if (item.get_string().get(name) != simdjson::SUCCESS) {
      return FieldError(field, "must be a string");
    }
    // A MultiKueueCluster cannot be named "", so an empty entry names no cluster.
    if (name.empty()) return FieldError(field, "Required value");
    if (version == KueueVersion::kV1beta2 && name.size() > kMaxNameLength) {
      return FieldError(field, "Too long: may not be more than 256 bytes");
    }
    if (!seen.emplace(name).second) {
      return FieldError(field, "Duplicate value: " + core::Quote(name));
    }
    config.clusters.emplace_back(name);
  }
  if (version == KueueVersion::kV1beta2) {
    // Validated, not kept: berth plans the workloads, not the manager's quotas.
    std::string mode;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "quotaManagement", &mode), "spec");
    if (!mode.empty() && mode != "Manual" && mode != "Automated") {
      return Unsupported("spec.quotaManagement", mode, "\"Manual\", \"Automated\"");
    }
  }
  return config;
}

core::Result<model::MultiKueueCluster> DecodeMultiKueueCluster(dom::object obj,
                                                               KueueVersion version) {
  model::MultiKueueCluster cluster;
  BERTH_ASSIGN_OR_RETURN(cluster.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                        /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (version == KueueVersion::kV1beta2) {
    dom::object source;
    if (found) {
      BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "clusterSource", &source, &found), "spec");
    }
    if (!found) return FieldError("spec.clusterSource", "Required value");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeClusterSource(source, &cluster), "spec.clusterSource");
  } else {
    if (!found) return FieldError("spec.kubeConfig", "Required value");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeV1beta1Spec(spec, &cluster), "spec");
  }
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) {
    std::vector<model::Condition> conditions;
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(status, "conditions", DecodeMetaCondition, &conditions,
                   version == KueueVersion::kV1beta2 ? kMaxConditions : SIZE_MAX),
        "status");
    for (model::Condition& c : conditions) {
      if (c.type == "Active") cluster.active = std::move(c);
    }
  }
  return cluster;
}

}  // namespace berth::io::internal
