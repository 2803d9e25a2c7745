#!/usr/bin/env python3
# Generates input/cluster.yaml of the busy-cluster-realism e2e cases (converted with
# yaml.safe_dump(sort_keys=False)); the -cycles-1 case shares the same input.
"""A real-looking `kubectl get -A -o yaml` List of a busy GPU cluster, exercising issue 18:
priorities and preemption (with PDBs), quotas, limit ranges, volumes, runtime classes, host ports.
Usage: busy_gen.py > busy.yaml"""
import json, sys, uuid, random

rnd = random.Random(7)
items = []


def meta(name, ns=None, labels=None, annotations=None, created="2026-11-20T10:00:00Z"):
    m = {"name": name, "uid": str(uuid.UUID(int=rnd.getrandbits(128))),
         "resourceVersion": str(rnd.randint(100000, 999999)), "creationTimestamp": created,
         "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update",
                            "apiVersion": "v1", "time": created, "fieldsType": "FieldsV1",
                            "fieldsV1": {"f:metadata": {"f:labels": {}}}}]}
    if ns: m["namespace"] = ns
    if labels: m["labels"] = labels
    if annotations: m["annotations"] = annotations
    return m


def add(api, kind, **kw):
    o = {"apiVersion": api, "kind": kind}
    o.update(kw)
    items.append(o)


for ns in ["kube-system", "monitoring", "prod-inference", "research", "team-a", "team-b", "data"]:
    add("v1", "Namespace", metadata=meta(ns, labels={"kubernetes.io/metadata.name": ns}),
        spec={"finalizers": ["kubernetes"]}, status={"phase": "Active"})

add("scheduling.k8s.io/v1", "PriorityClass", metadata=meta("prod-critical"), value=100000,
    preemptionPolicy="PreemptLowerPriority", description="production inference")
add("scheduling.k8s.io/v1", "PriorityClass", metadata=meta("research"), value=1000,
    description="research training")
add("scheduling.k8s.io/v1", "PriorityClass", metadata=meta("batch-low"), value=100,
    preemptionPolicy="Never", description="opportunistic batch")

zones = ["us-east-1a", "us-east-1b"]
gpu_nodes = []
for i in range(24):
    name = f"gpu-a100-{i:02d}"
    gpu_nodes.append(name)
    z = zones[i % 2]
    add("v1", "Node", metadata=meta(name, labels={
        "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
        "node.kubernetes.io/instance-type": "p4d.24xlarge", "topology.kubernetes.io/zone": z,
        "topology.kubernetes.io/region": "us-east-1",
        "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.count": "8",
        "nvidia.com/gpu.memory": "40960", "nvidia.com/cuda.driver.major": "550"}),
        spec={"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
              "providerID": f"aws:///{z}/i-{i:017x}"},
        status={"capacity": {"cpu": "96", "memory": "1152Gi", "pods": "110", "nvidia.com/gpu": "8",
                             "ephemeral-storage": "7500Gi"},
                "allocatable": {"cpu": "95690m", "memory": "1130Gi", "pods": "110",
                                "nvidia.com/gpu": "8", "ephemeral-storage": "6900Gi"},
                "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                                "lastTransitionTime": "2026-11-20T10:05:00Z"}],
                "nodeInfo": {"kubeletVersion": "v1.32.3", "containerRuntimeVersion": "containerd://1.7.27",
                             "osImage": "Amazon Linux 2", "kernelVersion": "5.10.234"}})
    add("storage.k8s.io/v1", "CSINode", metadata=meta(name),
        spec={"drivers": [{"name": "ebs.csi.aws.com", "nodeID": f"i-{i:017x}",
                           "allocatable": {"count": 2},
                           "topologyKeys": ["topology.kubernetes.io/zone"]}]})
for i in range(8):
    name = f"cpu-m6i-{i:02d}"
    add("v1", "Node", metadata=meta(name, labels={
        "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "m6i.8xlarge", "topology.kubernetes.io/zone": zones[i % 2],
        "topology.kubernetes.io/region": "us-east-1"}),
        spec={}, status={"allocatable": {"cpu": "31750m", "memory": "120Gi", "pods": "58"},
                         "conditions": [{"type": "Ready", "status": "True"}]})

# node-exporter on every node, hostPort 9100.
for n in gpu_nodes + [f"cpu-m6i-{i:02d}" for i in range(8)]:
    add("v1", "Pod", metadata=meta(f"node-exporter-{n[-5:]}", "monitoring",
                                   labels={"app": "node-exporter"}),
        spec={"nodeName": n, "hostNetwork": True, "priorityClassName": "system-node-critical",
              "priority": 2000001000,
              "tolerations": [{"operator": "Exists"}],
              "containers": [{"name": "node-exporter", "image": "quay.io/prometheus/node-exporter:v1.8.2",
                              "ports": [{"containerPort": 9100, "hostPort": 9100, "protocol": "TCP", "name": "metrics"}],
                              "resources": {"requests": {"cpu": "100m", "memory": "180Mi"}}}]},
        status={"phase": "Running", "startTime": "2026-11-20T10:06:00Z"})

# research training: 6 GPUs busy on every GPU node, started at different times, a PDB on half.
for i, n in enumerate(gpu_nodes):
    app = "llm-pretrain" if i < 12 else "vision-sweep"
    add("v1", "Pod", metadata=meta(f"{app}-{i:02d}", "research", labels={"app": app},
                                   created=f"2026-11-30T{8 + i % 10:02d}:00:00Z"),
        spec={"nodeName": n, "priorityClassName": "research", "priority": 1000,
              "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
              "containers": [{"name": "trainer", "image": "ghcr.io/example/train:2026.11",
                              "resources": {"requests": {"cpu": "48", "memory": "600Gi", "nvidia.com/gpu": "6"},
                                            "limits": {"nvidia.com/gpu": "6"}}}]},
        status={"phase": "Running", "startTime": f"2026-11-30T{8 + i % 10:02d}:00:30Z",
                "conditions": [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "True"}]})
add("policy/v1", "PodDisruptionBudget", metadata=meta("llm-pretrain", "research"),
    spec={"minAvailable": 12, "selector": {"matchLabels": {"app": "llm-pretrain"}}},
    status={"currentHealthy": 12, "desiredHealthy": 12, "disruptionsAllowed": 0, "expectedPods": 12})

# production inference that needs 4 GPUs per replica: only fits by preemption.
add("node.k8s.io/v1", "RuntimeClass", metadata=meta("nvidia"), handler="nvidia",
    overhead={"podFixed": {"cpu": "250m", "memory": "512Mi"}},
    scheduling={"nodeSelector": {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB"},
                "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]})
add("apps/v1", "Deployment", metadata=meta("llama-70b", "prod-inference", labels={"app": "llama-70b"}),
    spec={"replicas": 4, "selector": {"matchLabels": {"app": "llama-70b"}},
          "template": {"metadata": {"labels": {"app": "llama-70b"}},
                       "spec": {"priorityClassName": "prod-critical", "runtimeClassName": "nvidia",
                                "containers": [{"name": "vllm", "image": "vllm/vllm-openai:v0.6.4",
                                                "ports": [{"containerPort": 8000}],
                                                "resources": {"requests": {"cpu": "16", "memory": "200Gi", "nvidia.com/gpu": "4"},
                                                              "limits": {"nvidia.com/gpu": "4"}}}]}}},
    status={"replicas": 0})

# team-a: GPU quota 4 with 0 used; a Job of 3 pods x 2 GPUs: the third is forbidden.
add("v1", "ResourceQuota", metadata=meta("gpu-quota", "team-a"),
    spec={"hard": {"requests.nvidia.com/gpu": "4", "pods": "20"}},
    status={"hard": {"requests.nvidia.com/gpu": "4", "pods": "20"},
            "used": {"requests.nvidia.com/gpu": "0", "pods": "0"}})
add("batch/v1", "Job", metadata=meta("finetune", "team-a"),
    spec={"parallelism": 3, "completions": 3, "completionMode": "Indexed",
          "template": {"spec": {"restartPolicy": "Never", "priorityClassName": "batch-low",
                                "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
                                "containers": [{"name": "t", "image": "x", "resources": {
                                    "requests": {"cpu": "4", "memory": "32Gi", "nvidia.com/gpu": "2"},
                                    "limits": {"nvidia.com/gpu": "2"}}}]}}})

# team-b: a LimitRange with defaults and a max the second job exceeds.
add("v1", "LimitRange", metadata=meta("defaults", "team-b"),
    spec={"limits": [{"type": "Container", "default": {"cpu": "2", "memory": "4Gi"},
                      "defaultRequest": {"cpu": "1", "memory": "2Gi"},
                      "max": {"cpu": "8", "memory": "64Gi"}}]})
add("batch/v1", "Job", metadata=meta("etl", "team-b"),
    spec={"parallelism": 2, "completions": 2,
          "template": {"spec": {"restartPolicy": "Never",
                                "containers": [{"name": "etl", "image": "x"}]}}})
add("batch/v1", "Job", metadata=meta("too-big", "team-b"),
    spec={"template": {"spec": {"restartPolicy": "Never",
                                "containers": [{"name": "x", "image": "x",
                                                "resources": {"limits": {"cpu": "16"}}}]}}})

# data: a local-storage class (WFFC) with PVs on two GPU nodes, and a pod claiming one.
add("storage.k8s.io/v1", "StorageClass", metadata=meta("local-nvme"),
    provisioner="kubernetes.io/no-provisioner", volumeBindingMode="WaitForFirstConsumer",
    reclaimPolicy="Retain")
add("storage.k8s.io/v1", "StorageClass", metadata=meta("gp3", annotations={
    "storageclass.kubernetes.io/is-default-class": "true"}),
    provisioner="ebs.csi.aws.com", volumeBindingMode="WaitForFirstConsumer")
for n in ["gpu-a100-05", "gpu-a100-06"]:
    add("v1", "PersistentVolume", metadata=meta(f"local-pv-{n}"),
        spec={"capacity": {"storage": "3500Gi"}, "accessModes": ["ReadWriteOnce"],
              "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "local-nvme",
              "local": {"path": "/mnt/nvme0"},
              "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                  {"key": "kubernetes.io/hostname", "operator": "In", "values": [n]}]}]}}},
        status={"phase": "Available"})
add("v1", "PersistentVolumeClaim", metadata=meta("shards", "data"),
    spec={"accessModes": ["ReadWriteOnce"], "storageClassName": "local-nvme",
          "resources": {"requests": {"storage": "2Ti"}}, "volumeMode": "Filesystem"},
    status={"phase": "Pending"})
add("v1", "Pod", metadata=meta("shard-indexer", "data"),
    spec={"priorityClassName": "batch-low",
          "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
          "containers": [{"name": "idx", "image": "x", "resources": {"requests": {"cpu": "8", "memory": "16Gi"}},
                          "volumeMounts": [{"name": "d", "mountPath": "/data"}]}],
          "volumes": [{"name": "d", "persistentVolumeClaim": {"claimName": "shards"}}]},
    status={"phase": "Pending"})
add("v1", "PersistentVolumeClaim", metadata=meta("scratch", "data"),
    spec={"accessModes": ["ReadWriteOnce"], "storageClassName": "fast-io",
          "resources": {"requests": {"storage": "100Gi"}}},
    status={"phase": "Pending"})
add("v1", "Pod", metadata=meta("scratch-user", "data"),
    spec={"containers": [{"name": "u", "image": "x", "resources": {"requests": {"cpu": "1"}}}],
          "volumes": [{"name": "s", "persistentVolumeClaim": {"claimName": "scratch"}}]},
    status={"phase": "Pending"})

# a second exporter pod that wants hostPort 9100 on a pinned node: conflicts.
add("v1", "Pod", metadata=meta("debug-exporter", "monitoring"),
    spec={"nodeSelector": {"kubernetes.io/hostname": "cpu-m6i-00"},
          "containers": [{"name": "e", "image": "x", "ports": [{"containerPort": 9100, "hostPort": 9100}],
                          "resources": {"requests": {"cpu": "100m"}}}]},
    status={"phase": "Pending"})

json.dump({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items},
          sys.stdout, indent=1)
