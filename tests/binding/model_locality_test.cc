// berth.dev/ModelLocality the way `berth plan` gets it: objects read by io (nodes with cache
// labels, pods naming models by annotation, a KServe predictor pod, a pod mounting a Fluid
// Dataset's PVC), a KubeSchedulerConfiguration enabling the plugin, binding's Scheduler.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "binding/plugins/model_locality.h"
#include "binding/scheduler.h"
#include "binding_test_util.h"
#include "core/diagnostics.h"
#include "io/reader.h"

namespace berth::binding {
namespace BERTH_UNITY_ID {

// Three equal nodes; "warm" holds llama (140Gi) and the corpus dataset's cache, "half"
// holds only the small tokenizer model (10Gi), "cold" nothing.
constexpr std::string_view kNodes = R"(
apiVersion: v1
kind: Node
metadata:
  name: cold
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "8"}
---
apiVersion: v1
kind: Node
metadata:
  name: half
  labels: {models.cache.berth.dev/tokenizer: "true", models.cache.berth.dev/llama: "false"}
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "8"}
---
apiVersion: v1
kind: Node
metadata:
  name: warm
  labels: {models.cache.berth.dev/llama: "true", fluid.io/s-ml-corpus: "true"}
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "8"}
)";

constexpr std::string_view kPods = R"(
apiVersion: v1
kind: Pod
metadata:
  name: annotated
  namespace: ml
  annotations: {berth.dev/models: "llama=140Gi, tokenizer=10Gi"}
spec:
  containers:
  - {name: c, image: vllm, resources: {requests: {cpu: "1", nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: tokenizer-only
  namespace: ml
  annotations: {berth.dev/models: tokenizer}
spec:
  containers:
  - {name: c, image: vllm, resources: {requests: {cpu: "1"}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: trainer
  namespace: ml
spec:
  containers:
  - {name: c, image: trainer, resources: {requests: {cpu: "1"}}}
  volumes:
  - name: data
    persistentVolumeClaim: {claimName: corpus}
---
apiVersion: v1
kind: Pod
metadata:
  name: plain
  namespace: ml
spec:
  containers:
  - {name: c, image: trainer, resources: {requests: {cpu: "1"}}}
---
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {name: corpus, namespace: ml}
spec:
  mounts:
  - mountPoint: s3://bucket/corpus
status:
  ufsTotal: 2.00TiB
---
apiVersion: data.fluid.io/v1alpha1
kind: AlluxioRuntime
metadata: {name: corpus, namespace: ml}
spec:
  replicas: 1
  tieredstore:
    levels:
    - {mediumtype: SSD, path: /cache, quota: 1Ti}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: corpus, namespace: ml}
spec:
  accessModes: [ReadOnlyMany]
  resources: {requests: {storage: 100Gi}}
  volumeName: ml-corpus
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: ml-corpus}
spec:
  accessModes: [ReadOnlyMany]
  capacity: {storage: 100Gi}
  claimRef: {name: corpus, namespace: ml}
  csi: {driver: fuse.csi.fluid.io, volumeHandle: ml-corpus}
status: {phase: Bound}
)";

// The objects with a KubeSchedulerConfiguration whose profile weighs ModelLocality at
// `weight` (0: the default profile, without it).
model::Snapshot ReadAll(int weight) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(kNodes, "nodes.yaml");
  reader.ReadText(kPods, "pods.yaml");
  if (weight > 0) {
    reader.ReadText(
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "profiles:\n"
        "- schedulerName: default-scheduler\n"
        "  plugins:\n    score:\n      enabled:\n"
        "      - name: berth.dev/ModelLocality\n        weight: " +
            std::to_string(weight) + "\n",
        "scheduler-config.yaml");
  }
  io::Input input = reader.Finish();
  for (const core::Diagnostic& d : diags.entries()) {
    EXPECT_NE(d.severity, core::Severity::kError) << d.error.message();
  }
  return std::move(input.snapshot);
}

size_t PodNamed(const model::Snapshot& snap, std::string_view name) {
  for (size_t i = 0; i < snap.pods.size(); ++i) {
    if (snap.pods[i].meta.name == name) return i;
  }
  ADD_FAILURE() << "no pod " << name;
  return 0;
}

std::vector<int64_t> RawScores(const model::Snapshot& snap, std::string_view pod) {
  Scheduler scheduler(snap, snap.scheduler_config.value_or(model::SchedulerConfig{}));
  PodExplanation e = scheduler.Explain(model::PodIndex{static_cast<int32_t>(PodNamed(snap, pod))});
  return {RawScore(e, snap, "cold", kModelLocality), RawScore(e, snap, "half", kModelLocality),
          RawScore(e, snap, "warm", kModelLocality)};
}

TEST(ModelLocalityTest, ScoresByTheShareOfBytesTheNodeHolds) {
  model::Snapshot snap = ReadAll(3);
  // 140Gi + 10Gi: warm holds 140/150 -> trunc(93.3) = 93, half 10/150 -> 6 ("false" is not
  // held), cold 0.
  EXPECT_EQ(RawScores(snap, "annotated"), (std::vector<int64_t>{0, 6, 93}));
  // One unsized model: all or nothing.
  EXPECT_EQ(RawScores(snap, "tokenizer-only"), (std::vector<int64_t>{0, 100, 0}));
  // The Fluid dataset behind the pod's PVC, by Fluid's node label.
  EXPECT_EQ(RawScores(snap, "trainer"), (std::vector<int64_t>{0, 0, 100}));
  // Nothing to score: PreScore skips, no node gets a term.
  EXPECT_EQ(RawScores(snap, "plain"), (std::vector<int64_t>{-1, -1, -1}));
}

TEST(ModelLocalityTest, WeighedOnlyWhenTheProfileEnablesIt) {
  model::Snapshot snap = ReadAll(0);
  EXPECT_EQ(RawScores(snap, "annotated"), (std::vector<int64_t>{-1, -1, -1}));
}

TEST(ModelLocalityTest, PodsLandWhereTheirArtifactsAreCached) {
  model::Snapshot snap = ReadAll(10);
  Scheduler scheduler(snap, *snap.scheduler_config);
  std::vector<std::string> bound;
  for (const model::PodDecision& d : scheduler.ScheduleAll()) {
    bound.push_back(snap.pods[static_cast<size_t>(d.pod.v)].meta.name + "->" + BoundTo(snap, d));
  }
  std::sort(bound.begin(), bound.end());
  EXPECT_EQ(bound, (std::vector<std::string>{"annotated->warm", "plain->cold",
                                             "tokenizer-only->half", "trainer->warm"}));
}

TEST(ModelLocalityTest, PodArtifactsOfAPredictorPodComeFromItsInferenceService) {
  model::Snapshot snap;
  model::InferenceServiceModel m;
  m.meta.name = "llm";
  m.meta.namespace_ = "serve";
  m.storage.path = "Meta-Llama-3-8B";
  m.size_bytes = 16LL << 30;
  snap.inference_services.push_back(m);
  model::Pod pod;
  pod.meta.namespace_ = "serve";
  pod.meta.labels["serving.kserve.io/inferenceservice"] = "llm";
  // The annotation names the same model: it counts once.
  pod.meta.annotations["berth.dev/models"] = "meta-llama-3-8b, bad=not-a-size";
  std::vector<PodArtifact> a = PodArtifacts(snap, pod);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].node_label, "models.cache.berth.dev/meta-llama-3-8b");
  EXPECT_EQ(a[0].bytes, 1);  // the annotation's entry came first, unsized
  EXPECT_EQ(a[1].node_label, "models.cache.berth.dev/bad");
  EXPECT_EQ(a[1].bytes, 1);  // a size that does not parse weighs 1
  // Another namespace's InferenceService of that name is not the pod's.
  pod.meta.annotations.clear();
  pod.meta.namespace_ = "other";
  EXPECT_TRUE(PodArtifacts(snap, pod).empty());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::binding
