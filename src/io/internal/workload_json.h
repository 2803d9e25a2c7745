// A Kueue Workload as the plan prints it: its document as read (or as io created it for a
// job) with berth's decisions patched into status: admission, conditions, admissionChecks,
// clusterName and nominatedClusterNames. Called by writer.cc. Internal to io; stateless.
#pragma once

#include <nlohmann/json.hpp>

#include "io/document_store.h"
#include "model/kueue.h"

namespace berth::io::internal {

// The planned Workload `wl` patched into its document:
// - status.admission: kept as read when the document already holds an admission to the same
//   ClusterQueue (Kueue never rewrites an admission in place); else written from the plan
//   (clusterQueue, podSetAssignments[] with name, flavors, resourceUsage as canonical
//   quantities, count, topologyAssignment as v1beta1 `domains` or v1beta2 `slices` after the
//   document's apiVersion); removed when the plan has none.
// - status.conditions: each planned condition replaces the one of its type in place, or is
//   appended (type, status, lastTransitionTime, reason, message).
// - status.admissionChecks: the planned list, when it is not empty.
// - status.clusterName and status.nominatedClusterNames (MultiKueue): as planned, removed
//   when the plan has none; a clusterName removes the nominations (mutually exclusive in
//   Kueue's CRD).
// Every other field comes back as read. A Workload without a document gets a minimal one.
nlohmann::ordered_json PatchedWorkload(const model::Workload& wl, const DocumentStore& documents);

// The canonical quantity string of `amount` ResourceVector units of `resource` ("500m",
// "16Gi", "2").
std::string QuantityString(const std::string& resource, int64_t amount);

}  // namespace berth::io::internal
