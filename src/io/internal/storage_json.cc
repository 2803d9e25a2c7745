// The scheduler's PreBind writes the volume's claimRef (static binding) or the claim's
// selected-node annotation (dynamic provisioning); the PV controller then completes a
// static binding (the claim's volumeName, bind-completed annotation and phase). The plan
// prints the state after both, as `berth plan` prints pods after the kubelet-free bind.
#include "io/internal/storage_json.h"

#include <string>

#include "io/internal/json_patch.h"

namespace berth::io::internal {
namespace {

using OrderedJson = nlohmann::ordered_json;

void SetStorageAnnotation(OrderedJson& doc, const char* key, const std::string& value) {
  OrderedJson& annotations = ObjectMember(ObjectMember(doc, "metadata"), "annotations");
  annotations[key] = value;
}

}  // namespace

OrderedJson PatchedVolumeClaim(const model::PersistentVolumeClaim& claim,
                               const DocumentStore& documents) {
  OrderedJson doc =
      DocumentOrMinimal(documents, claim.source, "v1", "PersistentVolumeClaim", claim.meta);
  if (!claim.volume_name.empty()) {
    ObjectMember(doc, "spec")["volumeName"] = claim.volume_name;
    SetStorageAnnotation(doc, "pv.kubernetes.io/bind-completed", "yes");
    ObjectMember(doc, "status")["phase"] = "Bound";
  } else if (!claim.selected_node.empty()) {
    SetStorageAnnotation(doc, "volume.kubernetes.io/selected-node", claim.selected_node);
  }
  return doc;
}

OrderedJson PatchedVolume(const model::PersistentVolume& volume, const DocumentStore& documents) {
  OrderedJson doc =
      DocumentOrMinimal(documents, volume.source, "v1", "PersistentVolume", volume.meta);
  if (!volume.claim_name.empty()) {
    OrderedJson ref = OrderedJson::object();
    ref["apiVersion"] = "v1";
    ref["kind"] = "PersistentVolumeClaim";
    ref["namespace"] = volume.claim_namespace.empty() ? "default" : volume.claim_namespace;
    ref["name"] = volume.claim_name;
    if (!volume.claim_uid.empty()) ref["uid"] = volume.claim_uid;
    ObjectMember(doc, "spec")["claimRef"] = std::move(ref);
    ObjectMember(doc, "status")["phase"] = "Bound";
  }
  return doc;
}

}  // namespace berth::io::internal
