// The small fleet the plan target (plan_fuzz.cc) plans every input against: a GPU node of
// each of two models and a CPU node, a flavor per model, two ClusterQueues sharing a cohort
// with LocalQueues in two namespaces, and a PriorityClass. The input adds or overrides
// objects (workloads, pods, more queues), so a mutated workload always meets nodes and
// quota. Text, read by io's reader like any file.
#pragma once

namespace berth::fuzz {

inline constexpr const char kPlanFleetYaml[] = R"(apiVersion: v1
kind: Node
metadata:
  name: h100-1
  labels: {kubernetes.io/hostname: h100-1, nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
status:
  allocatable: {cpu: "96", memory: 1Ti, pods: "110", nvidia.com/gpu: "8"}
---
apiVersion: v1
kind: Node
metadata:
  name: a100-1
  labels: {kubernetes.io/hostname: a100-1, nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
spec:
  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "4"}
---
apiVersion: v1
kind: Node
metadata:
  name: cpu-1
  labels: {kubernetes.io/hostname: cpu-1}
status:
  allocatable: {cpu: "32", memory: 128Gi, pods: "110"}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: h100}
spec:
  nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: a100}
spec:
  nodeLabels: {nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB}
  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a}
spec:
  cohortName: gpus
  namespaceSelector: {}
  preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: h100
      resources:
      - {name: cpu, nominalQuota: "96"}
      - {name: memory, nominalQuota: 1Ti}
      - {name: nvidia.com/gpu, nominalQuota: "8"}
    - name: a100
      resources:
      - {name: cpu, nominalQuota: "64"}
      - {name: memory, nominalQuota: 512Gi}
      - {name: nvidia.com/gpu, nominalQuota: "4", borrowingLimit: "2"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-b}
spec:
  cohortName: gpus
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, memory, nvidia.com/gpu]
    flavors:
    - name: h100
      resources:
      - {name: cpu, nominalQuota: "32"}
      - {name: memory, nominalQuota: 256Gi}
      - {name: nvidia.com/gpu, nominalQuota: "2"}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: training, namespace: team-a}
spec: {clusterQueue: team-a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: training, namespace: team-b}
spec: {clusterQueue: team-b}
)";

}  // namespace berth::fuzz
