// Builders for the gpushare tests: pods and nodes in one line, a cluster of given nodes,
// and the path of the OpenB fixture (tests/fixtures/sim/openb, rooted at $BERTH_SOURCE_DIR
// when ctest sets it). Test-only; not thread-safe.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "sim/gpushare/node_state.h"
#include "sim/gpushare/openb_trace.h"

namespace berth::sim::gpushare::testing {

std::string OpenbFixturePath(const std::string& file);

PodSpec Pod(int64_t cpu_milli, int32_t num_gpu, int32_t gpu_milli, int64_t memory_mib = 1024);
NodeSpec Node(const std::string& name, int64_t cpu_milli, int32_t num_gpu,
              GpuModelId model = GpuModelId{0}, int64_t memory_mib = 262144);
// An empty node of `spec`, then GPU i's free share set to free_milli[i].
NodeState NodeWithFree(const NodeSpec& spec, std::initializer_list<int32_t> free_milli);

}  // namespace berth::sim::gpushare::testing
