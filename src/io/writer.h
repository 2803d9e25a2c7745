// Writer: prints a `v1` List of objects in upstream schema, with berth's decisions patched
// into the documents as they were read: for Pods spec.nodeName and the PodScheduled
// condition in status.conditions; for ResourceClaims status.allocation and
// status.reservedFor; for Kueue Workloads status.admission, conditions, admissionChecks,
// nominatedClusterNames and clusterName (created Workloads print whole); for OCM Placements
// their status, for PlacementDecisions status.decisions (created ones whole); the
// ManifestWorks the engine planned, whole; ManifestWorkReplicaSets' status and rollback
// annotation, and their ControllerRevisions (replica_set_json.h). Called by the CLI once per
// plan; stateless.
// Output is deterministic (same input, same bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "io/document_store.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::io {

// kName: one `TYPE/NAMESPACE/NAME` line per object of the List (kubectl -o name, with the
// namespace, so each line is a target berth's commands take back): TYPE is the lower-case
// kind, `.GROUP` outside the core group (`pod`, `workload.kueue.x-k8s.io`); `TYPE/NAME` for
// cluster-scoped objects.
enum class OutputFormat { kYaml, kJson, kTable, kName };

// How kTable prints: `wide` adds columns (-o wide), `no_headers` drops every table's header
// row and the DELETED title (--no-headers). Ignored by the other formats.
struct TableOptions {
  bool wide = false;
  bool no_headers = false;
};

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

// What a plan prints, in this order: pods (decisions, may be null for none), claims, Kueue
// Workloads, Placements, PlacementDecisions, ManifestWorks and FederatedLearnings (indices
// into the planned snapshot's vectors of those kinds). Deletions are not objects of the
// List: only kTable lists them.
struct PlanItems {
  const std::vector<model::PodDecision>* pods = nullptr;
  std::vector<int32_t> claims;
  std::vector<int32_t> workloads;
  std::vector<int32_t> placements;               // indices into planned.placements with status set
  std::vector<int32_t> placement_decisions;      // indices into planned.placement_decisions
  std::vector<int32_t> manifest_works;           // indices into planned.manifest_works
  // Indices into planned.federated_learnings, printed after the ManifestWorks; nullopt (a
  // caller that does not list them): every FederatedLearning the plan decided (status set),
  // in snapshot order.
  std::optional<std::vector<int32_t>> federated_learnings;
  // Indices into planned.manifest_work_replica_sets and planned.controller_revisions,
  // printed after the ManifestWorks; nullopt: every ManifestWorkReplicaSet the plan stepped
  // (`stepped`) and every ControllerRevision it created or changed, in snapshot order.
  std::optional<std::vector<int32_t>> replica_sets;
  std::optional<std::vector<int32_t>> controller_revisions;
  // Indices into planned.persistent_volume_claims and planned.persistent_volumes, printed
  // where the table of kinds has them; nullopt: every claim and volume a bind of the plan
  // bound or left to a provisioner (model::PersistentVolumeClaim::planned), in snapshot order.
  std::optional<std::vector<int32_t>> volume_claims;
  std::optional<std::vector<int32_t>> volumes;
  std::vector<model::PodDeletion> deleted_pods;  // listed by kTable only
  std::vector<model::ObjectDeletion> deleted_objects;  // listed by kTable only
  // With `berth plan --cycles N`: the cycle that decided each of `workloads` (same order; 0
  // before the first, -1 never considered); kTable adds a CYCLE column. Empty: no column.
  std::vector<int32_t> workload_cycles;
};

// `items` with its optional lists filled in as WritePlan fills them (federated_learnings,
// replica_sets, controller_revisions: the plan's decided ones), so a caller can narrow
// every list (cli's -n/-l filter) and print exactly what WritePlan would have. O(objects).
PlanItems WithPrintedLists(const model::Snapshot& planned, const PlanItems& items);

// WritePlanList's pods and claims, followed by the Workloads `items.workloads` in that
// order: a given Workload's document with status.admission (clusterQueue,
// podSetAssignments[] with name, flavors, resourceUsage as canonical quantities, count,
// topologyAssignment: `domains` in a v1beta1 document, `slices` in v1beta2), the planned
// conditions (replaced by type in place, else appended), status.admissionChecks, and
// status.clusterName and status.nominatedClusterNames as planned (set, or removed when the
// plan has none; a clusterName removes the nominations, which Kueue's CRD keeps mutually
// exclusive) patched in, everything else as read; a created Workload
// (model::Workload::created) as the kueue.x-k8s.io/v1beta2 document io made for its job
// (owner reference, spec.queueName, priority, priorityClassRef, podSets with the job's
// templates as read) with the same status. Then the Placements (status patched,
// internal/placement_json.h), the PlacementDecisions (status.decisions patched, or created
// ones whole with an ownerReference to their Placement) and the ManifestWorks (given ones as
// read, planned ones whole with their manifests rendered from the documents of the objects
// they deliver, internal/manifest_work_json.h), the ManifestWorkReplicaSets (status and
// rollback annotation patched) and ControllerRevisions (created whole, or revision and
// berth's annotations patched, internal/replica_set_json.h), then the FederatedLearnings
// (status patched, internal/federated_learning_json.h). kTable adds the WORKLOADS,
// PLACEMENTS, MANIFESTWORKS, MANIFESTWORKREPLICASETS, FEDERATED LEARNING and DELETED
// sections (table_writer.h).
void WritePlan(const model::Snapshot& planned, const PlanItems& items,
               const DocumentStore& documents, OutputFormat format, std::ostream& out,
               const TableOptions& table = {});

}  // namespace berth::io
