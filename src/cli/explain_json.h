// `berth explain ... -o json`: the engine's explanations of a pod, a Kueue Workload and an
// OCM Placement as JSON, with fixed key order and two-space indentation (io/json_writer.h).
// The shapes are documented in docs/cli.md ("explain -o json"); keys are only ever added.
// Called by explain_command; deterministic; stateless.
#pragma once

#include <ostream>

#include "engine/explain_placement.h"
#include "engine/explain_workload.h"
#include "engine/plan.h"
#include "model/snapshot.h"

namespace berth::cli {

// {"kind": "Pod", "namespace", "name", "cluster", "queuePosition", "queueLength",
//  "status": "Bound"|"Pending", "node" (null when pending), "message",
//  "nodes": [{"name", "feasible", "failed": [{"plugin", "reason", "detail"}],
//             "score", "scores": [{"plugin", "raw", "normalized", "weight"}]}]}
void PrintPodExplanationJson(const model::Snapshot& snapshot, const engine::Explanation& e,
                             std::ostream& out);

// {"kind": "Workload", "namespace", "name", "cluster", "queue", "outcome", "reason",
//  "message", "cycle", "clusterQueue": null | {"name", "active", "pending", "reserving",
//  "admitted", "usage": [{"flavor", "resource", "total", "borrowed"}]},
//  "attempts": [{"podSet", "flavor", "mode", "reason", "resources": [{"resource",
//  "requested", "nominal", "used", "available", "borrowingLimit" (null: none), "verdict"}]}],
//  "victims": ["NS/NAME"], "preemptedBy": null | "NS/NAME",
//  "pods": [{"name": "NS/NAME", "node" (null when pending), "message"}]}
// Amounts are strings in the resource's unit ("500m", "16Gi").
void PrintWorkloadExplanationJson(const engine::WorkloadExplanation& e, std::ostream& out);

// {"kind": "Placement", "namespace", "name", "skipped", "numberOfSelectedClusters",
//  "selected": [cluster], "decisions": [PlacementDecision name], "warnings": [text],
//  "clusters": [{"name", "feasible", "selected", "total",
//                "rejection": null | {"plugin", "reason", "message"},
//                "spreadSkipped": null | {"plugin", "reason", "message"},
//                "scores": [{"prioritizer", "score", "weight"}]}]}
void PrintPlacementExplanationJson(const engine::PlacementExplanation& e, std::ostream& out);

}  // namespace berth::cli
