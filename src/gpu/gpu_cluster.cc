#include "gpu/gpu_cluster.h"

#include "core/check.h"

namespace berth::gpu {

GpuCluster::GpuCluster(std::span<const NodeSpec> nodes, const FragmentationModel* fragmentation)
    : fragmentation_(fragmentation) {
  nodes_.reserve(nodes.size());
  fragment_.assign(nodes.size(), 0.0);
  for (const NodeSpec& spec : nodes) {
    nodes_.push_back(NodeState::FromSpec(spec));
    gpu_capacity_milli_ += int64_t{spec.num_gpu} * kMilliPerGpu;
    if (spec.model != kNoGpuModel) {
      model_capacity_milli_[static_cast<uint8_t>(spec.model)] +=
          int64_t{spec.num_gpu} * kMilliPerGpu;
    }
  }
  model_free_milli_ = model_capacity_milli_;
  for (int i = 0; i < size(); ++i) {
    if (fragmentation_ != nullptr) fragment_[i] = fragmentation_->NodeFragmentMilli(nodes_[i]);
    fragment_milli_ += fragment_[i];
  }
}

FragBreakdown GpuCluster::Breakdown() const {
  FragBreakdown total;
  if (fragmentation_ == nullptr) return total;
  for (const NodeState& node : nodes_) total.Add(fragmentation_->Breakdown(node));
  return total;
}

void GpuCluster::Place(int index, const PodSpec& pod, GpuSet gpus) {
  ::berth::gpu::Place(pod, gpus, nodes_[index]);
  gpu_allocated_milli_ += pod.TotalGpuMilli();
  if (nodes_[index].model != kNoGpuModel) {
    model_free_milli_[static_cast<uint8_t>(nodes_[index].model)] -= pod.TotalGpuMilli();
  }
  Refresh(index);
}

void GpuCluster::Remove(int index, const PodSpec& pod, GpuSet gpus) {
  ::berth::gpu::Remove(pod, gpus, nodes_[index]);
  gpu_allocated_milli_ -= pod.TotalGpuMilli();
  if (nodes_[index].model != kNoGpuModel) {
    model_free_milli_[static_cast<uint8_t>(nodes_[index].model)] += pod.TotalGpuMilli();
  }
  Refresh(index);
}

void GpuCluster::SetNode(int index, const NodeState& state) {
  NodeState& node = nodes_[index];
  // Capacity per model was counted from the node's spec; another count or model would
  // corrupt those totals.
  BERTH_CHECK(node.num_gpu == state.num_gpu && node.model == state.model,
              "GpuCluster::SetNode changes the node's GPUs");
  // Allocated share as Place counts it: capacity minus what the GPUs have free.
  const int64_t delta = node.GpuFreeMilli() - state.GpuFreeMilli();
  gpu_allocated_milli_ += delta;
  if (node.model != kNoGpuModel) model_free_milli_[static_cast<uint8_t>(node.model)] -= delta;
  node = state;
  Refresh(index);
}

void GpuCluster::Refresh(int index) {
  if (fragmentation_ == nullptr) return;
  const double updated = fragmentation_->NodeFragmentMilli(nodes_[index]);
  // A running sum drifts by rounding over many events; it only feeds reports, and each node's
  // cached F (what FGD scores with) is always recomputed from the node's state.
  fragment_milli_ += updated - fragment_[index];
  fragment_[index] = updated;
}

}  // namespace berth::gpu
