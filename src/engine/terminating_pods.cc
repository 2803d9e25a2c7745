#include "engine/terminating_pods.h"

#include <utility>

namespace berth::engine {

model::PodDecision MarkTerminating(const model::Snapshot& input, model::Snapshot& planned,
                                   model::PodIndex pod,
                                   core::Timestamp now, const std::string& eviction_message,
                                   std::string reason) {
  model::Pod& p = planned.pods[static_cast<size_t>(pod.v)];
  p.deletion_timestamp = now;
  // Kueue's pod integration (jobs/pod Stop) applies TerminationTarget=True, reason
  // WorkloadEvicted, with the eviction's message, then deletes the pod: the pods its webhook
  // labels kueue.x-k8s.io/managed=true. A Job's (or any other controller's) pods are deleted
  // by their controller once Kueue suspends it, with no condition: only the deletion
  // timestamp shows.
  auto managed = p.meta.labels.find("kueue.x-k8s.io/managed");
  if (managed != p.meta.labels.end() && managed->second == "true") {
    model::PodCondition condition{"TerminationTarget", "True", "WorkloadEvicted", eviction_message};
    bool replaced = false;
    for (model::PodCondition& c : p.conditions) {
      if (c.type == condition.type) {
        c = condition;
        replaced = true;
      }
    }
    if (!replaced) p.conditions.push_back(std::move(condition));
  }
  model::PodDecision decision;
  decision.pod = pod;
  // The node from the input: a fleet's planned snapshot gets its nodes only at the end.
  for (size_t i = 0; i < input.nodes.size(); ++i) {
    const model::Node& node = input.nodes[i];
    if (node.meta.name == p.node_name && node.cluster == p.cluster) {
      decision.node = model::NodeIndex{static_cast<int32_t>(i)};
      break;
    }
  }
  decision.message = std::move(reason);
  return decision;
}

}  // namespace berth::engine
