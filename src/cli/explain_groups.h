// ExplainGroups: the nodes of a pod's explanation grouped for people, so that a pod facing
// 500 nodes reads as a handful of lines: by verdict (feasible, or the first failing filter
// and its reason: the reason kube-scheduler counts), and within a verdict by node class
// (engine::NodeAtTurn::node_class: same allocatable, labels and taints). Called by
// explain_printer.cc; pure; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/plan.h"
#include "model/snapshot.h"

namespace berth::cli {

struct NodeGroup {
  bool feasible = false;
  std::string plugin;  // the first failing filter; empty when feasible
  std::string reason;  // its reason; empty when feasible
  // The node class; -1 when the explanation has none (each node is then its own group).
  int32_t node_class = -1;
  // Indices into explanation.pod.nodes (and explanation.nodes), in node name order.
  std::vector<size_t> members;
};

// Groups by (verdict, class). Groups come in the order of their first member's name; when
// explanation.nodes is empty (no numbers), every node of one verdict is one group.
// O(nodes log nodes).
std::vector<NodeGroup> GroupNodesByClass(const model::Snapshot& snapshot,
                                         const engine::Explanation& explanation);

// The same nodes grouped by verdict alone, most nodes first, then by verdict text.
std::vector<NodeGroup> GroupNodesByVerdict(const model::Snapshot& snapshot,
                                           const engine::Explanation& explanation);

// Names as "a, b, c, +4 more" (the first `shown`).
std::string NameSample(const std::vector<std::string>& names, size_t shown = 3);

// "4" when every value is the same, else "min..max" (the group's nodes differ), each
// printed by `format`.
std::string RangeText(int64_t min, int64_t max, const std::string& min_text,
                      const std::string& max_text);

}  // namespace berth::cli
