#include "io/reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using testing::FindPod;
using testing::FixturePath;
using ::testing::HasSubstr;
using testing::PodNames;
using testing::ReadString;

int64_t Amount(const model::Snapshot& snap, const model::ResourceVector& v, const char* name) {
  model::ResourceId id;
  if (!snap.resources.Find(name, &id)) return 0;
  return v.Get(id);
}

class AllKindsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reader reader(diags_);
    ASSERT_TRUE(reader.ReadPath(FixturePath("all_kinds.yaml")).ok());
    input_ = reader.Finish();
  }
  const model::Snapshot& Snap() const { return input_.snapshot; }

  core::Diagnostics diags_;
  Input input_;
};

TEST_F(AllKindsTest, ReadsEveryObjectWithoutErrors) {
  EXPECT_FALSE(diags_.has_errors()) << Dump(diags_);
  // 1 namespace, 2 nodes, 2 priority classes, 3 pods, 7 workloads, 1 scheduler config.
  EXPECT_EQ(input_.objects_read, 16u);
  EXPECT_EQ(Snap().namespaces.size(), 1u);
  EXPECT_EQ(Snap().nodes.size(), 2u);
  EXPECT_EQ(Snap().priority_classes.size(), 2u);
  EXPECT_EQ(Snap().workloads.size(), 7u);
}

TEST_F(AllKindsTest, WarnsOncePerUnknownKind) {
  ASSERT_EQ(diags_.entries().size(), 1u) << Dump(diags_);
  const core::Diagnostic& d = diags_.entries()[0];
  EXPECT_EQ(d.severity, core::Severity::kWarning);
  EXPECT_EQ(d.error.message(), "skipped 3 objects of unknown kind Foo (example.com/v1)");
  EXPECT_THAT(d.error.location().file, HasSubstr("all_kinds.yaml"));
}

TEST_F(AllKindsTest, DecodesNodes) {
  const model::Node& gpu = Snap().nodes[0];
  EXPECT_EQ(gpu.meta.name, "gpu-node-1");
  EXPECT_EQ(gpu.meta.namespace_, "");
  EXPECT_EQ(gpu.meta.labels.at("nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3");
  EXPECT_TRUE(gpu.unschedulable);
  ASSERT_EQ(gpu.taints.size(), 2u);
  EXPECT_EQ(gpu.taints[0].key, "nvidia.com/gpu");
  EXPECT_EQ(gpu.taints[0].value, "present");
  EXPECT_EQ(gpu.taints[0].effect, core::TaintEffect::kNoSchedule);
  EXPECT_EQ(gpu.taints[1].effect, core::TaintEffect::kPreferNoSchedule);
  EXPECT_EQ(Amount(Snap(), gpu.capacity, "cpu"), 96000);
  EXPECT_EQ(Amount(Snap(), gpu.capacity, "memory"), int64_t{1} << 40);
  EXPECT_EQ(Amount(Snap(), gpu.capacity, "nvidia.com/gpu"), 8);
  EXPECT_EQ(Amount(Snap(), gpu.allocatable, "cpu"), 95500);
  EXPECT_EQ(Amount(Snap(), gpu.allocatable, "memory"), 1000 * (int64_t{1} << 30));
  EXPECT_EQ(Amount(Snap(), gpu.allocatable, "pods"), 110);
  EXPECT_EQ(gpu.cluster, "default");
  EXPECT_TRUE(gpu.source.valid());

  const model::Node& cpu = Snap().nodes[1];
  EXPECT_FALSE(cpu.unschedulable);
  EXPECT_EQ(Amount(Snap(), cpu.capacity, "cpu"), 32000);
  EXPECT_TRUE(cpu.allocatable == cpu.capacity);  // allocatable defaults to capacity
}

TEST_F(AllKindsTest, DecodesPodSchedulingFields) {
  const model::Pod* pod = FindPod(Snap(), "team-a", "trainer");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->meta.uid, "1234-abcd");
  EXPECT_EQ(pod->meta.creation_timestamp.ToString(), "2025-03-01T10:00:00Z");
  EXPECT_EQ(pod->meta.annotations.at("note"), "keep me");
  ASSERT_TRUE(pod->owner.has_value());
  EXPECT_EQ(pod->owner->kind, "Job");
  EXPECT_EQ(pod->owner->name, "train-job");  // the controller, not the first reference
  EXPECT_EQ(pod->scheduler_name, "gpu-scheduler");
  EXPECT_EQ(pod->node_name, "");
  EXPECT_EQ(pod->priority_class_name, "high");
  EXPECT_EQ(pod->priority, 1000);
  EXPECT_EQ(pod->node_selector.at("nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3");
  EXPECT_EQ(pod->phase, model::PodPhase::kRunning);
  ASSERT_EQ(pod->conditions.size(), 2u);
  EXPECT_EQ(pod->conditions[1].reason, "ContainersNotReady");
  EXPECT_EQ(pod->conditions[1].message, "not yet");
}

TEST_F(AllKindsTest, DecodesContainerResources) {
  const model::Pod* pod = FindPod(Snap(), "team-a", "trainer");
  ASSERT_NE(pod, nullptr);
  ASSERT_EQ(pod->init_containers.size(), 2u);
  EXPECT_FALSE(pod->init_containers[0].restartable);
  EXPECT_EQ(Amount(Snap(), pod->init_containers[0].requests, "cpu"), 2000);
  EXPECT_TRUE(pod->init_containers[1].restartable);  // restartPolicy: Always, a sidecar
  EXPECT_EQ(Amount(Snap(), pod->init_containers[1].requests, "memory"), 64 << 20);
  ASSERT_EQ(pod->containers.size(), 2u);
  const model::Container& main = pod->containers[0];
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(Amount(Snap(), main.requests, "cpu"), 500);  // the number 0.5
  EXPECT_EQ(Amount(Snap(), main.requests, "memory"), int64_t{1} << 30);
  EXPECT_EQ(Amount(Snap(), main.requests, "nvidia.com/gpu"), 2);  // defaulted from the limit
  EXPECT_EQ(Amount(Snap(), main.limits, "nvidia.com/gpu"), 2);
  EXPECT_EQ(Amount(Snap(), main.limits, "memory"), int64_t{2} << 30);
  EXPECT_EQ(Amount(Snap(), main.limits, "cpu"), 0);
  const model::Container& side = pod->containers[1];
  EXPECT_EQ(Amount(Snap(), side.requests, "cpu"), 1000);
  EXPECT_EQ(Amount(Snap(), pod->overhead, "cpu"), 250);
}

TEST_F(AllKindsTest, DecodesAffinity) {
  const model::Pod* pod = FindPod(Snap(), "team-a", "trainer");
  ASSERT_NE(pod, nullptr);
  ASSERT_TRUE(pod->node_affinity.required.has_value());
  ASSERT_EQ(pod->node_affinity.required->terms.size(), 1u);
  const core::NodeSelectorTerm& term = pod->node_affinity.required->terms[0];
  ASSERT_EQ(term.match_expressions.size(), 2u);
  EXPECT_EQ(term.match_expressions[0].key, "topology.kubernetes.io/zone");
  EXPECT_EQ(term.match_expressions[0].op, core::SelectorOp::kIn);
  EXPECT_THAT(term.match_expressions[0].values, ElementsAre("zone-a", "zone-b"));
  EXPECT_EQ(term.match_expressions[1].op, core::SelectorOp::kGt);
  ASSERT_EQ(term.match_fields.size(), 1u);
  EXPECT_EQ(term.match_fields[0].op, core::SelectorOp::kNotIn);
  ASSERT_EQ(pod->node_affinity.preferred.size(), 1u);
  EXPECT_EQ(pod->node_affinity.preferred[0].weight, 10);
  EXPECT_EQ(pod->node_affinity.preferred[0].preference.match_expressions[0].op,
            core::SelectorOp::kExists);

  ASSERT_EQ(pod->pod_affinity.required.size(), 1u);
  const model::PodAffinityTerm& aff = pod->pod_affinity.required[0];
  ASSERT_TRUE(aff.label_selector.has_value());
  EXPECT_EQ(aff.label_selector->match_labels.at("app"), "trainer");
  EXPECT_EQ(aff.topology_key, "rack");
  EXPECT_THAT(aff.match_label_keys, ElementsAre("job"));
  EXPECT_THAT(aff.mismatch_label_keys, ElementsAre("tenant"));
  EXPECT_FALSE(aff.namespace_selector.has_value());

  ASSERT_EQ(pod->pod_anti_affinity.preferred.size(), 1u);
  const model::WeightedPodAffinityTerm& anti = pod->pod_anti_affinity.preferred[0];
  EXPECT_EQ(anti.weight, 50);
  EXPECT_THAT(anti.term.namespaces, ElementsAre("team-b"));
  ASSERT_TRUE(anti.term.namespace_selector.has_value());
  EXPECT_EQ(anti.term.namespace_selector->match_labels.at("tier"), "gold");
  ASSERT_TRUE(anti.term.label_selector.has_value());
  EXPECT_EQ(anti.term.label_selector->match_expressions[0].op, core::SelectorOp::kNotIn);
  EXPECT_TRUE(pod->pod_anti_affinity.required.empty());
}

TEST_F(AllKindsTest, DecodesTolerationsAndSpread) {
  const model::Pod* pod = FindPod(Snap(), "team-a", "trainer");
  ASSERT_NE(pod, nullptr);
  ASSERT_EQ(pod->tolerations.size(), 3u);
  EXPECT_EQ(pod->tolerations[0].op, core::TolerationOp::kExists);
  EXPECT_EQ(pod->tolerations[0].effect, core::TaintEffect::kNoSchedule);
  EXPECT_FALSE(pod->tolerations[0].toleration_seconds.has_value());
  EXPECT_EQ(pod->tolerations[1].toleration_seconds, 300);
  EXPECT_EQ(pod->tolerations[1].effect, core::TaintEffect::kNoExecute);
  EXPECT_EQ(pod->tolerations[2].key, "");
  EXPECT_FALSE(pod->tolerations[2].effect.has_value());

  ASSERT_EQ(pod->topology_spread_constraints.size(), 1u);
  const model::TopologySpreadConstraint& c = pod->topology_spread_constraints[0];
  EXPECT_EQ(c.max_skew, 2);
  EXPECT_EQ(c.topology_key, "topology.kubernetes.io/zone");
  EXPECT_EQ(c.when_unsatisfiable, model::UnsatisfiableAction::kScheduleAnyway);
  ASSERT_TRUE(c.label_selector.has_value());
  EXPECT_EQ(c.min_domains, 3);
  EXPECT_EQ(c.node_affinity_policy, model::NodeInclusionPolicy::kIgnore);
  EXPECT_EQ(c.node_taints_policy, model::NodeInclusionPolicy::kHonor);
  EXPECT_THAT(c.match_label_keys, ElementsAre("pod-template-hash"));
}

TEST_F(AllKindsTest, ResolvesPriorities) {
  const model::Pod* plain = FindPod(Snap(), "default", "plain");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->priority, 100);  // the globalDefault class
  EXPECT_EQ(plain->priority_class_name, "normal");
  EXPECT_EQ(plain->scheduler_name, "default-scheduler");
  EXPECT_EQ(plain->phase, model::PodPhase::kPending);
  const model::Pod* explicit_priority = FindPod(Snap(), "team-a", "explicit-priority");
  ASSERT_NE(explicit_priority, nullptr);
  EXPECT_EQ(explicit_priority->priority, 7);  // spec.priority wins over the class
  const model::PriorityClass& high = Snap().priority_classes[0];
  EXPECT_EQ(high.value, 1000);
  EXPECT_EQ(high.preemption_policy, "Never");
  EXPECT_FALSE(high.global_default);
  EXPECT_TRUE(Snap().priority_classes[1].global_default);
}

TEST_F(AllKindsTest, KeepsPodSets) {
  const auto& w = Snap().workloads;
  ASSERT_EQ(w.size(), 7u);
  EXPECT_EQ(w[0].kind, "Job");
  EXPECT_EQ(w[0].api_version, "batch/v1");
  ASSERT_EQ(w[0].pod_sets.size(), 1u);
  EXPECT_EQ(w[0].pod_sets[0].name, "main");
  EXPECT_EQ(w[0].pod_sets[0].count, 3);  // parallelism 4 capped by completions 3
  EXPECT_EQ(w[0].pod_sets[0].pod_template.priority, 1000);
  EXPECT_EQ(Amount(Snap(), w[0].pod_sets[0].pod_template.containers[0].requests, "nvidia.com/gpu"),
            8);
  EXPECT_TRUE(w[1].suspended);
  EXPECT_EQ(w[2].kind, "Deployment");
  EXPECT_EQ(w[2].pod_sets[0].count, 2);
  EXPECT_EQ(w[3].kind, "StatefulSet");
  EXPECT_EQ(w[3].pod_sets[0].count, 1);  // replicas default 1
  EXPECT_EQ(w[4].kind, "JobSet");
  ASSERT_EQ(w[4].pod_sets.size(), 2u);
  EXPECT_EQ(w[4].pod_sets[0].name, "leader");
  EXPECT_EQ(w[4].pod_sets[0].count, 1);
  EXPECT_EQ(w[4].pod_sets[1].name, "workers");
  EXPECT_EQ(w[4].pod_sets[1].count, 4);
  EXPECT_EQ(w[5].kind, "PyTorchJob");
  ASSERT_EQ(w[5].pod_sets.size(), 2u);
  EXPECT_EQ(w[5].pod_sets[0].name, "master");  // Master first, whatever the key order
  EXPECT_EQ(w[5].pod_sets[0].count, 1);
  EXPECT_EQ(w[5].pod_sets[1].name, "worker");
  EXPECT_EQ(w[5].pod_sets[1].count, 2);
  EXPECT_EQ(w[6].kind, "LeaderWorkerSet");
  ASSERT_EQ(w[6].pod_sets.size(), 2u);
  EXPECT_EQ(w[6].pod_sets[0].name, "leader");
  EXPECT_EQ(w[6].pod_sets[0].count, 2);
  EXPECT_EQ(w[6].pod_sets[1].name, "worker");
  EXPECT_EQ(w[6].pod_sets[1].count, 4);
  for (const model::WorkloadObject& workload : w) {
    EXPECT_EQ(workload.meta.namespace_, "team-a");
    for (const model::PodSetTemplate& set : workload.pod_sets) {
      EXPECT_EQ(set.pod_template.meta.name, "");
      EXPECT_EQ(set.pod_template.meta.namespace_, "team-a");
    }
  }
}

TEST_F(AllKindsTest, DecodesSchedulerConfiguration) {
  ASSERT_TRUE(Snap().scheduler_config.has_value());
  const model::SchedulerConfig& config = *Snap().scheduler_config;
  ASSERT_EQ(config.profiles.size(), 2u);
  const model::SchedulerProfile& p = config.profiles[0];
  EXPECT_EQ(p.scheduler_name, "default-scheduler");
  std::map<std::string, int32_t> weights = {{"NodeResourcesFit", 5}, {"TaintToleration", 1}};
  EXPECT_EQ(p.score_weights, weights);
  EXPECT_EQ(p.disabled_filters, std::set<std::string>{"NodePorts"});
  EXPECT_EQ(p.fit_strategy.type, model::ScoringStrategyType::kRequestedToCapacityRatio);
  ASSERT_EQ(p.fit_strategy.resources.size(), 2u);
  EXPECT_EQ(p.fit_strategy.resources[0].name, "nvidia.com/gpu");
  EXPECT_EQ(p.fit_strategy.resources[0].weight, 3);
  EXPECT_EQ(p.fit_strategy.resources[1].weight, 1);
  ASSERT_EQ(p.fit_strategy.shape.size(), 2u);
  EXPECT_EQ(p.fit_strategy.shape[1].utilization, 100);
  EXPECT_EQ(p.fit_strategy.shape[1].score, 10);
  ASSERT_EQ(p.balanced_resources.size(), 1u);
  EXPECT_EQ(p.balanced_resources[0].weight, 2);
  // The second profile keeps every default.
  const model::SchedulerProfile& gpu = config.profiles[1];
  EXPECT_EQ(gpu.scheduler_name, "gpu-scheduler");
  EXPECT_EQ(gpu.score_weights, model::SchedulerProfile{}.score_weights);
  EXPECT_EQ(gpu.fit_strategy.type, model::ScoringStrategyType::kLeastAllocated);
}

TEST(SchedulerConfigTest, MissingProfilesMeansDefaults) {
  core::Diagnostics diags;
  Input in = ReadString(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_TRUE(in.snapshot.scheduler_config.has_value());
  ASSERT_EQ(in.snapshot.scheduler_config->profiles.size(), 1u);
  EXPECT_EQ(in.snapshot.scheduler_config->profiles[0].scheduler_name, "default-scheduler");
}

TEST(SchedulerConfigTest, RequestedToCapacityRatioDefaultsItsShape) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
- schedulerName: rtc
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  const auto& profiles = in.snapshot.scheduler_config->profiles;
  ASSERT_EQ(profiles.size(), 2u);
  EXPECT_EQ(profiles[0].fit_strategy.type, model::ScoringStrategyType::kMostAllocated);
  ASSERT_EQ(profiles[0].fit_strategy.resources.size(), 2u);  // cpu and memory by default
  ASSERT_EQ(profiles[1].fit_strategy.shape.size(), 2u);
  EXPECT_EQ(profiles[1].fit_strategy.shape[0].score, 10);
}

TEST(SchedulerConfigTest, BadStrategyIsAnErrorWithItsField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: Fastest
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u);
  const core::Location& loc = diags.entries()[0].error.location();
  EXPECT_EQ(loc.object, "KubeSchedulerConfiguration");
  EXPECT_EQ(loc.field, "profiles[0].pluginConfig[0].args.scoringStrategy.type");
  EXPECT_FALSE(in.snapshot.scheduler_config.has_value());
}

TEST(ReaderTest, ReadsKubectlListWithNestedTypedList) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("list.json")).ok());
  Input in = reader.Finish();
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  ASSERT_EQ(in.snapshot.nodes.size(), 1u);
  ASSERT_EQ(in.snapshot.pods.size(), 1u);
  EXPECT_EQ(in.snapshot.pods[0].meta.namespace_, "ns");
  EXPECT_EQ(Amount(in.snapshot, in.snapshot.pods[0].containers[0].requests, "cpu"), 1500);
  EXPECT_EQ(in.documents.size(), 2u);
  const Document& doc = in.documents.Get(in.snapshot.pods[0].source);
  EXPECT_EQ(doc.kind, "Pod");
  EXPECT_EQ(doc.name, "p1");
  EXPECT_EQ(doc.namespace_, "ns");
  EXPECT_THAT(doc.file, HasSubstr("list.json"));
  EXPECT_EQ(doc.json,
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","namespace":"ns"},)"
            R"("spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1500m"}}}]}})");
}

TEST(ReaderTest, ReadsJsonStream) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("stream.json")).ok());
  Input in = reader.Finish();
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  EXPECT_THAT(PodNames(in.snapshot), ElementsAre("s1", "s2"));
}

TEST(ReaderTest, ReadsTopLevelJsonArrayAndYamlSequence) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(R"([{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}])", "x.json");
  reader.ReadText("- apiVersion: v1\n  kind: Namespace\n  metadata: {name: b}\n", "x.yaml");
  Input in = reader.Finish();
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  ASSERT_EQ(in.snapshot.namespaces.size(), 2u);
  EXPECT_EQ(in.snapshot.namespaces[1].meta.name, "b");
}

TEST(ReaderTest, ReadsDirectoryRecursivelyInPathOrder) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("tree")).ok());
  Input in = reader.Finish();
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  std::vector<std::string> names;
  for (const model::Namespace& ns : in.snapshot.namespaces) names.push_back(ns.meta.name);
  // tree/a/b/deep.yaml < tree/a/first.json < tree/z.yml; notes.txt is not an input file.
  EXPECT_THAT(names, ElementsAre("ns-deep", "ns-first", "ns-z"));
  EXPECT_THAT(in.documents.Get(in.snapshot.namespaces[0].source).file,
              HasSubstr("tree/a/b/deep.yaml"));
}

TEST(ReaderTest, MissingPathIsNotFound) {
  core::Diagnostics diags;
  Reader reader(diags);
  core::Status status = reader.ReadPath(FixturePath("does-not-exist.yaml"));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code(), core::ErrorCode::kNotFound);
  EXPECT_THAT(status.error().location().file, HasSubstr("does-not-exist.yaml"));
}

TEST(ReaderTest, EmptyInputsReadNothing) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText("", "empty.yaml");
  reader.ReadText("---\n# only a comment\n---\n", "comments.yaml");
  reader.ReadText("  \n\t", "blank.json");
  Input in = reader.Finish();
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  EXPECT_EQ(in.objects_read, 0u);
}

TEST(ReaderTest, UnknownKindsAreCountedAcrossFiles) {
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText("apiVersion: x.io/v1\nkind: Bar\n---\napiVersion: v2\nkind: Pod\n", "a.yaml");
  reader.ReadText("apiVersion: x.io/v1\nkind: Bar\n", "b.yaml");
  Input in = reader.Finish();
  ASSERT_EQ(diags.entries().size(), 2u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(), "skipped 2 objects of unknown kind Bar (x.io/v1)");
  EXPECT_EQ(diags.entries()[0].error.location().file, "a.yaml");
  EXPECT_EQ(diags.entries()[1].error.message(), "skipped 1 object of unknown kind Pod (v2)");
  EXPECT_FALSE(diags.has_errors());
}

TEST(ReaderTest, ClusterFromOptionsThenAnnotationThenDefault) {
  const char* text = R"(
apiVersion: v1
kind: Node
metadata:
  name: annotated
  annotations:
    berth.dev/cluster: east
---
apiVersion: v1
kind: Node
metadata:
  name: plain
)";
  core::Diagnostics diags;
  Reader reader(diags);
  reader.ReadText(text, "a.yaml");
  ReadOptions options;
  options.cluster = "west";
  reader.ReadText(text, "b.yaml", options);
  Input in = reader.Finish();
  ASSERT_EQ(in.snapshot.nodes.size(), 4u);
  EXPECT_EQ(in.snapshot.nodes[0].cluster, "east");
  EXPECT_EQ(in.snapshot.nodes[1].cluster, "default");
  EXPECT_EQ(in.snapshot.nodes[2].cluster, "west");
  EXPECT_EQ(in.snapshot.nodes[3].cluster, "west");
}

// Every bad object is reported with file, object and field; the good ones still load.
class BadObjectsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reader reader(diags_);
    ASSERT_TRUE(reader.ReadPath(FixturePath("bad_objects.yaml")).ok());
    input_ = reader.Finish();
  }
  // The error reported for `object`, or nullptr.
  const core::Error* ErrorFor(const std::string& object) const {
    for (const core::Diagnostic& d : diags_.entries()) {
      if (d.error.location().object == object) return &d.error;
    }
    return nullptr;
  }
  void ExpectField(const std::string& object, const std::string& field,
                   const std::string& message_part) const {
    const core::Error* e = ErrorFor(object);
    ASSERT_NE(e, nullptr) << object << "\n" << Dump(diags_);
    EXPECT_THAT(e->location().file, HasSubstr("bad_objects.yaml"));
    EXPECT_EQ(e->location().field, field) << object;
    EXPECT_THAT(e->message(), HasSubstr(message_part)) << object;
  }

  core::Diagnostics diags_;
  Input input_;
};

TEST_F(BadObjectsTest, GoodPodsStillLoad) {
  EXPECT_THAT(PodNames(input_.snapshot), ElementsAre("good-1", "good-2"));
  EXPECT_EQ(diags_.error_count(), 8u) << Dump(diags_);
}

TEST_F(BadObjectsTest, MalformedQuantity) {
  ExpectField("Pod/default/bad-cpu", "spec.containers[0].resources.requests.cpu", "");
}

TEST_F(BadObjectsTest, NegativeExtendedResource) {
  ExpectField("Pod/ml/negative-gpu", "spec.containers[1].resources.limits[nvidia.com/gpu]",
              "greater than or equal to 0");
}

TEST_F(BadObjectsTest, QuantityOverflow) {
  ExpectField("Pod/default/huge-memory", "spec.initContainers[0].resources.requests.memory", "");
  EXPECT_EQ(ErrorFor("Pod/default/huge-memory")->code(), core::ErrorCode::kOutOfRange);
}

// A nameless object is named by its place in the file.
TEST_F(BadObjectsTest, MissingName) {
  ExpectField("document 5 (line 46): Pod", "metadata.name", "required");
}

TEST_F(BadObjectsTest, MissingContainers) {
  ExpectField("Pod/default/no-containers", "spec.containers", "required");
}

TEST_F(BadObjectsTest, FractionalExtendedResource) {
  ExpectField("Pod/default/half-gpu", "spec.containers[0].resources.requests[nvidia.com/gpu]",
              "must be an integer");
}

TEST_F(BadObjectsTest, ExtendedRequestMustEqualLimit) {
  ExpectField("Pod/default/gpu-mismatch", "spec.containers[0].resources.requests[nvidia.com/gpu]",
              "must be equal to nvidia.com/gpu limit of 2");
}

TEST_F(BadObjectsTest, MissingPriorityClass) {
  ExpectField("Pod/default/missing-class", "spec.priorityClassName",
              "no PriorityClass with name nope was found");
  EXPECT_EQ(ErrorFor("Pod/default/missing-class")->code(), core::ErrorCode::kNotFound);
}

TEST(ReaderErrorsTest, RequestAboveLimitIsAnError) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.containers[0].resources.requests.cpu");
  EXPECT_THAT(diags.entries()[0].error.message(), HasSubstr("less than or equal to cpu limit"));
  EXPECT_TRUE(in.snapshot.pods.empty());
}

TEST(ReaderErrorsTest, WrongTypesNameTheField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata:
  name: p
  labels:
    version: 1
spec:
  containers: [{name: c}]
---
apiVersion: v1
kind: Node
metadata: {name: n}
spec:
  taints:
  - key: k
    effect: Sometimes
---
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  containers: [{name: c}]
  tolerations:
  - key: k
    operator: Maybe
---
apiVersion: v1
kind: Pod
metadata: {name: r}
spec:
  containers: [{name: c}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: a, operator: Near, values: [x]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 4u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field, "metadata.labels.version");
  EXPECT_EQ(diags.entries()[1].error.location().object, "Node/n");
  EXPECT_EQ(diags.entries()[1].error.location().field, "spec.taints[0].effect");
  EXPECT_EQ(diags.entries()[2].error.location().field, "spec.tolerations[0].operator");
  EXPECT_EQ(diags.entries()[3].error.location().field,
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
            "nodeSelectorTerms[0].matchExpressions[0].operator");
  EXPECT_TRUE(in.snapshot.pods.empty());
  EXPECT_TRUE(in.snapshot.nodes.empty());
}

TEST(ReaderErrorsTest, MalformedYamlKeepsEarlierDocumentsAndOtherFiles) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("malformed.yaml")).ok());
  reader.ReadText("apiVersion: v1\nkind: Namespace\nmetadata: {name: other-file}\n", "ok.yaml");
  Input in = reader.Finish();
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_THAT(e.location().file, HasSubstr("malformed.yaml"));
  EXPECT_THAT(e.message(), HasSubstr("line "));
  EXPECT_EQ(e.location().object, "document 2 (line 5)");
  // Documents are parsed one by one: the one after the broken one is read too.
  std::vector<std::string> names;
  for (const model::Namespace& ns : in.snapshot.namespaces) names.push_back(ns.meta.name);
  EXPECT_THAT(names, ElementsAre("before-error", "after-error", "other-file"));
}

TEST(ReaderErrorsTest, MalformedJsonReportsTheLine) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("malformed.json")).ok());
  Input in = reader.Finish();
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_THAT(e.location().file, HasSubstr("malformed.json"));
  EXPECT_THAT(e.message(), HasSubstr("line 6, column 3"));
  EXPECT_TRUE(in.snapshot.namespaces.empty());
}

TEST(ReaderErrorsTest, MalformedJsonStreamKeepsEarlierDocuments) {
  core::Diagnostics diags;
  Input in = ReadString(
      "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"a\"}}\n"
      "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"b\"}}\n"
      "{\"apiVersion\":\"v1\",\"kind\":",
      diags, "s.json");
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().file, "s.json");
  EXPECT_EQ(in.snapshot.namespaces.size(), 2u);
}

TEST(ReaderErrorsTest, DocumentThatIsNotAnObject) {
  core::Diagnostics diags;
  Input in = ReadString(
      "just a string\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n", diags);
  EXPECT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(in.snapshot.namespaces.size(), 1u);
}

TEST(ReaderErrorsTest, SecondSchedulerConfigurationIsAnError) {
  core::Diagnostics diags;
  const char* config =
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles: [{schedulerName: first}]\n---\n"
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles: [{schedulerName: second}]\n";
  Input in = ReadString(config, diags);
  EXPECT_EQ(diags.error_count(), 1u) << Dump(diags);
  ASSERT_TRUE(in.snapshot.scheduler_config.has_value());
  EXPECT_EQ(in.snapshot.scheduler_config->profiles[0].scheduler_name, "first");
}

TEST(ReaderTest, YamlTypingFollowsTheCoreSchema) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata:
  name: typed
  labels:
    quoted-number: "123"
    quoted-bool: 'true'
    yes-is-a-string: yes
    float-looking: "1.10"
spec:
  containers:
  - name: c
    resources:
      requests:
        cpu: 0.1
        memory: 1.5Gi
        example.com/foo: 0x10
)",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << Dump(diags);
  const model::Pod* pod = FindPod(in.snapshot, "default", "typed");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->meta.labels.at("quoted-number"), "123");
  EXPECT_EQ(pod->meta.labels.at("quoted-bool"), "true");
  EXPECT_EQ(pod->meta.labels.at("yes-is-a-string"), "yes");
  EXPECT_EQ(pod->meta.labels.at("float-looking"), "1.10");
  EXPECT_EQ(Amount(in.snapshot, pod->containers[0].requests, "cpu"), 100);
  EXPECT_EQ(Amount(in.snapshot, pod->containers[0].requests, "memory"), 1610612736);
  EXPECT_EQ(Amount(in.snapshot, pod->containers[0].requests, "example.com/foo"), 16);
}

TEST(ReaderTest, MemoryRoundsUpToWholeBytes) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    resources: {requests: {memory: 1500m, cpu: 1m}}
)",
                        diags);
  ASSERT_EQ(in.snapshot.pods.size(), 1u) << Dump(diags);
  EXPECT_EQ(Amount(in.snapshot, in.snapshot.pods[0].containers[0].requests, "memory"), 2);
  EXPECT_EQ(Amount(in.snapshot, in.snapshot.pods[0].containers[0].requests, "cpu"), 1);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
