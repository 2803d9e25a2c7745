# Generates input/cluster.yaml (kubectl get -A -o yaml style) for this case:
#   python3 gen_cluster.py > input/cluster.yaml
import yaml, sys

def node(name, gpus, product, zone):
    labels = {
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "p5.48xlarge" if gpus else "m6i.8xlarge",
        "topology.kubernetes.io/region": "us-east-1", "topology.kubernetes.io/zone": zone,
    }
    cap = {"cpu": "96" if gpus else "32", "ephemeral-storage": "3836573508Ki",
           "hugepages-1Gi": "0", "hugepages-2Mi": "0",
           "memory": "2097152000Ki" if gpus else "131072000Ki", "pods": "110"}
    alloc = dict(cap); alloc["cpu"] = "95500m" if gpus else "31500m"
    alloc["memory"] = "2096000000Ki" if gpus else "130000000Ki"
    if gpus:
        labels["nvidia.com/gpu.count"] = str(gpus)
        labels["nvidia.com/gpu.product"] = product
        labels["nvidia.com/gpu.present"] = "true"
        cap["nvidia.com/gpu"] = str(gpus); alloc["nvidia.com/gpu"] = str(gpus)
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": "2026-10-01T06:00:00Z", "labels": labels,
            "managedFields": [
                {"apiVersion": "v1", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:kubernetes.io/hostname": {}}}},
                 "manager": "kubelet", "operation": "Update", "time": "2026-10-01T06:00:00Z"},
                {"apiVersion": "v1", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:status": {"f:allocatable": {"f:nvidia.com/gpu": {}} if gpus else {"f:cpu": {}}}},
                 "manager": "kubelet", "operation": "Update", "subresource": "status",
                 "time": "2026-11-30T12:00:00Z"}],
            "name": name, "resourceVersion": "88123" + str(len(name)), "uid": "node-uid-" + name},
        "spec": {"podCIDR": "10.244.%d.0/24" % len(name), "providerID": "aws:///" + zone + "/i-0" + name},
        "status": {
            "addresses": [{"address": "10.0.1.%d" % len(name), "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": alloc, "capacity": cap,
            "conditions": [
                {"lastHeartbeatTime": "2026-12-01T23:58:00Z", "lastTransitionTime": "2026-10-01T06:01:00Z",
                 "message": "kubelet has sufficient memory available", "reason": "KubeletHasSufficientMemory",
                 "status": "False", "type": "MemoryPressure"},
                {"lastHeartbeatTime": "2026-12-01T23:58:00Z", "lastTransitionTime": "2026-10-01T06:01:00Z",
                 "message": "kubelet is posting ready status", "reason": "KubeletReady",
                 "status": "True", "type": "Ready"}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {"architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.27",
                         "kernelVersion": "6.8.0-1021-aws", "kubeProxyVersion": "", "kubeletVersion": "v1.33.5",
                         "operatingSystem": "linux", "osImage": "Ubuntu 24.04.3 LTS"}}}

def container(name, image, cpu, mem, gpu):
    req = {"cpu": cpu, "memory": mem}
    c = {"image": image, "imagePullPolicy": "IfNotPresent", "name": name,
         "resources": {"requests": req},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if gpu:
        req["nvidia.com/gpu"] = str(gpu)
        c["resources"]["limits"] = {"nvidia.com/gpu": str(gpu)}
    return c

def podspec(c, restart="Never", node=None):
    s = {"containers": [c], "dnsPolicy": "ClusterFirst", "enableServiceLinks": True,
         "preemptionPolicy": "PreemptLowerPriority", "priority": 0, "restartPolicy": restart,
         "schedulerName": "default-scheduler", "securityContext": {}, "serviceAccountName": "default",
         "terminationGracePeriodSeconds": 30}
    if node: s["nodeName"] = node
    return s

def template(c, labels, restart="Never"):
    return {"metadata": {"labels": labels}, "spec": {
        "containers": [c], "restartPolicy": restart, "schedulerName": "default-scheduler"}}

def owner(api, kind, name, uid):
    return [{"apiVersion": api, "blockOwnerDeletion": True, "controller": True, "kind": kind, "name": name, "uid": uid}]

def pod(ns, name, uid, labels, owners, c, node, phase, restart="Never", annotations=None):
    md = {"creationTimestamp": "2026-12-01T20:00:00Z", "labels": labels, "name": name,
          "namespace": ns, "resourceVersion": "90" + str(len(name)), "uid": uid}
    if annotations: md["annotations"] = annotations
    if owners: md["ownerReferences"] = owners
    st = {"phase": phase, "qosClass": "Burstable", "startTime": "2026-12-01T20:00:02Z",
          "hostIP": "10.0.1.7", "podIP": "10.244.3.%d" % (len(name) + 10)}
    if phase == "Running":
        st["conditions"] = [{"lastProbeTime": None, "lastTransitionTime": "2026-12-01T20:00:01Z",
                             "status": "True", "type": "PodScheduled"},
                            {"lastProbeTime": None, "lastTransitionTime": "2026-12-01T20:00:09Z",
                             "status": "True", "type": "Ready"}]
    else:
        st["conditions"] = [{"lastProbeTime": None, "lastTransitionTime": "2026-12-01T20:00:01Z",
                             "status": "True", "type": "PodScheduled"},
                            {"lastProbeTime": None, "lastTransitionTime": "2026-12-01T21:00:00Z",
                             "reason": "PodCompleted" if phase == "Succeeded" else "PodFailed",
                             "status": "False", "type": "Ready"}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": podspec(c, restart, node), "status": st}

def job_labels(name, uid, index=None):
    l = {"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
         "controller-uid": uid, "job-name": name}
    if index is not None: l["batch.kubernetes.io/job-completion-index"] = str(index)
    return l

def job(ns, name, uid, c, parallelism, completions, status, labels=None, indexed=False, suspend=False, owners=None, tlabels=None):
    md = {"creationTimestamp": "2026-12-01T19:59:00Z", "generation": 1, "labels": labels or {},
          "name": name, "namespace": ns, "resourceVersion": "91" + str(len(name)), "uid": uid}
    if owners: md["ownerReferences"] = owners
    spec = {"backoffLimit": 6, "completionMode": "Indexed" if indexed else "NonIndexed",
            "manualSelector": False, "parallelism": parallelism, "podReplacementPolicy": "TerminatingOrFailed",
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}},
            "suspend": suspend,
            "template": template(c, dict(job_labels(name, uid), **(tlabels or {})))}
    if completions is not None: spec["completions"] = completions
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": md, "spec": spec, "status": status}

items = [node("gpu-a1", 8, "NVIDIA-H100-80GB-HBM3", "us-east-1a"),
         node("gpu-a2", 8, "NVIDIA-H100-80GB-HBM3", "us-east-1b"),
         node("cpu-1", 0, None, "us-east-1a"),
         node("gpu-b1", 8, "NVIDIA-H100-80GB-HBM3", "us-east-1c")]

IMG = "registry.example.com/ml/"
# Kueue: one flavor, one ClusterQueue, the team's LocalQueue.
items += [
 {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
  "metadata": {"creationTimestamp": "2026-10-01T07:00:00Z", "generation": 1, "name": "h100", "resourceVersion": "1201", "uid": "rf-h100"},
  "spec": {"nodeLabels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}}},
 {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
  "metadata": {"creationTimestamp": "2026-10-01T07:00:00Z", "generation": 1, "name": "ml", "resourceVersion": "1202", "uid": "cq-ml"},
  "spec": {"namespaceSelector": {}, "queueingStrategy": "BestEffortFIFO",
           "resourceGroups": [{"coveredResources": ["cpu", "memory", "nvidia.com/gpu"],
             "flavors": [{"name": "h100", "resources": [
               {"name": "cpu", "nominalQuota": "64"}, {"name": "memory", "nominalQuota": "512Gi"},
               {"name": "nvidia.com/gpu", "nominalQuota": "8"}]}]}]}},
 {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
  "metadata": {"creationTimestamp": "2026-10-01T07:00:00Z", "generation": 1, "name": "team", "namespace": "ml", "resourceVersion": "1203", "uid": "lq-team"},
  "spec": {"clusterQueue": "ml"}},
]

# A running NonIndexed Job (status.active 1) and its pod.
c = container("train", IMG + "train:3.1", "8", "64Gi", 4)
items.append(job("ml", "train", "uid-train", c, 1, 1, {"active": 1, "ready": 1, "startTime": "2026-12-01T20:00:00Z", "terminating": 0, "uncountedTerminatedPods": {}}))
items.append(pod("ml", "train-x7k2p", "uid-train-pod", job_labels("train", "uid-train"), owner("batch/v1", "Job", "train", "uid-train"), c, "gpu-a1", "Running"))

# An Indexed Job half way: index 0 done, index 1 running, 2 and 3 still to run (parallelism 2: one more now).
c = container("sweep", IMG + "sweep:1.4", "2", "16Gi", 1)
items.append(job("ml", "sweep", "uid-sweep", c, 2, 4, {"active": 1, "completedIndexes": "0", "ready": 1, "startTime": "2026-12-01T20:00:00Z", "succeeded": 1, "terminating": 0, "uncountedTerminatedPods": {}}, indexed=True))
items.append(pod("ml", "sweep-0-8fq2d", "uid-sweep-0", job_labels("sweep", "uid-sweep", 0), owner("batch/v1", "Job", "sweep", "uid-sweep"), c, "gpu-a2", "Succeeded", annotations={"batch.kubernetes.io/job-completion-index": "0"}))
items.append(pod("ml", "sweep-1-k2lmw", "uid-sweep-1", job_labels("sweep", "uid-sweep", 1), owner("batch/v1", "Job", "sweep", "uid-sweep"), c, "gpu-a2", "Running", annotations={"batch.kubernetes.io/job-completion-index": "1"}))

# A finished Job whose pod succeeded on gpu-a1 with all 8 GPUs: holds nothing any more.
c = container("etl", IMG + "etl:0.9", "16", "128Gi", 8)
items.append(job("ml", "etl", "uid-etl", c, 1, 1, {"completionTime": "2026-12-01T21:00:00Z", "conditions": [{"lastProbeTime": "2026-12-01T21:00:00Z", "lastTransitionTime": "2026-12-01T21:00:00Z", "message": "Reached expected number of succeeded pods", "reason": "CompletionsReached", "status": "True", "type": "Complete"}], "ready": 0, "startTime": "2026-12-01T20:00:00Z", "succeeded": 1, "terminating": 0, "uncountedTerminatedPods": {}}))
items.append(pod("ml", "etl-4tq9z", "uid-etl-pod", job_labels("etl", "uid-etl"), owner("batch/v1", "Job", "etl", "uid-etl"), c, "gpu-a1", "Succeeded"))

# A queued Job Kueue already admitted: its Workload (Kueue's name, with a hash) and running pod.
c = container("finetune", IMG + "finetune:2.0", "8", "64Gi", 2)
fl = {"kueue.x-k8s.io/queue-name": "team"}
items.append(job("ml", "finetune", "uid-finetune", c, 1, 1, {"active": 1, "ready": 1, "startTime": "2026-12-01T20:00:00Z", "terminating": 0, "uncountedTerminatedPods": {}}, labels=fl, tlabels={"kueue.x-k8s.io/queue-name": "team"}))
items.append(pod("ml", "finetune-9vx4c", "uid-finetune-pod", dict(job_labels("finetune", "uid-finetune"), **{"kueue.x-k8s.io/queue-name": "team", "kueue.x-k8s.io/podset": "main"}), owner("batch/v1", "Job", "finetune", "uid-finetune"), c, "gpu-a1", "Running"))
items.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
  "metadata": {"creationTimestamp": "2026-12-01T19:59:01Z", "finalizers": ["kueue.x-k8s.io/resource-in-use"], "generation": 1,
               "labels": {"kueue.x-k8s.io/job-uid": "uid-finetune"}, "name": "job-finetune-5c2d8", "namespace": "ml",
               "ownerReferences": owner("batch/v1", "Job", "finetune", "uid-finetune"), "resourceVersion": "91500", "uid": "uid-wl-finetune"},
  "spec": {"active": True, "podSets": [{"count": 1, "name": "main", "template": template(c, {"kueue.x-k8s.io/queue-name": "team"})}],
           "priority": 0, "queueName": "team"},
  "status": {"admission": {"clusterQueue": "ml", "podSetAssignments": [{"count": 1, "flavors": {"cpu": "h100", "memory": "h100", "nvidia.com/gpu": "h100"}, "name": "main", "resourceUsage": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "2"}}]},
             "conditions": [{"lastTransitionTime": "2026-12-01T19:59:02Z", "message": "Quota reserved in ClusterQueue ml", "observedGeneration": 1, "reason": "QuotaReserved", "status": "True", "type": "QuotaReserved"},
                            {"lastTransitionTime": "2026-12-01T19:59:02Z", "message": "The workload is admitted", "observedGeneration": 1, "reason": "Admitted", "status": "True", "type": "Admitted"}]}})

# A queued Job still suspended: Kueue has no Workload for it yet; berth makes job-eval.
c = container("eval", IMG + "eval:2.0", "4", "32Gi", 2)
items.append(job("ml", "eval", "uid-eval", c, 1, 1, {}, labels=fl, suspend=True, tlabels={"kueue.x-k8s.io/queue-name": "team"}))

# A Deployment mid-rollout: the new ReplicaSet has 2 of 3 pods, the old one is scaled down.
c = container("server", IMG + "server:5.2", "4", "32Gi", 1)
dl = {"app": "serve"}
items.append({"apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"annotations": {"deployment.kubernetes.io/revision": "2"}, "creationTimestamp": "2026-11-20T10:00:00Z", "generation": 2,
               "labels": dl, "name": "serve", "namespace": "inference", "resourceVersion": "89001", "uid": "uid-serve"},
  "spec": {"progressDeadlineSeconds": 600, "replicas": 3, "revisionHistoryLimit": 10, "selector": {"matchLabels": dl},
           "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}, "type": "RollingUpdate"},
           "template": {"metadata": {"labels": dl}, "spec": {"containers": [c], "restartPolicy": "Always", "schedulerName": "default-scheduler"}}},
  "status": {"availableReplicas": 2, "observedGeneration": 2, "readyReplicas": 2, "replicas": 2, "unavailableReplicas": 1, "updatedReplicas": 2}})
for rs, n, hash_ in (("serve-6b8d5f7c9d", 3, "6b8d5f7c9d"), ("serve-5f7c9b6d4", 0, "5f7c9b6d4")):
    rl = dict(dl, **{"pod-template-hash": hash_})
    items.append({"apiVersion": "apps/v1", "kind": "ReplicaSet",
      "metadata": {"annotations": {"deployment.kubernetes.io/desired-replicas": "3", "deployment.kubernetes.io/max-replicas": "4", "deployment.kubernetes.io/revision": "2" if n else "1"},
                   "creationTimestamp": "2026-11-20T10:00:00Z", "generation": 1, "labels": rl, "name": rs, "namespace": "inference",
                   "ownerReferences": owner("apps/v1", "Deployment", "serve", "uid-serve"), "resourceVersion": "89002", "uid": "uid-" + rs},
      "spec": {"replicas": n, "selector": {"matchLabels": rl},
               "template": {"metadata": {"labels": rl}, "spec": {"containers": [c], "restartPolicy": "Always", "schedulerName": "default-scheduler"}}},
      "status": {"availableReplicas": 2 if n else 0, "fullyLabeledReplicas": 2 if n else 0, "observedGeneration": 1, "readyReplicas": 2 if n else 0, "replicas": 2 if n else 0}})
for sfx in ("h5k2q", "wz8rt"):
    items.append(pod("inference", "serve-6b8d5f7c9d-" + sfx, "uid-serve-" + sfx, {"app": "serve", "pod-template-hash": "6b8d5f7c9d"},
                     owner("apps/v1", "ReplicaSet", "serve-6b8d5f7c9d", "uid-serve-6b8d5f7c9d"), c, "gpu-a2", "Running", restart="Always"))

# A StatefulSet with both replicas running.
c = container("redis", "redis:7.4", "2", "8Gi", 0)
sl = {"app": "redis"}
items.append({"apiVersion": "apps/v1", "kind": "StatefulSet",
  "metadata": {"creationTimestamp": "2026-11-01T10:00:00Z", "generation": 1, "labels": sl, "name": "redis", "namespace": "inference", "resourceVersion": "87001", "uid": "uid-redis"},
  "spec": {"podManagementPolicy": "OrderedReady", "replicas": 2, "selector": {"matchLabels": sl}, "serviceName": "redis",
           "template": {"metadata": {"labels": sl}, "spec": {"containers": [c], "restartPolicy": "Always", "schedulerName": "default-scheduler"}},
           "updateStrategy": {"rollingUpdate": {"partition": 0}, "type": "RollingUpdate"}},
  "status": {"availableReplicas": 2, "currentReplicas": 2, "readyReplicas": 2, "replicas": 2}})
for i in range(2):
    items.append(pod("inference", "redis-%d" % i, "uid-redis-%d" % i,
                     {"app": "redis", "apps.kubernetes.io/pod-index": str(i), "controller-revision-hash": "redis-7c9d8f", "statefulset.kubernetes.io/pod-name": "redis-%d" % i},
                     owner("apps/v1", "StatefulSet", "redis", "uid-redis"), c, "cpu-1", "Running", restart="Always"))

# A JobSet with two child Jobs, one pod each, running.
c = container("worker", IMG + "pretrain:4.0", "8", "64Gi", 1)
js_tmpl_labels = {}
items.append({"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
  "metadata": {"creationTimestamp": "2026-12-01T19:00:00Z", "generation": 1, "name": "pretrain", "namespace": "ml", "resourceVersion": "90100", "uid": "uid-pretrain"},
  "spec": {"network": {"enableDNSHostnames": True, "publishNotReadyAddresses": True},
           "replicatedJobs": [{"name": "workers", "replicas": 2, "template": {"spec": {
               "backoffLimit": 0, "completionMode": "Indexed", "completions": 1, "parallelism": 1,
               "template": {"spec": {"containers": [c], "restartPolicy": "Never"}}}}}],
           "suspend": False},
  "status": {"replicatedJobsStatus": [{"active": 2, "failed": 0, "name": "workers", "ready": 2, "succeeded": 0, "suspended": 0}],
             "restarts": 0, "terminalState": ""}})
for j in range(2):
    jn = "pretrain-workers-%d" % j
    juid = "uid-" + jn
    jl = {"jobset.sigs.k8s.io/jobset-name": "pretrain", "jobset.sigs.k8s.io/replicatedjob-name": "workers",
          "jobset.sigs.k8s.io/job-index": str(j), "jobset.sigs.k8s.io/replicatedjob-replicas": "2"}
    items.append(job("ml", jn, juid, c, 1, 1, {"active": 1, "ready": 1, "startTime": "2026-12-01T19:00:05Z", "terminating": 0, "uncountedTerminatedPods": {}},
                     labels=jl, indexed=True, owners=owner("jobset.x-k8s.io/v1alpha2", "JobSet", "pretrain", "uid-pretrain"), tlabels=jl))
    items.append(pod("ml", jn + "-0-q8w7x", "uid-" + jn + "-pod", dict(job_labels(jn, juid, 0), **jl),
                     owner("batch/v1", "Job", jn, juid), c, "gpu-a2", "Running",
                     annotations={"batch.kubernetes.io/job-completion-index": "0", "jobset.sigs.k8s.io/jobset-name": "pretrain"}))

# gpu-b1 runs an MPIJob, a RayJob and a Volcano Job, every pod of each live (its 8 GPUs all
# taken): none of their pods may be planned again.
B1 = "gpu-b1"
def crd_meta(ns, name, uid, owners=None, labels=None):
    md = {"creationTimestamp": "2026-12-01T18:00:00Z", "generation": 1, "name": name, "namespace": ns,
          "resourceVersion": "92" + str(len(name)), "uid": uid}
    if owners: md["ownerReferences"] = owners
    if labels: md["labels"] = labels
    return md

# MPIJob (mpi-operator v2): launcher Job `allreduce-launcher` (owned by the MPIJob) and its
# pod, workers `allreduce-worker-0/1` owned by the MPIJob.
cl = container("launcher", IMG + "allreduce:1.0", "1", "2Gi", 0)
cw = container("worker", IMG + "allreduce:1.0", "8", "64Gi", 2)
items.append({"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": crd_meta("ml", "allreduce", "uid-allreduce"),
  "spec": {"mpiImplementation": "OpenMPI", "runPolicy": {"cleanPodPolicy": "Running", "suspend": False}, "slotsPerWorker": 2,
           "sshAuthMountPath": "/root/.ssh",
           "mpiReplicaSpecs": {"Launcher": {"replicas": 1, "template": {"spec": {"containers": [cl]}}},
                               "Worker": {"replicas": 2, "template": {"spec": {"containers": [cw]}}}}},
  "status": {"replicaStatuses": {"Launcher": {"active": 1}, "Worker": {"active": 2}}, "startTime": "2026-12-01T18:00:05Z"}})
mpi_owner = owner("kubeflow.org/v2beta1", "MPIJob", "allreduce", "uid-allreduce")
mpi_l = {"training.kubeflow.org/job-name": "allreduce", "training.kubeflow.org/operator-name": "mpi-operator"}
items.append(job("ml", "allreduce-launcher", "uid-allreduce-launcher", cl, 1, None, {"active": 1, "ready": 1, "startTime": "2026-12-01T18:00:05Z", "terminating": 0, "uncountedTerminatedPods": {}},
                 owners=mpi_owner, tlabels=dict(mpi_l, **{"training.kubeflow.org/job-role": "launcher"})))
items.append(pod("ml", "allreduce-launcher-m2x8v", "uid-allreduce-launcher-pod",
                 dict(job_labels("allreduce-launcher", "uid-allreduce-launcher"), **mpi_l, **{"training.kubeflow.org/job-role": "launcher"}),
                 owner("batch/v1", "Job", "allreduce-launcher", "uid-allreduce-launcher"), cl, B1, "Running", restart="OnFailure"))
for i in range(2):
    items.append(pod("ml", "allreduce-worker-%d" % i, "uid-allreduce-worker-%d" % i,
                     dict(mpi_l, **{"training.kubeflow.org/job-role": "worker", "training.kubeflow.org/replica-index": str(i)}),
                     mpi_owner, cw, B1, "Running", restart="Always"))

# RayJob (KubeRay): its RayCluster `tune-x8k2p` and submitter Job `tune`, both owned by it.
ch = container("ray-head", "rayproject/ray:2.46.0", "2", "8Gi", 0)
cr = container("ray-worker", "rayproject/ray:2.46.0", "4", "32Gi", 1)
cs = container("ray-job-submitter", "rayproject/ray:2.46.0", "500m", "200Mi", 0)
rc_spec = {"headGroupSpec": {"rayStartParams": {}, "template": {"spec": {"containers": [ch]}}},
           "workerGroupSpecs": [{"groupName": "gpu", "maxReplicas": 4, "minReplicas": 0, "numOfHosts": 1, "replicas": 2,
                                 "rayStartParams": {}, "template": {"spec": {"containers": [cr]}}}]}
items.append({"apiVersion": "ray.io/v1", "kind": "RayJob", "metadata": crd_meta("ml", "tune", "uid-tune"),
  "spec": {"entrypoint": "python tune.py", "rayClusterSpec": rc_spec, "submissionMode": "K8sJobMode", "suspend": False},
  "status": {"jobDeploymentStatus": "Running", "jobStatus": "RUNNING", "rayClusterName": "tune-x8k2p"}})
ray_owner = owner("ray.io/v1", "RayJob", "tune", "uid-tune")
items.append({"apiVersion": "ray.io/v1", "kind": "RayCluster",
  "metadata": crd_meta("ml", "tune-x8k2p", "uid-tune-x8k2p", ray_owner, {"ray.io/originated-from-cr-name": "tune", "ray.io/originated-from-crd": "RayJob"}),
  "spec": rc_spec, "status": {"readyWorkerReplicas": 2, "state": "ready"}})
rc_owner = owner("ray.io/v1", "RayCluster", "tune-x8k2p", "uid-tune-x8k2p")
def ray_labels(kind, group):
    return {"app.kubernetes.io/created-by": "kuberay-operator", "app.kubernetes.io/name": "kuberay", "ray.io/cluster": "tune-x8k2p",
            "ray.io/group": group, "ray.io/identifier": "tune-x8k2p-" + kind, "ray.io/is-ray-node": "yes", "ray.io/node-type": kind}
items.append(pod("ml", "tune-x8k2p-head", "uid-tune-head", ray_labels("head", "headgroup"), rc_owner, ch, B1, "Running", restart="Always"))
for sfx in ("9fz4q", "k3m7w"):
    items.append(pod("ml", "tune-x8k2p-gpu-worker-" + sfx, "uid-tune-worker-" + sfx, ray_labels("worker", "gpu"), rc_owner, cr, B1, "Running", restart="Always"))
items.append(job("ml", "tune", "uid-tune-submitter", cs, 1, None, {"active": 1, "ready": 1, "startTime": "2026-12-01T18:01:00Z", "terminating": 0, "uncountedTerminatedPods": {}}, owners=ray_owner))
items.append(pod("ml", "tune-5n7wd", "uid-tune-submitter-pod", job_labels("tune", "uid-tune-submitter"),
                 owner("batch/v1", "Job", "tune", "uid-tune-submitter"), cs, B1, "Running"))

# Volcano Job: task ps (1 pod) and task worker (2 pods), minAvailable 3, all running.
cp = container("ps", IMG + "sim:0.3", "2", "8Gi", 0)
cv = container("worker", IMG + "sim:0.3", "4", "32Gi", 1)
items.append({"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": crd_meta("ml", "sim", "uid-sim"),
  "spec": {"maxRetry": 3, "minAvailable": 3, "queue": "default", "schedulerName": "volcano",
           "tasks": [{"name": "ps", "replicas": 1, "template": {"spec": {"containers": [cp], "restartPolicy": "OnFailure"}}},
                     {"name": "worker", "replicas": 2, "template": {"spec": {"containers": [cv], "restartPolicy": "OnFailure"}}}]},
  "status": {"minAvailable": 3, "running": 3, "state": {"phase": "Running"}}})
items.append({"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
  "metadata": crd_meta("ml", "sim-uid-sim", "uid-sim-pg", owner("batch.volcano.sh/v1alpha1", "Job", "sim", "uid-sim")),
  "spec": {"minMember": 3, "minResources": {"cpu": "10", "memory": "72Gi", "nvidia.com/gpu": "2"}, "queue": "default"},
  "status": {"phase": "Running", "running": 3}})
for task, i, c in (("ps", 0, cp), ("worker", 0, cv), ("worker", 1, cv)):
    n = "sim-%s-%d" % (task, i)
    p = pod("ml", n, "uid-" + n, {"volcano.sh/job-name": "sim", "volcano.sh/job-namespace": "ml", "volcano.sh/queue-name": "default",
                                  "volcano.sh/task-index": str(i), "volcano.sh/task-spec": task},
            owner("batch.volcano.sh/v1alpha1", "Job", "sim", "uid-sim"), c, B1, "Running", restart="OnFailure",
            annotations={"scheduling.k8s.io/group-name": "sim-uid-sim", "volcano.sh/job-name": "sim", "volcano.sh/task-index": str(i), "volcano.sh/task-spec": task})
    p["spec"]["schedulerName"] = "volcano"
    items.append(p)

# A bare pod that failed: holds nothing.
c = container("debug", "busybox:1.37", "500m", "1Gi", 1)
items.append(pod("default", "gpu-debug", "uid-gpu-debug", {"run": "gpu-debug"}, None, c, "gpu-a2", "Failed"))

doc = {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
yaml.safe_dump(doc, sys.stdout, sort_keys=True, default_flow_style=False, width=1000)
