// The rollout files use only what the demo already holds: the `serving` namespace on the
// hub and on every cluster, the gpu-fleet ManagedClusterSet and the clusters' region labels
// (eu-1 is the only eu-west one, so it is the canary group); short times (a 10 s soak, a
// one-second termination grace) keep the demo brisk, and tests/serve/fleet_rollout_e2e.py
// rolls these very files out. The Deployment uses Recreate so
// that a bad revision leaves no pod of the good one available, as a real image that cannot
// start would, and the health rule's `for` stays within minSuccessTime (docs/fleet.md).
#include "cli/up_try_files.h"

#include <filesystem>
#include <fstream>

namespace berth::cli {

namespace {

// A Job for the hub's team-a/training queue whose pods run five seconds on the member
// cluster (the simulated kubelet reads the annotation).
constexpr const char* kTryJob = R"(apiVersion: batch/v1
kind: Job
metadata:
  name: finetune-demo
  namespace: team-a
  labels:
    kueue.x-k8s.io/queue-name: training
spec:
  parallelism: 2
  completions: 2
  suspend: true
  template:
    metadata:
      annotations:
        berth.dev/simulated-duration: 5s
    spec:
      restartPolicy: Never
      containers:
      - name: trainer
        image: registry.example.com/llm-trainer:1.4
        resources:
          requests: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "2"}
          limits: {nvidia.com/gpu: "2"}
)";

constexpr const char* kRolloutHead = R"(# An inference Deployment on every demo cluster, rolled out canary group first (eu-1, the
# eu-west cluster), then the rest. Follow it with:
#   berth rollout status mwrs/llm-serve -n serving --context hub
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: gpu-fleet, namespace: serving}
spec: {clusterSet: gpu-fleet}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: llm, namespace: serving}
spec:
  clusterSets: [gpu-fleet]
  decisionStrategy:
    groupStrategy:
      decisionGroups:
      - groupName: canary
        groupClusterSelector:
          labelSelector:
            matchLabels: {region: eu-west}
---
apiVersion: work.open-cluster-management.io/v1alpha1
kind: ManifestWorkReplicaSet
metadata:
  name: llm-serve
  namespace: serving
  annotations:
)";

constexpr const char* kRolloutSpec = R"(    rollout.berth.dev/health: "AvailableReplicas >= 1 for 5s"
spec:
  placementRefs:
  - name: llm
    rolloutStrategy:
      type: ProgressivePerGroup
      progressivePerGroup:
        mandatoryDecisionGroups:
        - groupName: canary
        minSuccessTime: 10s
        progressDeadline: 2m
        maxFailures: 0
  manifestWorkTemplate:
    workload:
      manifests:
      - apiVersion: apps/v1
        kind: Deployment
        metadata: {name: llm-serve, namespace: serving}
        spec:
          replicas: 1
          strategy: {type: Recreate}
          selector:
            matchLabels: {app: llm-serve}
          template:
            metadata:
              labels: {app: llm-serve}
)";

constexpr const char* kRolloutTail = R"(            spec:
              terminationGracePeriodSeconds: 1
              containers:
              - name: vllm
                image: vllm/vllm-openai:IMAGE_TAG
                resources:
                  requests: {cpu: 500m, memory: 1Gi}
    manifestConfigs:
    - resourceIdentifier: {group: apps, resource: deployments, name: llm-serve, namespace: serving}
      feedbackRules:
      - type: WellKnownStatus
)";

std::string Rollout(const std::string& tag, bool crashloop) {
  std::string text = kRolloutHead;
  text += "    kubernetes.io/change-cause: \"vllm " + tag + "\"\n";
  text += kRolloutSpec;
  if (crashloop) {
    // The simulated kubelet's crash loop: the pod never turns ready (src/server/member).
    text += "              annotations: {berth.dev/simulated-failure: crashloop}\n";
  }
  std::string tail = kRolloutTail;
  tail.replace(tail.find("IMAGE_TAG"), 9, "v" + tag);
  return text + tail;
}

core::Status Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return core::NotFound("cannot write " + path);
  return core::OkStatus();
}

}  // namespace

core::Result<TryFiles> WriteTryFiles(const std::string& dir) {
  namespace fs = std::filesystem;
  TryFiles files{(fs::path(dir) / "try-job.yaml").string(), (fs::path(dir) / "try-rollout.yaml").string(),
                 (fs::path(dir) / "try-rollout-bad.yaml").string()};
  BERTH_RETURN_IF_ERROR(Write(files.job, kTryJob));
  BERTH_RETURN_IF_ERROR(Write(files.rollout, Rollout("0.6.3", false)));
  BERTH_RETURN_IF_ERROR(Write(files.rollout_bad, Rollout("0.6.4-rc1", true)));
  return files;
}

}  // namespace berth::cli
