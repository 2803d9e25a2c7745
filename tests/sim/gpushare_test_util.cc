#include "sim/gpushare_test_util.h"

#include <cstdlib>

namespace berth::sim::gpushare::testing {

std::string OpenbFixturePath(const std::string& file) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  const std::string base = root != nullptr ? std::string(root) + "/" : std::string();
  return base + "tests/fixtures/sim/openb/" + file;
}

PodSpec Pod(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli, int64_t memory_mib) {
  PodSpec pod;
  pod.name = "pod";
  pod.cpu_milli = cpu_milli;
  pod.memory_mib = memory_mib;
  pod.num_gpu = num_gpu;
  pod.gpu_milli = gpu_milli;
  return pod;
}

NodeSpec Node(const std::string& name, int64_t cpu_milli, int32_t num_gpu, GpuModelId model,
              int64_t memory_mib) {
  NodeSpec node;
  node.name = name;
  node.cpu_milli = cpu_milli;
  node.memory_mib = memory_mib;
  node.num_gpu = num_gpu;
  node.model = num_gpu > 0 ? model : kNoGpuModel;
  return node;
}

NodeState NodeWithFree(const NodeSpec& spec, std::initializer_list<int32_t> free_milli) {
  NodeState node = NodeState::FromSpec(spec);
  int i = 0;
  for (int32_t free : free_milli) node.gpu_free_milli[i++] = free;
  return node;
}

}  // namespace berth::sim::gpushare::testing
