#include "gpu/node_state.h"

#include "core/check.h"

namespace berth::gpu {

int AffinityTag(const PodSpec& pod) {
  if (pod.num_gpu == 0) return kNoAffinityTag;
  if (pod.IsGpuShare()) return 0;
  return pod.num_gpu;
}

NodeState NodeState::FromSpec(const NodeSpec& spec) {
  NodeState node;
  node.cpu_capacity_milli = spec.cpu_milli;
  node.cpu_free_milli = spec.cpu_milli;
  node.memory_free_mib = spec.memory_mib;
  node.num_gpu = spec.num_gpu;
  node.model = spec.model;
  for (int i = 0; i < spec.num_gpu; ++i) node.gpu_free_milli[i] = kMilliPerGpu;
  return node;
}

int64_t NodeState::GpuFreeMilli() const {
  int64_t total = 0;
  for (int i = 0; i < num_gpu; ++i) total += gpu_free_milli[i];
  return total;
}

int32_t NodeState::FullyFreeGpus() const {
  int32_t count = 0;
  for (int i = 0; i < num_gpu; ++i) count += gpu_free_milli[i] == kMilliPerGpu ? 1 : 0;
  return count;
}

int32_t NodeState::GpusWithFree(int32_t milli) const {
  int32_t count = 0;
  for (int i = 0; i < num_gpu; ++i) count += gpu_free_milli[i] >= milli ? 1 : 0;
  return count;
}

bool Fits(const PodSpec& pod, const NodeState& node) {
  if (pod.cpu_milli > node.cpu_free_milli || pod.memory_mib > node.memory_free_mib) return false;
  if (pod.num_gpu == 0) return true;  // Open-Gpu-Share passes pods that ask for no GPU
  if (node.num_gpu == 0 || !pod.allowed_models.Allows(node.model)) return false;
  return node.GpusWithFree(pod.gpu_milli) >= pod.num_gpu;
}

void Place(const PodSpec& pod, GpuSet gpus, NodeState& node) {
  BERTH_CHECK(gpus.count() == pod.num_gpu, "a placement names as many GPUs as the pod asks for");
  BERTH_CHECK((gpus.bits() >> node.num_gpu) == 0, "GPU index beyond the node's GPUs");
  node.cpu_free_milli -= pod.cpu_milli;
  node.memory_free_mib -= pod.memory_mib;
  // The callers choose GPUs among those with room; going below zero would corrupt the model.
  BERTH_CHECK(node.cpu_free_milli >= 0 && node.memory_free_mib >= 0, "placement without room");
  for (int i = 0; i < node.num_gpu; ++i) {
    if (!gpus.Contains(i)) continue;
    node.gpu_free_milli[i] -= pod.gpu_milli;
    BERTH_CHECK(node.gpu_free_milli[i] >= 0, "GPU share below zero");
  }
  const int tag = AffinityTag(pod);
  if (tag != kNoAffinityTag && node.pods_by_tag[tag]++ == 0) ++node.tags_present;
}

void Remove(const PodSpec& pod, GpuSet gpus, NodeState& node) {
  node.cpu_free_milli += pod.cpu_milli;
  node.memory_free_mib += pod.memory_mib;
  BERTH_CHECK(node.cpu_free_milli <= node.cpu_capacity_milli, "removing a pod never placed");
  for (int i = 0; i < node.num_gpu; ++i) {
    if (!gpus.Contains(i)) continue;
    node.gpu_free_milli[i] += pod.gpu_milli;
    BERTH_CHECK(node.gpu_free_milli[i] <= kMilliPerGpu, "removing a pod never placed");
  }
  const int tag = AffinityTag(pod);
  if (tag != kNoAffinityTag) {
    BERTH_CHECK(node.pods_by_tag[tag] > 0, "removing a pod never placed");
    if (--node.pods_by_tag[tag] == 0) --node.tags_present;
  }
}

}  // namespace berth::gpu
