// OCM Placements and PlacementDecisions as the plan prints them: the document as read with
// the placement controller's decisions patched in, or a whole PlacementDecision for one the
// engine created. Called by writer.cc. Internal to io; stateless; linear in the document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "io/document_store.h"
#include "model/ocm.h"

namespace berth::io::internal {

// The Placement's document with status written from `placement.status` (left as read when
// the status is nullopt): numberOfSelectedClusters, decisionGroups[] (decisionGroupIndex,
// decisionGroupName, decisions, clusterCount) and conditions patched by type as
// meta.SetStatusCondition does (json_patch.h), in PlacementStatus's field order, followed by
// the status fields berth does not own as read. Every field outside status comes back as
// read. A Placement without a document gets a minimal v1beta1 one.
nlohmann::ordered_json PatchedPlacement(const model::Placement& placement,
                                        const DocumentStore& documents);

// A PlacementDecision. A given one (created false, with a document): its document with each
// meta.labels entry set in metadata.labels and status.decisions replaced by the planned
// decisions ({clusterName, reason}); everything else as read. A created one: a whole
// cluster.open-cluster-management.io/v1beta1 object with metadata name, namespace, labels
// (meta.labels, plus the placement label from `pd.placement` when missing), annotations
// when any, an ownerReference to the Placement (controller and blockOwnerDeletion true; its
// uid `placement_uid` when not empty), and status.decisions.
nlohmann::ordered_json PatchedPlacementDecision(const model::PlacementDecision& pd,
                                                const std::string& placement_uid,
                                                const DocumentStore& documents);

}  // namespace berth::io::internal
