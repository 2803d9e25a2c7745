#include "engine/plan.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace berth::engine {
namespace BERTH_UNITY_ID {

constexpr int64_t kGi = int64_t{1} << 30;

// A few-line snapshot builder: nodes and pods with just the fields binding reads.
class SnapshotBuilder {
 public:
  SnapshotBuilder& Node(const std::string& name, int64_t cpu_milli, int64_t memory_bytes,
                        int64_t gpus = 0, const std::string& cluster = "default") {
    model::Node node;
    node.meta.name = name;
    node.meta.labels["kubernetes.io/hostname"] = name;
    node.allocatable.Set(model::kCpu, cpu_milli);
    node.allocatable.Set(model::kMemory, memory_bytes);
    node.allocatable.Set(model::kPods, 110);
    if (gpus > 0) node.allocatable.Set(Gpu(), gpus);
    node.capacity = node.allocatable;
    node.cluster = cluster;
    s_.nodes.push_back(std::move(node));
    return *this;
  }

  SnapshotBuilder& Pod(const std::string& ns, const std::string& name, int64_t cpu_milli,
                       int64_t memory_bytes, int64_t gpus = 0, int64_t created_s = 0) {
    model::Pod pod;
    pod.meta.name = name;
    pod.meta.namespace_ = ns;
    pod.meta.creation_timestamp.unix_s = created_s;
    model::Container container;
    container.name = "main";
    container.requests.Set(model::kCpu, cpu_milli);
    container.requests.Set(model::kMemory, memory_bytes);
    if (gpus > 0) container.requests.Set(Gpu(), gpus);
    pod.containers.push_back(std::move(container));
    s_.pods.push_back(std::move(pod));
    return *this;
  }

  // Modifies the pod added last.
  model::Pod& last_pod() { return s_.pods.back(); }

  model::Snapshot Build() const { return s_; }

 private:
  model::ResourceId Gpu() { return s_.resources.Intern("nvidia.com/gpu"); }
  model::Snapshot s_;
};

// "prefix" + i, built by appending (GCC 12 flags "literal" + std::string with a false
// -Wrestrict positive at -O2).
std::string Numbered(const char* prefix, int i) {
  std::string name = prefix;
  name += std::to_string(i);
  return name;
}

const model::PodCondition* FindCondition(const model::Pod& pod, const std::string& type) {
  for (const auto& condition : pod.conditions) {
    if (condition.type == type) return &condition;
  }
  return nullptr;
}

const model::PodDecision* DecisionFor(const Plan& plan, int32_t pod) {
  for (const auto& decision : plan.pod_decisions) {
    if (decision.pod.v == pod) return &decision;
  }
  return nullptr;
}

std::string NodeOf(const Plan& plan, int32_t pod) {
  return plan.planned.pods[static_cast<size_t>(pod)].node_name;
}

TEST(RunPlanTest, BindsPodsAndWritesPodScheduledConditions) {
  SnapshotBuilder b;
  b.Node("node-1", 4000, 16 * kGi)
      .Pod("default", "fits", 2000, kGi, 0, 1)
      .Pod("default", "too-big", 3000, kGi, 0, 2);
  const model::Snapshot snapshot = b.Build();

  const Plan plan = RunPlan(snapshot, {});

  ASSERT_EQ(plan.pod_decisions.size(), 2u);
  EXPECT_EQ(NodeOf(plan, 0), "node-1");
  const model::PodCondition* bound = FindCondition(plan.planned.pods[0], "PodScheduled");
  ASSERT_NE(bound, nullptr);
  EXPECT_EQ(bound->status, "True");
  EXPECT_EQ(bound->reason, "");

  EXPECT_EQ(NodeOf(plan, 1), "");
  const model::PodCondition* pending = FindCondition(plan.planned.pods[1], "PodScheduled");
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(pending->status, "False");
  EXPECT_EQ(pending->reason, "Unschedulable");
  const model::PodDecision* decision = DecisionFor(plan, 1);
  ASSERT_NE(decision, nullptr);
  EXPECT_FALSE(decision->node.has_value());
  EXPECT_EQ(pending->message, decision->message);
  EXPECT_NE(pending->message.find("0/1 nodes are available"), std::string::npos)
      << pending->message;
}

TEST(RunPlanTest, LeavesTheInputUnchanged) {
  SnapshotBuilder b;
  b.Node("node-1", 4000, 16 * kGi).Pod("default", "a", 1000, kGi);
  const model::Snapshot snapshot = b.Build();
  const Plan plan = RunPlan(snapshot, {});
  EXPECT_EQ(NodeOf(plan, 0), "node-1");
  EXPECT_TRUE(snapshot.pods[0].node_name.empty());
  EXPECT_TRUE(snapshot.pods[0].conditions.empty());
}

TEST(RunPlanTest, ReplacesAnEarlierPodScheduledCondition) {
  SnapshotBuilder b;
  b.Node("node-1", 4000, 16 * kGi).Pod("default", "a", 1000, kGi);
  b.last_pod().conditions.push_back({"PodScheduled", "False", "Unschedulable", "old message"});
  b.last_pod().conditions.push_back({"Ready", "False", "", ""});
  const Plan plan = RunPlan(b.Build(), {});
  const auto& conditions = plan.planned.pods[0].conditions;
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0].type, "PodScheduled");
  EXPECT_EQ(conditions[0].status, "True");
  EXPECT_EQ(conditions[0].message, "");
  EXPECT_EQ(conditions[1].type, "Ready");
}

TEST(RunPlanTest, BoundPodsConsumeCapacityAndAreNotPlannedAgain) {
  SnapshotBuilder b;
  b.Node("gpu-1", 64000, 256 * kGi, 8)
      .Pod("ml", "running", 8000, 64 * kGi, 6, 1)
      .Pod("ml", "wants-2", 4000, 32 * kGi, 2, 2)
      .Pod("ml", "wants-1", 4000, 32 * kGi, 1, 3);
  model::Snapshot snapshot = b.Build();
  snapshot.pods[0].node_name = "gpu-1";
  snapshot.pods[0].phase = model::PodPhase::kRunning;

  const Plan plan = RunPlan(snapshot, {});

  EXPECT_EQ(DecisionFor(plan, 0), nullptr);
  EXPECT_EQ(NodeOf(plan, 0), "gpu-1");
  EXPECT_EQ(NodeOf(plan, 1), "gpu-1");
  EXPECT_EQ(NodeOf(plan, 2), "");
  EXPECT_NE(DecisionFor(plan, 2)->message.find("Insufficient nvidia.com/gpu"), std::string::npos);
}

TEST(RunPlanTest, ScoringOverrideTurnsSpreadingIntoPacking) {
  SnapshotBuilder b;
  b.Node("node-a", 8000, 32 * kGi)
      .Node("node-b", 8000, 32 * kGi)
      .Pod("default", "p1", 2000, 8 * kGi, 0, 1)
      .Pod("default", "p2", 2000, 8 * kGi, 0, 2);
  const model::Snapshot snapshot = b.Build();

  const Plan spread = RunPlan(snapshot, {});
  EXPECT_EQ(NodeOf(spread, 0), "node-a");
  EXPECT_EQ(NodeOf(spread, 1), "node-b");

  PlanOptions pack;
  pack.scoring = model::ScoringStrategyType::kMostAllocated;
  const Plan packed = RunPlan(snapshot, pack);
  EXPECT_EQ(NodeOf(packed, 0), "node-a");
  EXPECT_EQ(NodeOf(packed, 1), "node-a");
}

TEST(RunPlanTest, SchedulesEachClusterOnItsOwnNodes) {
  SnapshotBuilder b;
  b.Node("west-1", 2000, 32 * kGi, 0, "west").Node("east-1", 8000, 32 * kGi, 0, "east");
  b.Pod("default", "w", 4000, kGi, 0, 1);
  b.last_pod().cluster = "west";
  b.Pod("default", "e", 1000, kGi, 0, 2);
  b.last_pod().cluster = "east";
  const model::Snapshot snapshot = b.Build();

  const Plan plan = RunPlan(snapshot, {});

  // west-1 is too small for w, and east-1's room is not west's to use.
  EXPECT_EQ(NodeOf(plan, 0), "");
  EXPECT_NE(DecisionFor(plan, 0)->message.find("0/1 nodes are available"), std::string::npos);
  EXPECT_EQ(NodeOf(plan, 1), "east-1");
  const model::PodDecision* e = DecisionFor(plan, 1);
  ASSERT_NE(e, nullptr);
  ASSERT_TRUE(e->node.has_value());
  EXPECT_EQ(e->node->v, 1);  // an index into the whole snapshot, not into east's part
  // Clusters in name order: east before west.
  EXPECT_EQ(plan.pod_decisions.front().pod.v, 1);
}

TEST(RunPlanTest, SameInputSameDecisions) {
  SnapshotBuilder b;
  for (int i = 0; i < 5; ++i) b.Node(Numbered("node-", i), 4000, 16 * kGi);
  for (int i = 0; i < 12; ++i) b.Pod("default", Numbered("p", i), 1500, 2 * kGi, 0, i);
  const model::Snapshot snapshot = b.Build();
  const Plan first = RunPlan(snapshot, {});
  const Plan second = RunPlan(snapshot, {});
  ASSERT_EQ(first.pod_decisions.size(), second.pod_decisions.size());
  for (size_t i = 0; i < first.pod_decisions.size(); ++i) {
    EXPECT_EQ(first.pod_decisions[i].pod, second.pod_decisions[i].pod);
    EXPECT_EQ(first.pod_decisions[i].node, second.pod_decisions[i].node);
    EXPECT_EQ(first.pod_decisions[i].message, second.pod_decisions[i].message);
  }
}

// RunPlan(Snapshot&&) writes into the input it takes over instead of a copy; the plan is the
// same, for one cluster (no copy) and for several (the copying path).
TEST(RunPlanTest, TakingTheInputOverPlansTheSame) {
  for (bool clusters : {false, true}) {
    SnapshotBuilder b;
    for (int i = 0; i < 4; ++i) {
      const std::string cluster = clusters && i % 2 == 1 ? "east" : "default";
      b.Node(Numbered("node-", i), 4000, 16 * kGi, 0, cluster);
    }
    for (int i = 0; i < 12; ++i) {
      b.Pod("default", Numbered("p", i), 1500, 2 * kGi, 0, i);
      if (clusters && i % 2 == 1) b.last_pod().cluster = "east";
    }
    const model::Snapshot snapshot = b.Build();
    const Plan copied = RunPlan(snapshot, {});
    model::Snapshot input = snapshot;
    const Plan moved = RunPlan(std::move(input), {});
    ASSERT_EQ(copied.pod_decisions.size(), moved.pod_decisions.size());
    for (size_t i = 0; i < copied.pod_decisions.size(); ++i) {
      EXPECT_EQ(copied.pod_decisions[i].pod, moved.pod_decisions[i].pod);
      EXPECT_EQ(copied.pod_decisions[i].node, moved.pod_decisions[i].node);
      EXPECT_EQ(copied.pod_decisions[i].message, moved.pod_decisions[i].message);
    }
    ASSERT_EQ(copied.planned.pods.size(), moved.planned.pods.size());
    for (size_t i = 0; i < copied.planned.pods.size(); ++i) {
      EXPECT_EQ(copied.planned.pods[i].node_name, moved.planned.pods[i].node_name);
      ASSERT_EQ(copied.planned.pods[i].conditions.size(), moved.planned.pods[i].conditions.size());
      for (size_t c = 0; c < copied.planned.pods[i].conditions.size(); ++c) {
        EXPECT_EQ(copied.planned.pods[i].conditions[c].status,
                  moved.planned.pods[i].conditions[c].status);
        EXPECT_EQ(copied.planned.pods[i].conditions[c].message,
                  moved.planned.pods[i].conditions[c].message);
      }
    }
  }
}

TEST(EffectiveSchedulerConfigTest, DefaultsAndOverride) {
  const model::Snapshot empty;
  const model::SchedulerConfig defaults = EffectiveSchedulerConfig(empty, {});
  ASSERT_EQ(defaults.profiles.size(), 1u);
  EXPECT_EQ(defaults.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_EQ(defaults.profiles[0].fit_strategy.type, model::ScoringStrategyType::kLeastAllocated);

  model::Snapshot configured;
  configured.scheduler_config = model::SchedulerConfig{};
  configured.scheduler_config->profiles.push_back(model::SchedulerProfile{});
  configured.scheduler_config->profiles[1].scheduler_name = "gpu-scheduler";
  PlanOptions options;
  options.scoring = model::ScoringStrategyType::kRequestedToCapacityRatio;
  const model::SchedulerConfig overridden = EffectiveSchedulerConfig(configured, options);
  ASSERT_EQ(overridden.profiles.size(), 2u);
  for (const auto& profile : overridden.profiles) {
    EXPECT_EQ(profile.fit_strategy.type, model::ScoringStrategyType::kRequestedToCapacityRatio);
    ASSERT_EQ(profile.fit_strategy.shape.size(), 2u);
    EXPECT_EQ(profile.fit_strategy.shape[1].utilization, 100);
    EXPECT_EQ(profile.fit_strategy.shape[1].score, 10);
  }
}

TEST(FindPodTest, ByQualifiedOrUniqueName) {
  SnapshotBuilder b;
  b.Pod("ml", "train", 1000, kGi).Pod("web", "train", 1000, kGi).Pod("", "solo", 1000, kGi);
  const model::Snapshot snapshot = b.Build();

  auto qualified = FindPod(snapshot, "web/train");
  ASSERT_TRUE(qualified.has_value());
  EXPECT_EQ(qualified->v, 1);

  auto unique = FindPod(snapshot, "solo");
  ASSERT_TRUE(unique.has_value());
  EXPECT_EQ(unique->v, 2);
  auto defaulted = FindPod(snapshot, "default/solo");
  ASSERT_TRUE(defaulted.has_value());
  EXPECT_EQ(defaulted->v, 2);

  auto ambiguous = FindPod(snapshot, "train");
  ASSERT_FALSE(ambiguous.has_value());
  EXPECT_EQ(ambiguous.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_NE(ambiguous.error().message().find("ml/train, web/train"), std::string::npos);

  auto missing = FindPod(snapshot, "ml/nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), core::ErrorCode::kNotFound);
}

TEST(ExplainPodTest, SeesTheStateThePodsAheadLeave) {
  SnapshotBuilder b;
  b.Node("node-1", 4000, 16 * kGi)
      .Pod("default", "first", 3000, kGi, 0, 1)
      .Pod("default", "second", 3000, kGi, 0, 2);
  const model::Snapshot snapshot = b.Build();

  auto second = ExplainPod(snapshot, "default/second", {});
  ASSERT_TRUE(second.has_value()) << second.error().ToString();
  EXPECT_EQ(second->queue_position, 2);
  EXPECT_EQ(second->queue_length, 2);
  EXPECT_EQ(second->pod.pod.v, 1);
  ASSERT_EQ(second->pod.nodes.size(), 1u);
  EXPECT_FALSE(second->pod.nodes[0].feasible);
  EXPECT_FALSE(second->pod.decision.node.has_value());

  // The explanation agrees with the plan.
  const Plan plan = RunPlan(snapshot, {});
  EXPECT_EQ(second->pod.decision.message, DecisionFor(plan, 1)->message);

  auto first = ExplainPod(snapshot, "first", {});
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->queue_position, 1);
  ASSERT_EQ(first->pod.nodes.size(), 1u);
  EXPECT_TRUE(first->pod.nodes[0].feasible);
  EXPECT_FALSE(first->pod.nodes[0].scores.empty());
  ASSERT_TRUE(first->pod.decision.node.has_value());
  EXPECT_EQ(first->pod.decision.node->v, 0);
}

// A gang is placed all at once when its first member comes up; each member is explained at
// the state it meets in that attempt: the members before it bound, itself and those after
// it not. Before, a later member met the state after the whole gang (itself included) was
// bound and was "unschedulable: Insufficient nvidia.com/gpu" while the plan bound it.
TEST(ExplainPodTest, GangMembersMeetTheStateOfTheGangsAttempt) {
  SnapshotBuilder b;
  b.Node("gpu-1", 64000, 256 * kGi, 4).Node("gpu-2", 64000, 256 * kGi, 4);
  for (int i = 0; i < 4; ++i) {
    b.Pod("ml", "allreduce-" + std::to_string(i), 1000, kGi, 2, 10 + i);
    b.last_pod().meta.labels["scheduling.x-k8s.io/pod-group"] = "allreduce";
  }
  model::Snapshot snapshot = b.Build();
  model::PodGroup group;
  group.meta.name = "allreduce";
  group.meta.namespace_ = "ml";
  group.min_member = 4;
  snapshot.pod_groups.push_back(group);

  const Plan plan = RunPlan(snapshot, {});
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const model::PodDecision* planned = DecisionFor(plan, i);
    ASSERT_NE(planned, nullptr);
    ASSERT_TRUE(planned->node.has_value());
    auto e = ExplainPod(snapshot, "ml/allreduce-" + std::to_string(i), {});
    ASSERT_TRUE(e.has_value()) << e.error().ToString();
    ASSERT_TRUE(e->pod.decision.node.has_value()) << e->pod.decision.message;
    EXPECT_EQ(e->pod.decision.node->v, planned->node->v);
    EXPECT_EQ(e->queue_position, i + 1);
  }
}

TEST(ExplainPodTest, RefusesPodsOutsideTheQueue) {
  SnapshotBuilder b;
  b.Node("node-1", 4000, 16 * kGi)
      .Pod("default", "bound", 1000, kGi)
      .Pod("default", "other-scheduler", 1000, kGi)
      .Pod("default", "done", 1000, kGi);
  model::Snapshot snapshot = b.Build();
  snapshot.pods[0].node_name = "node-1";
  snapshot.pods[1].scheduler_name = "volcano";
  snapshot.pods[2].phase = model::PodPhase::kSucceeded;

  auto bound = ExplainPod(snapshot, "bound", {});
  ASSERT_FALSE(bound.has_value());
  EXPECT_EQ(bound.error().code(), core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(bound.error().message().find("already bound to node node-1"), std::string::npos);

  auto other = ExplainPod(snapshot, "other-scheduler", {});
  ASSERT_FALSE(other.has_value());
  EXPECT_NE(other.error().message().find("volcano"), std::string::npos);

  auto done = ExplainPod(snapshot, "done", {});
  ASSERT_FALSE(done.has_value());
  EXPECT_NE(done.error().message().find("Succeeded"), std::string::npos);

  auto missing = ExplainPod(snapshot, "ghost", {});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), core::ErrorCode::kNotFound);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
