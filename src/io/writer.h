// Writer: prints a `v1` List of objects in upstream schema, with berth's decisions patched
// into the documents as they were read: for Pods spec.nodeName and the PodScheduled
// condition in status.conditions; for ResourceClaims status.allocation and
// status.reservedFor. Output is deterministic (same input, same bytes).
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "io/document_store.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::io {

enum class OutputFormat { kYaml, kJson, kTable };

// Writes the pods named by `decisions` (in that order), taking their decided state from
// `planned` (node_name and conditions as the engine wrote them): spec.nodeName when bound
// (pod.node_name, else decision.node), and the PodScheduled condition replaced in place or
// appended (the planned pod's, else True / False+Unschedulable with decision.message; a
// skipped pod's document is left as read). kJson prints with 2-space indentation as kubectl
// does, kYaml in kubectl's block style, kTable as table_writer.h describes. A pod without a
// document is written as a minimal v1 Pod. Linear in the size of the documents written.
void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const DocumentStore& documents, OutputFormat format, std::ostream& out);

// The same, followed by the ResourceClaims `claims` (indices into planned.resource_claims,
// written in that order) after the pods, as kube-scheduler's DynamicResources plugin leaves
// them: status.allocation (devices.results[] with request, driver, pool, device, and
// adminAccess, tolerations, shareID, consumedCapacity when set; devices.config[]; the
// nodeSelector) written when the document has none and the planned claim has one, and
// status.reservedFor extended with {resource: pods, name, uid} for each planned consumer the
// document does not list. Every other field comes back as read. kTable adds a claims table
// (table_writer.h). A claim without a document is written as a minimal ResourceClaim.
void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const std::vector<int32_t>& claims, const DocumentStore& documents,
                   OutputFormat format, std::ostream& out);

}  // namespace berth::io
