// Scheduler::OverridePod: the constraints Kueue injects (a flavor's nodeLabels and
// tolerations, a topology domain's nodeSelector) apply to the pod's own decision and, through
// its labels, to the pods scheduled after it, exactly as if the snapshot had held the
// replaced pod (randomized, index and reference paths).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "random_cluster.h"
#include "support/model_builders.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

using berth::testing::kGi;
using berth::testing::NodeBuilder;
using berth::testing::PodBuilder;
using berth::testing::SnapshotBuilder;

model::PodIndex P(int32_t i) { return model::PodIndex{i}; }

TEST(OverridePodTest, FlavorNodeLabelsAndTolerationsSteerThePod) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("on-demand").Cpu(8000).Memory(16 * kGi).Label("flavor", "on-demand"));
  s.Add(NodeBuilder("spot")
            .Cpu(4000)
            .Memory(16 * kGi)
            .Label("flavor", "spot")
            .Taint("spot", "true", core::TaintEffect::kNoSchedule));
  s.Add(PodBuilder("job-0").Container({{"cpu", 1000}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.Explain(P(0)).decision), "on-demand");
  model::Pod admitted = snap.pods[0];
  admitted.node_selector["flavor"] = "spot";
  admitted.tolerations.push_back(
      core::Toleration{"spot", core::TolerationOp::kEqual, "true", std::nullopt, std::nullopt});
  scheduler.OverridePod(P(0), admitted);
  EXPECT_EQ(BoundTo(snap, scheduler.Explain(P(0)).decision), "spot");
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "spot");
}

TEST(OverridePodTest, AnUnboundPodCanBeOverriddenAndPlacedAgain) {
  SnapshotBuilder s;
  s.Add(NodeBuilder("a").Cpu(4000).Memory(8 * kGi).Label("zone", "z1"));
  s.Add(NodeBuilder("b").Cpu(4000).Memory(8 * kGi).Label("zone", "z2"));
  s.Add(PodBuilder("p").Container({{"cpu", 1000}}));
  model::Snapshot snap = s.Build();
  Scheduler scheduler(snap, model::SchedulerConfig{});
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "a");
  scheduler.Unbind(P(0));
  model::Pod pinned = snap.pods[0];
  pinned.node_selector["zone"] = "z2";
  scheduler.OverridePod(P(0), pinned);
  EXPECT_EQ(BoundTo(snap, scheduler.ScheduleOne(P(0))), "b");
}

// Overriding pods of a Scheduler before scheduling them decides like a Scheduler whose
// snapshot held the replacements from the start.
TEST(OverridePodTest, OverriddenPodsDecideAsIfTheSnapshotHeldThem) {
  int64_t overridden = 0;
  int64_t indexed = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    testing::ClusterFeatures features;
    features.dra = seed % 5 == 0;
    const model::Snapshot snap = testing::RandomCluster(seed, features);
    model::Snapshot replaced = snap;
    core::Diagnostics diags_a;
    SchedulerOptions options_a;
    options_a.diagnostics = &diags_a;
    Scheduler scheduler(snap, model::SchedulerConfig{}, options_a);
    testing::Rng rng(seed * 15485863);
    for (model::PodIndex pod : scheduler.QueueOrder()) {
      if (!rng.Chance(50)) continue;
      model::Pod r = snap.pod(pod);
      // Kueue's flavor: nodeLabels into nodeSelector, the flavor's tolerations appended.
      r.node_selector["zone"] = berth::testing::Indexed("z", rng.Below(3));
      if (rng.Chance(50)) {
        r.tolerations.push_back(core::Toleration{"nvidia.com/gpu", core::TolerationOp::kExists, "",
                                                 std::nullopt, std::nullopt});
      }
      // A label change (the pod's group) changes how spread and affinity count it.
      if (rng.Chance(30)) r.meta.labels["app"] = "app-0";
      scheduler.OverridePod(pod, r);
      replaced.pods[static_cast<size_t>(pod.v)] = r;
      ++overridden;
    }
    core::Diagnostics diags_b;
    SchedulerOptions options_b(seed % 2 == 0);
    options_b.diagnostics = &diags_b;
    Scheduler fresh(replaced, model::SchedulerConfig{}, options_b);
    for (model::PodIndex pod : fresh.QueueOrder()) {
      const std::string where = "seed " + std::to_string(seed) + " pod " + snap.pod(pod).meta.name;
      PodExplanation e = scheduler.Explain(pod);
      model::PodDecision a = scheduler.ScheduleOne(pod);
      model::PodDecision b = fresh.ScheduleOne(pod);
      ASSERT_EQ(a.node, b.node) << where;
      EXPECT_EQ(a.message, b.message) << where;
      EXPECT_EQ(a.rejections, b.rejections) << where;
      EXPECT_EQ(e.decision.node, a.node) << where;
    }
    indexed += scheduler.stats().indexed;
  }
  EXPECT_GT(overridden, 1000);
  EXPECT_GT(indexed, 1000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
