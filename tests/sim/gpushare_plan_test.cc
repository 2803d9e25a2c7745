// berth's GPU-sharing policy in `berth plan` and in the simulator give the same allocation:
// the OpenB default trace (the repository's fixture copy, tests/fixtures/sim/openb) replayed
// once by the simulator's protocol (gpu::MakeScorer(kBerth) over a gpu::GpuCluster, seeded
// node order, the replay's own arrival order) and once through plan's binding
// (binding::Scheduler with the berth.dev/GpuShareBerth score plugin alone, nodes named by the
// seeded rank as upstream's simulator names them, pods created in arrival order, sharing pods
// as KAI gpu-fraction annotations). Both must put every pod on the same node.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "binding/framework/gpu_share_names.h"
#include "binding/scheduler.h"
#include "gpu/fraction_request.h"
#include "gpu/gpu_cluster.h"
#include "gpu/gpu_inventory.h"
#include "gpu/policy.h"
#include "gpu/typical_pods.h"
#include "sim/core/rng.h"
#include "sim/gpushare/node_selector.h"
#include "sim/gpushare/openb_reader.h"
#include "sim/gpushare/replay.h"
#include "sim/gpushare/rng_source.h"
#include "sim/gpushare_test_util.h"
#include "support/model_builders.h"

namespace berth::sim::gpushare {
namespace BERTH_UNITY_ID {

using testing::OpenbFixturePath;

struct SimRun {
  std::vector<int32_t> order;  // pod indices in arrival order
  std::vector<int32_t> ranks;  // per node
  std::vector<int> node_of;    // per arrival, -1 when it fit nowhere
  std::vector<double> fragment_milli;
};

// The replay protocol of replay.cc, step by step, keeping each arrival's node.
SimRun ReplayBerth(const OpenbTrace& trace, const ReplayOptions& options) {
  SimRun run;
  const gpu::FragmentationModel fragmentation(gpu::BuildTypicalPods(trace.pods, options.typical));
  gpu::GpuCluster cluster(trace.nodes, &fragmentation);
  Rng rng(options.seed);
  core::Result<std::vector<int32_t>> order =
      ArrivalOrder(trace.pods, cluster.gpu_capacity_milli(), options, rng);
  EXPECT_TRUE(order.has_value());
  if (!order.has_value()) return run;
  run.order = *order;
  run.ranks = NodeRanks(trace.nodes, rng);
  NodeSelector selector(run.ranks, options.tie_break);
  RngSource draws(rng);
  const std::unique_ptr<gpu::NodeScorer> scorer =
      gpu::MakeScorer(gpu::Policy::kBerth, &fragmentation, &cluster);
  for (const int32_t index : run.order) {
    const gpu::PodSpec& pod = trace.pods[static_cast<size_t>(index)];
    const int node = selector.Select(*scorer, pod, cluster, rng);
    if (node >= 0) {
      cluster.Place(
          node, pod,
          scorer->ChooseGpus(pod, cluster.node(node), cluster.node_fragment_milli(node), draws));
      selector.Update(node, cluster);
    }
    run.node_of.push_back(node);
    run.fragment_milli.push_back(cluster.fragment_milli());
  }
  return run;
}

std::string RankedName(int32_t rank, const std::string& name) {
  std::array<char, 16> prefix{};
  std::snprintf(prefix.data(), prefix.size(), "%04d-", rank);
  return std::string(prefix.data()) + name;
}

std::string Fraction(int32_t milli) {
  std::array<char, 16> text{};
  std::snprintf(text.data(), text.size(), "%d.%03d", milli / 1000, milli % 1000);
  return text.data();
}

void ExpectPlanMatchesSimulator(const std::string& node_path, const std::string& pod_path) {
  core::Result<OpenbTrace> read = ReadOpenbTrace(node_path, pod_path, {});
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  const OpenbTrace& trace = *read;

  // The FGD reproduction's protocol minus inflation: inflated copies would repeat pods,
  // which a snapshot holds once each.
  ReplayOptions options;
  options.policy = gpu::Policy::kBerth;
  options.seed = 42;
  options.inflation_ratio = 0;
  options.keep_samples = true;
  const SimRun sim = ReplayBerth(trace, options);
  ASSERT_EQ(sim.node_of.size(), trace.pods.size());

  // The step-by-step loop is the replay: same fragment after every event.
  core::Result<ReplayResult> replay = RunReplay(trace.nodes, trace.pods, options);
  ASSERT_TRUE(replay.has_value());
  ASSERT_EQ(replay->samples.size(), sim.fragment_milli.size());
  for (size_t e = 0; e < sim.fragment_milli.size(); ++e) {
    ASSERT_EQ(replay->samples[e].fragment_milli, sim.fragment_milli[e]) << e;
  }

  berth::testing::SnapshotBuilder builder;
  for (size_t n = 0; n < trace.nodes.size(); ++n) {
    const gpu::NodeSpec& spec = trace.nodes[n];
    berth::testing::NodeBuilder node(RankedName(sim.ranks[n], spec.name));
    node.Cpu(spec.cpu_milli).Memory(spec.memory_mib * berth::testing::kMi).Pods(100000);
    if (spec.num_gpu > 0) {
      node.Gpu(spec.num_gpu)
          .Label(std::string(gpu::kLabelGpuProduct), trace.models.Name(spec.model));
    }
    builder.Add(node);
  }
  for (size_t a = 0; a < sim.order.size(); ++a) {
    const gpu::PodSpec& spec = trace.pods[static_cast<size_t>(sim.order[a])];
    berth::testing::Amounts requests = {{"cpu", spec.cpu_milli},
                                        {"memory", spec.memory_mib * berth::testing::kMi}};
    if (spec.num_gpu > 0 && !spec.IsGpuShare())
      requests.emplace_back("nvidia.com/gpu", spec.num_gpu);
    berth::testing::PodBuilder pod(spec.name);
    pod.Container(requests).Created(static_cast<int64_t>(a));
    ASSERT_TRUE(spec.gpu_spec.empty()) << "the default trace names no GPU model";
    builder.Add(pod);
  }
  model::Snapshot snapshot = builder.Build();
  for (size_t a = 0; a < sim.order.size(); ++a) {
    const gpu::PodSpec& spec = trace.pods[static_cast<size_t>(sim.order[a])];
    if (spec.IsGpuShare()) {
      snapshot.pods[a].meta.annotations[std::string(gpu::kGpuFractionAnnotation)] =
          Fraction(spec.gpu_milli);
    }
  }
  model::SchedulerConfig config;
  config.profiles[0].score_weights = {{std::string(binding::kGpuShareBerth), 1}};
  binding::Scheduler scheduler(snapshot, config);
  const std::vector<model::PodDecision> decisions = scheduler.ScheduleAll();
  ASSERT_EQ(decisions.size(), sim.order.size());

  int placed = 0;
  int differ = 0;
  for (const model::PodDecision& d : decisions) {
    const auto a = static_cast<size_t>(d.pod.v);
    const int sim_node = sim.node_of[a];
    const int plan_node = d.node.has_value() ? d.node->v : -1;
    if (plan_node >= 0) ++placed;
    if (sim_node != plan_node) {
      ++differ;
      ADD_FAILURE() << "pod " << snapshot.pods[a].meta.name << " (arrival " << a
                    << "): simulator node " << sim_node << ", plan node " << plan_node;
      if (differ > 5) break;
    }
  }
  EXPECT_EQ(differ, 0);
  EXPECT_GT(placed, 0);
  EXPECT_EQ(placed, replay->placed);
}

TEST(GpuShareBerthPlanTest, PlanBindingGivesTheSimulatorsAllocationOnTheDefaultTrace) {
  ExpectPlanMatchesSimulator(OpenbFixturePath("openb_node_list_gpu_node.csv"),
                             OpenbFixturePath("openb_pod_list_default.csv"));
}

// The whole trace (1,213 nodes, 8,152 pods) when BERTH_OPENB_DIR names a directory holding
// it (../shared/data/alibaba-gpu-2023); about a minute, so not part of the default run.
TEST(GpuShareBerthPlanTest, PlanBindingGivesTheSimulatorsAllocationOnTheFullDefaultTrace) {
  const char* dir = std::getenv("BERTH_OPENB_DIR");
  if (dir == nullptr) GTEST_SKIP() << "BERTH_OPENB_DIR is not set";
  ExpectPlanMatchesSimulator(std::string(dir) + "/openb_node_list_gpu_node.csv",
                             std::string(dir) + "/openb_pod_list_default.csv");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::gpushare
