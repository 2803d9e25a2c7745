// berth_why_bench: `berth why` with its fixes, end to end below the CLI (diag::AnswerWhy:
// the baseline plan, the pod's per-node explanation, then one plan per candidate fix).
// - BM_Why_DemoFleet: examples/demo-fleet, pod ml-research/eval-harness-0 (a GPU pod
//   without the GPU pools' toleration): the answer must block on the taint and verify the
//   toleration fix. Target < 1 s.
// - BM_Why_1kNodes / BM_Why_10kNodes: bench/scenarios' synthetic cluster (N nodes, 10 pods
//   per node, 95% of them already bound) plus one GPU pod whose nodeSelector names a pool no
//   node has: the answer must block on NodeAffinity and verify removing that term. Target
//   for 10,000 nodes < 10 s.
// Each iteration checks its answer; a wrong one fails the run (SkipWithError).
#include <benchmark/benchmark.h>

#include <string>
#include <utility>

#include "core/diagnostics.h"
#include "diag/why.h"
#include "io/reader.h"
#include "model/snapshot.h"
#include "scenarios/synthetic_cluster.h"

namespace berth::bench {
namespace {

model::Snapshot DemoFleet() {
  core::Diagnostics diags;
  io::Reader reader(diags);
  (void)reader.ReadPath(std::string(BERTH_SOURCE_DIR) + "/examples/demo-fleet");
  return std::move(reader.Finish().snapshot);
}

// The synthetic cluster plus the pod `berth why` is asked about: 1 GPU, nodeSelector
// berth.dev/pool=reserved (no node has it), so every node rejects it.
model::Snapshot SyntheticWithTarget(int32_t nodes) {
  SyntheticClusterSpec spec;
  spec.nodes = nodes;
  spec.pods = nodes * 10;
  spec.bound_pod_fraction = 0.95;
  model::Snapshot s = MakeSyntheticCluster(spec);
  model::Pod pod;
  pod.meta.name = "why-target-0";
  pod.meta.namespace_ = "bench";
  pod.node_selector["berth.dev/pool"] = "reserved";
  model::Container c;
  c.name = "main";
  c.requests.Set(s.resources.Intern("nvidia.com/gpu"), 1);
  c.requests.Set(s.resources.Intern("cpu"), 1000);
  c.cpu_request_named = true;
  pod.containers.push_back(std::move(c));
  pod.priority = 1000000;  // first in the queue: the explanation replays no pod before it
  s.pods.push_back(std::move(pod));
  return s;
}

bool Starts(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

void RunWhy(benchmark::State& state, const model::Snapshot& s, const std::string& pod,
            const std::string& first_reason, const std::string& fix) {
  const diag::WhyTarget target{diag::WhyTargetKind::kPod, "", pod};
  for (auto _ : state) {
    auto answer = diag::AnswerWhy(s, target, diag::WhyOptions{});
    if (!answer.has_value()) {
      state.SkipWithError(answer.error().ToString().c_str());
      return;
    }
    const diag::WhyAnswer& a = answer.value();
    if (a.state != diag::WhyState::kPending || a.chain.empty() ||
        !Starts(a.chain[0].reason, first_reason) || a.fixes.empty() ||
        !Starts(a.fixes[0].change, fix)) {
      state.SkipWithError(
          ("wrong answer: " + (a.chain.empty() ? std::string("no chain") : a.chain[0].reason) +
           " / " + (a.fixes.empty() ? std::string("no fix") : a.fixes[0].change))
              .c_str());
      return;
    }
    state.counters["fix_plans"] = a.fix_runs;
    benchmark::DoNotOptimize(a);
  }
}

void BM_Why_DemoFleet(benchmark::State& state) {
  static const model::Snapshot s = DemoFleet();
  RunWhy(state, s, "ml-research/eval-harness-0",
         "node(s) had untolerated taint {nvidia.com/gpu: present}",
         "add the toleration nvidia.com/gpu=present:NoSchedule");
}
BENCHMARK(BM_Why_DemoFleet)->Unit(benchmark::kMillisecond);

void BM_Why_Synthetic(benchmark::State& state) {
  const model::Snapshot s = SyntheticWithTarget(static_cast<int32_t>(state.range(0)));
  RunWhy(state, s, "bench/why-target-0", "node(s) didn't match Pod's node affinity/selector",
         "remove nodeSelector berth.dev/pool=reserved");
}
BENCHMARK(BM_Why_Synthetic)
    ->Name("BM_Why_1kNodes")
    ->Arg(1000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Why_Synthetic)
    ->Name("BM_Why_10kNodes")
    ->Arg(10000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace berth::bench

BENCHMARK_MAIN();
