// core/v1 PersistentVolumeClaim and PersistentVolume, for berth doctor's storage rules
// (ReadWriteOnce claims shared across nodes, WaitForFirstConsumer claims pinned elsewhere).
// Checked as kube-apiserver's ValidatePersistentVolumeClaimSpec and ValidatePersistentVolumeSpec
// check the fields read: access modes from the known set, at least one, ReadWriteOncePod alone;
// a positive storage request (claims) or capacity (volumes).
#include <string>
#include <string_view>
#include <vector>

#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {
namespace {

core::Status DecodeAccessModes(dom::object spec, std::vector<std::string>* modes) {
  BERTH_RETURN_IF_ERROR(GetStringList(spec, "accessModes", modes));
  if (modes->empty()) {
    return FieldError("accessModes", "Required value: at least 1 access mode is required");
  }
  for (size_t i = 0; i < modes->size(); ++i) {
    const std::string& mode = (*modes)[i];
    if (mode != "ReadWriteOnce" && mode != "ReadOnlyMany" && mode != "ReadWriteMany" &&
        mode != "ReadWriteOncePod") {
      return Unsupported("accessModes" + IndexField(i), mode,
                         {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"});
    }
    if (mode == "ReadWriteOncePod" && modes->size() > 1) {
      return FieldError("accessModes",
                        "Forbidden: may not use ReadWriteOncePod with other access modes");
    }
  }
  return core::OkStatus();
}

// spec.volumeMode: Filesystem (the default) or Block, as ValidatePersistentVolumeMode allows.
core::Status DecodeVolumeMode(dom::object spec, std::string* mode) {
  std::string value;
  BERTH_RETURN_IF_ERROR(GetString(spec, "volumeMode", &value));
  if (value.empty()) return core::OkStatus();
  if (value != "Filesystem" && value != "Block") {
    return Unsupported("volumeMode", value, {"Block", "Filesystem"});
  }
  *mode = std::move(value);
  return core::OkStatus();
}

// obj[key].storage, which must be there and above zero (`key`: "resources.requests" of a
// claim, "capacity" of a volume); the error names KEY[storage] as upstream's path does.
core::Status CheckStorageAmount(dom::object obj, std::string_view key, core::Quantity* out) {
  const std::string field = std::string(key) + "[storage]";
  dom::element storage;
  if (!Find(obj, "storage", &storage)) return FieldError(field, "Required value");
  auto q = ParseQuantityElement(storage);
  BERTH_IO_RETURN_IF_ERROR_AT(q, field);
  if (q->IsNegative() || q->IsZero()) {
    return InvalidValue(field, q->ToString(), "must be greater than zero");
  }
  *out = *q;
  return core::OkStatus();
}

}  // namespace

core::Result<model::PersistentVolumeClaim> DecodePersistentVolumeClaim(dom::object obj) {
  model::PersistentVolumeClaim claim;
  BERTH_ASSIGN_OR_RETURN(claim.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeAccessModes(spec, &claim.access_modes), "spec");
  // Only storage is checked: requests of other resources are the provisioner's business.
  dom::object resources;
  dom::object requests;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "resources", &resources), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(resources, "requests", &requests), "spec.resources");
  BERTH_RETURN_IF_ERROR(
      CheckStorageAmount(requests, "spec.resources.requests", &claim.storage_request));
  dom::object selector;
  bool has_selector = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "selector", &selector, &has_selector), "spec");
  if (has_selector) {
    auto decoded = DecodeLabelSelector(selector);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "spec.selector");
    claim.selector = std::move(*decoded);
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeVolumeMode(spec, &claim.volume_mode), "spec");
  std::string class_name;
  bool has_class = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "storageClassName", &class_name, &has_class), "spec");
  if (has_class) claim.storage_class_name = std::move(class_name);
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "volumeName", &claim.volume_name), "spec");
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status));
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(status, "phase", &claim.phase), "status");
  if (auto it = claim.meta.annotations.find("volume.kubernetes.io/selected-node");
      it != claim.meta.annotations.end()) {
    claim.selected_node = it->second;
  }
  return claim;
}

core::Result<model::PersistentVolume> DecodePersistentVolume(dom::object obj) {
  model::PersistentVolume volume;
  BERTH_ASSIGN_OR_RETURN(volume.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/false, /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeAccessModes(spec, &volume.access_modes), "spec");
  dom::object capacity;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "capacity", &capacity), "spec");
  BERTH_RETURN_IF_ERROR(CheckStorageAmount(capacity, "spec.capacity", &volume.capacity));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeVolumeMode(spec, &volume.volume_mode), "spec");
  dom::object csi;
  bool has_csi = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "csi", &csi, &has_csi), "spec");
  if (has_csi) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(csi, "driver", &volume.csi_driver), "spec.csi");
    if (volume.csi_driver.empty()) return FieldError("spec.csi.driver", "Required value");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(csi, "volumeHandle", &volume.csi_volume_handle),
                                "spec.csi");
  }
  dom::object pv_status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &pv_status));
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(pv_status, "phase", &volume.phase), "status");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "storageClassName", &volume.storage_class_name),
                              "spec");
  dom::object claim_ref;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "claimRef", &claim_ref), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(claim_ref, "namespace", &volume.claim_namespace),
                              "spec.claimRef");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(claim_ref, "name", &volume.claim_name), "spec.claimRef");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(claim_ref, "uid", &volume.claim_uid), "spec.claimRef");
  dom::object affinity;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "nodeAffinity", &affinity), "spec");
  dom::object required;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(affinity, "required", &required, &found),
                              "spec.nodeAffinity");
  if (found) {
    auto selector = DecodeNodeSelector(required);
    BERTH_IO_RETURN_IF_ERROR_AT(selector, "spec.nodeAffinity.required");
    volume.node_affinity = std::move(*selector);
  }
  return volume;
}

}  // namespace berth::io::internal
