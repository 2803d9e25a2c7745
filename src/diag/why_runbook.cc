#include "diag/why_runbook.h"

#include <algorithm>

namespace berth::diag {
namespace {

bool HasLabel(const model::Node& node, const std::string& key, const std::string& value) {
  auto it = node.meta.labels.find(key);
  return it != node.meta.labels.end() && it->second == value;
}

bool LabelledGpuNode(const model::Node& node) {
  return node.meta.labels.count("nvidia.com/gpu.product") != 0 ||
         HasLabel(node, "nvidia.com/gpu.present", "true");
}

// Whether the node advertises any accelerator (nvidia.com/gpu, MIG slices, ...).
bool AdvertisesAccelerator(const model::Snapshot& input, const model::Node& node) {
  for (size_t i = 0; i < input.resources.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    if (IsAcceleratorResource(input.resources.Name(id)) && node.allocatable.Get(id) > 0)
      return true;
  }
  return false;
}

}  // namespace

std::string RunbookForNodes(const model::Snapshot& input, const NodeGroup& group) {
  for (int32_t n : group.nodes) {
    for (const auto& taint : input.nodes[static_cast<size_t>(n)].taints) {
      if (taint.key == "node.kubernetes.io/not-ready" ||
          taint.key == "node.kubernetes.io/unreachable") {
        return kRunbookNotReadyNodes;
      }
    }
  }
  if (group.layer != WhyLayer::kDevice) return kRunbookPendingPods;
  bool mig_failed = false;
  bool lost = false;
  for (int32_t n : group.nodes) {
    const model::Node& node = input.nodes[static_cast<size_t>(n)];
    mig_failed |= HasLabel(node, "nvidia.com/mig.config.state", "failed");
    lost |= LabelledGpuNode(node) && !AdvertisesAccelerator(input, node);
  }
  if (mig_failed) return kRunbookMigFailed;
  if (!lost) return kRunbookPendingPods;
  const std::string& cluster = input.nodes[static_cast<size_t>(group.nodes.front())].cluster;
  const bool any_advertises =
      std::any_of(input.nodes.begin(), input.nodes.end(), [&](const model::Node& node) {
        return node.cluster == cluster && LabelledGpuNode(node) &&
               AdvertisesAccelerator(input, node);
      });
  return any_advertises ? kRunbookLostDevices : kRunbookBrokenOperator;
}

}  // namespace berth::diag
