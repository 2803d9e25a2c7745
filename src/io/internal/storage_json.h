// PersistentVolumeClaims and PersistentVolumes as the plan prints them: the document as
// read with what VolumeBinding's PreBind and the PV controller write after a bind patched
// in. Called by the claim and volume rows' status writers (status_writer.h). Internal to
// io; stateless; linear in the document.
#pragma once

#include <nlohmann/json.hpp>

#include "io/document_store.h"
#include "model/storage.h"

namespace berth::io::internal {

// The claim's document (a minimal v1 PersistentVolumeClaim without one) with, when the plan
// bound it to a volume, spec.volumeName, the annotation pv.kubernetes.io/bind-completed and
// status.phase Bound; when the plan left it to its provisioner, the annotation
// volume.kubernetes.io/selected-node naming the node. Every other field as read.
nlohmann::ordered_json PatchedVolumeClaim(const model::PersistentVolumeClaim& claim,
                                          const DocumentStore& documents);

// The volume's document (a minimal v1 PersistentVolume without one) with spec.claimRef
// naming the claim the plan bound it to (apiVersion, kind, namespace, name, uid when known)
// and status.phase Bound. Every other field as read.
nlohmann::ordered_json PatchedVolume(const model::PersistentVolume& volume,
                                     const DocumentStore& documents);

}  // namespace berth::io::internal
