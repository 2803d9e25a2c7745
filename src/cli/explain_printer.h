// ExplainPrinter: the text `berth explain` and `berth demo` print for one pod: what it asks
// for, where it stands in the queue, each node's filter verdicts and score breakdown, and
// the decision. Aligned plain text for people; scripts read `plan -o json` instead. Pure
// function of its inputs; thread-compatible.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "engine/plan.h"
#include "model/resources.h"
#include "model/snapshot.h"

namespace berth::cli {

enum class ExplainDetail {
  kFull,     // every node: every filter's verdict, every score plugin's contribution
  // `berth explain`: nodes grouped by verdict (count, examples), then by node class under each
  // verdict with requested, allocatable and free per resource and the pods holding the GPUs
  // of nodes that lack them (explain_groups.h; the numbers are engine::Explanation::nodes)
  kGrouped,
  kSummary,  // the rejections grouped by reason, the best-scored nodes, the decision
};

// `snapshot` is the one the explanation's indices refer to (what ExplainPod was given).
void PrintExplanation(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                      ExplainDetail detail, std::ostream& out);

// `berth explain --node NAME`: the pod's header, every filter's verdict and score on that
// node, and the decision. False (nothing printed) when no node of the pod's cluster has that
// name.
bool PrintNodeExplanation(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                          std::string_view node_name, std::ostream& out);

// "cpu 500m, memory 16Gi, nvidia.com/gpu 1": non-zero amounts in catalog order, cpu in
// cores and memory-like resources in binary units, as kubectl prints them; "none" when empty.
std::string FormatResources(const model::ResourceCatalog& catalog,
                            const model::ResourceVector& amounts);

}  // namespace berth::cli
