// ResourceClaims as the plan prints them: the document as read with kube-scheduler's
// DynamicResources decisions patched in (status.allocation, status.reservedFor). Called by
// the claim row's status writer (status_writer.h). Internal to io; stateless; linear in the
// document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "io/document_store.h"
#include "io/internal/created_json.h"
#include "model/resource_claim.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// The planned snapshot's pods by ObjectKey, for the uids of reservedFor entries.
using PodsByKey = std::unordered_map<std::string, const model::Pod*>;
PodsByKey IndexPods(const model::Snapshot& planned);

// The claim's document (a minimal resource.k8s.io/v1 ResourceClaim without one) with
// status.allocation written when the document has none and the planned claim has one
// (devices.results[] with request, driver, pool, device, adminAccess, tolerations, shareID,
// consumedCapacity when set; devices.config[]; nodeSelector), in the Go structs' field
// order, and status.reservedFor extended with {resource: pods, name, uid} for each planned
// consumer the document does not list (uid from `pods`). Every other field as read.
nlohmann::ordered_json PatchedClaim(const model::ResourceClaim& claim, const PodsByKey& pods,
                                    const DocumentStore& documents);

}  // namespace berth::io::internal
