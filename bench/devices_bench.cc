// berth_devices_bench: the DRA structured allocator (devices::Allocator) deciding, node by
// node, whether a claim fits, on a fleet of 1,000 nodes with 8 GPUs each. Every node
// publishes one ResourceSlice (its own pool) whose GPUs carry productName, a memory
// capacity, a pcieRoot attribute (4 roots, 2 GPUs each) and an NVLink clique; one GPU per
// node is held by an allocated claim. Cases: (a) 1 GPU picked by a CEL selector, (b) 2 GPUs
// on one PCIe root (matchAttribute), (c) 8 GPUs where 7 are free (unsatisfiable; decided
// by the pre-check), and (c) again with pruning off as the baseline (the bare search
// upstream runs), plus a cold pass (build the Allocator, decide (a) on every node). Every
// benchmark first checks its answers on all nodes. Peak RSS and the allocator's own bytes
// are reported per 1,000 nodes.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "devices/allocator.h"
#include "model/snapshot.h"

namespace berth::bench {
namespace {

constexpr int kNodes = 1000;
constexpr int kGpusPerNode = 8;
constexpr const char* kDriver = "gpu.nvidia.com";

core::Quantity Q(const char* text) { return core::Quantity::Parse(text).value(); }

model::DeviceAttribute Str(std::string v) {
  return {model::DeviceAttribute::Type::kString, 0, false, std::move(v)};
}
model::DeviceAttribute Int(int64_t v) { return {model::DeviceAttribute::Type::kInt, v, false, ""}; }

model::DeviceRequest Request(const std::string& name, int64_t count,
                             std::vector<std::string> selectors = {}) {
  model::DeviceRequest r;
  r.name = name;
  r.exactly.emplace();
  r.exactly->device_class_name = "gpu.nvidia.com";
  r.exactly->count = count;
  for (auto& s : selectors) r.exactly->selectors.push_back({std::move(s)});
  return r;
}

struct Fleet {
  model::Snapshot snap;
  devices::ClaimIndex one_gpu;   // (a)
  devices::ClaimIndex two_gpus;  // (b)
  devices::ClaimIndex eight;     // (c)
  core::Diagnostics diags;
  std::unique_ptr<devices::Allocator> allocator;
};

std::unique_ptr<Fleet> MakeFleet() {
  auto fleet = std::make_unique<Fleet>();
  model::Snapshot& s = fleet->snap;
  model::DeviceClass cls;
  cls.meta.name = "gpu.nvidia.com";
  cls.selectors.push_back({"device.driver == \"gpu.nvidia.com\""});
  s.device_classes.push_back(cls);
  for (int n = 0; n < kNodes; ++n) {
    model::Node node;
    node.meta.name = "node-" + std::to_string(n);
    node.meta.labels["topology.kubernetes.io/zone"] = "zone-" + std::to_string(n % 4);
    s.nodes.push_back(node);
    model::ResourceSlice slice;
    slice.meta.name = node.meta.name + "-gpu.nvidia.com";
    slice.driver = kDriver;
    slice.pool_name = node.meta.name;
    slice.node_name = node.meta.name;
    for (int g = 0; g < kGpusPerNode; ++g) {
      model::Device d;
      d.name = "gpu-" + std::to_string(g);
      d.attributes["productName"] = Str("NVIDIA H100 80GB HBM3");
      d.attributes["uuid"] = Str("GPU-" + std::to_string(n) + "-" + std::to_string(g));
      d.attributes["pcieRoot"] = Str("pci0000:" + std::to_string(g / 2));
      d.attributes["gpu.nvidia.com/nvlinkClique"] = Int(n / 4);
      d.attributes["index"] = Int(g);
      d.capacity["memory"].value = Q("80Gi");
      slice.devices.push_back(d);
    }
    s.resource_slices.push_back(slice);
    // gpu-0 of every node is held by a running pod's claim.
    model::ResourceClaim held;
    held.meta.name = node.meta.name + "-held";
    held.meta.namespace_ = "team";
    held.allocation.emplace();
    model::DeviceRequestAllocationResult r;
    r.request = "gpu";
    r.driver = kDriver;
    r.pool = node.meta.name;
    r.device = "gpu-0";
    held.allocation->results.push_back(r);
    s.resource_claims.push_back(held);
  }
  auto add_claim = [&](const std::string& name, model::DeviceRequest req,
                       std::vector<model::DeviceConstraint> constraints = {}) {
    model::ResourceClaim c;
    c.meta.name = name;
    c.meta.namespace_ = "team";
    c.spec.requests.push_back(std::move(req));
    c.spec.constraints = std::move(constraints);
    s.resource_claims.push_back(c);
    return devices::ClaimIndex{static_cast<int32_t>(s.resource_claims.size() - 1)};
  };
  fleet->one_gpu = add_claim(
      "one-gpu",
      Request("gpu", 1,
              {"device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\" && "
               "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0"}));
  model::DeviceConstraint same_root;
  same_root.match_attribute = "gpu.nvidia.com/pcieRoot";
  fleet->two_gpus = add_claim("two-gpus", Request("gpus", 2), {same_root});
  fleet->eight = add_claim("eight-gpus", Request("gpus", 8));
  fleet->allocator = std::make_unique<devices::Allocator>(s, "default", fleet->diags);
  return fleet;
}

Fleet& TheFleet() {
  static std::unique_ptr<Fleet> fleet = MakeFleet();
  return *fleet;
}

// The answer check over every node: (a) gpu-1 (gpu-0 is held), (b) gpu-2 and gpu-3 (root
// 0 has only gpu-1 left), (c) no fit.
bool CheckAnswers(Fleet& f, std::string* why) {
  for (int n = 0; n < kNodes; ++n) {
    const model::NodeIndex node{n};
    auto a = f.allocator->Allocate({f.one_gpu}, node);
    if (!a.ok() || a.allocations[0].results.size() != 1 ||
        a.allocations[0].results[0].device != "gpu-1") {
      *why = "(a) wrong on node " + std::to_string(n);
      return false;
    }
    auto b = f.allocator->Allocate({f.two_gpus}, node);
    if (!b.ok() || b.allocations[0].results.size() != 2 ||
        b.allocations[0].results[0].device != "gpu-2" ||
        b.allocations[0].results[1].device != "gpu-3") {
      *why = "(b) wrong on node " + std::to_string(n);
      return false;
    }
    auto c = f.allocator->Allocate({f.eight}, node);
    if (c.ok() || c.failure->is_error) {
      *why = "(c) wrong on node " + std::to_string(n);
      return false;
    }
  }
  return true;
}

double PeakRssMb() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

void Decide(benchmark::State& state, devices::ClaimIndex Fleet::*claim, bool prune) {
  Fleet& f = TheFleet();
  std::string why;
  if (!CheckAnswers(f, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  f.allocator->SetPruningForTest(prune);
  const std::vector<devices::ClaimIndex> claims = {f.*claim};
  const devices::AllocatorStats before = f.allocator->Stats();
  int n = 0;
  for (auto _ : state) {
    devices::AllocationOutcome out = f.allocator->Allocate(claims, model::NodeIndex{n});
    benchmark::DoNotOptimize(out);
    if (++n == kNodes) n = 0;
  }
  const devices::AllocatorStats after = f.allocator->Stats();
  f.allocator->SetPruningForTest(true);
  state.SetItemsProcessed(state.iterations());
  state.counters["decisions/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["steps/decision"] = static_cast<double>(after.search_steps - before.search_steps) /
                                     static_cast<double>(std::max<int64_t>(1, state.iterations()));
  state.counters["peak_rss_MB_per_1k_nodes"] = PeakRssMb() * 1000.0 / kNodes;
  state.counters["allocator_MB_per_1k_nodes"] =
      static_cast<double>(f.allocator->MemoryBytes()) / (1024.0 * 1024.0) * 1000.0 / kNodes;
}

void BM_Allocate_OneGpuCelSelector_1kNodes(benchmark::State& state) {
  Decide(state, &Fleet::one_gpu, true);
}
void BM_Allocate_TwoGpusSamePcieRoot_1kNodes(benchmark::State& state) {
  Decide(state, &Fleet::two_gpus, true);
}
void BM_Allocate_EightOfSevenUnsatisfiable_1kNodes(benchmark::State& state) {
  Decide(state, &Fleet::eight, true);
}
// Baseline: the same decision by the bare search (no pre-check, no pruning), as upstream's
// allocator makes it: every subset of the 7 free GPUs.
void BM_Allocate_EightOfSevenUnsatisfiable_NoPruning_1kNodes(benchmark::State& state) {
  Decide(state, &Fleet::eight, false);
}

// One planning pass from scratch: build the Allocator (pools, compiled selectors, claim
// plans) and decide the 1-GPU claim on every node, so every node view is gathered and every
// selector evaluated once.
void BM_ColdPass_BuildAndDecideOneGpu_1kNodes(benchmark::State& state) {
  Fleet& f = TheFleet();
  std::string why;
  if (!CheckAnswers(f, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  for (auto _ : state) {
    core::Diagnostics diags;
    devices::Allocator allocator(f.snap, "default", diags);
    int fits = 0;
    for (int n = 0; n < kNodes; ++n)
      fits += allocator.Allocate({f.one_gpu}, model::NodeIndex{n}).ok();
    if (fits != kNodes) {
      state.SkipWithError("cold pass: a node did not fit");
      return;
    }
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kNodes),
                                                 benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Allocate_OneGpuCelSelector_1kNodes);
BENCHMARK(BM_Allocate_TwoGpusSamePcieRoot_1kNodes);
BENCHMARK(BM_Allocate_EightOfSevenUnsatisfiable_1kNodes);
BENCHMARK(BM_Allocate_EightOfSevenUnsatisfiable_NoPruning_1kNodes);
BENCHMARK(BM_ColdPass_BuildAndDecideOneGpu_1kNodes)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace berth::bench

BENCHMARK_MAIN();
