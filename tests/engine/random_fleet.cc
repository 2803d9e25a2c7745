#include "random_fleet.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace berth::engine::testing {
namespace {

// Draws from the raw engine, not std::uniform_int_distribution (whose mapping differs
// between standard libraries), so a failing seed reproduces anywhere.
class Draw {
 public:
  explicit Draw(uint64_t seed) : rng_(seed) {}
  // In [lo, hi].
  int64_t Int(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng_() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool Chance(int percent) { return Int(0, 99) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Int(0, static_cast<int64_t>(v.size()) - 1))];
  }

 private:
  std::mt19937_64 rng_;
};

enum class NodeKind { kCpu, kGpu, kTimeSliced, kMig, kDra, kDraPartitioned };

struct NodeSpec {
  std::string name;
  NodeKind kind = NodeKind::kCpu;
  int gpus = 0;
};

std::string Str(int64_t v) { return std::to_string(v); }

std::string Time(int seconds) {
  const int m = seconds / 60, s = seconds % 60;
  return std::string("2026-01-10T10:") + (m < 10 ? "0" : "") + Str(m) + ":" + (s < 10 ? "0" : "") +
         Str(s) + "Z";
}

std::string NodeYaml(Draw& d, const NodeSpec& n) {
  const std::string pool = d.Chance(50) ? "a" : "b";
  std::string labels = "    kubernetes.io/hostname: " + n.name + "\n    pool: " + pool +
                       "\n    topology.kubernetes.io/zone: z" + Str(d.Int(1, 2)) + "\n";
  std::string extra;
  switch (n.kind) {
    case NodeKind::kGpu:
      labels += "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB\n    nvidia.com/gpu.count: \"" +
                Str(n.gpus) + "\"\n    nvidia.com/gpu.memory: \"40960\"\n";
      extra = "    nvidia.com/gpu: \"" + Str(n.gpus) + "\"\n";
      break;
    case NodeKind::kTimeSliced:
      labels += "    nvidia.com/gpu.product: Tesla-T4-SHARED\n    nvidia.com/gpu.count: \"" +
                Str(n.gpus) + "\"\n    nvidia.com/gpu.memory: \"15360\"\n"
                "    nvidia.com/gpu.replicas: \"2\"\n    nvidia.com/gpu.sharing-strategy: time-slicing\n";
      extra = "    nvidia.com/gpu: \"" + Str(2 * n.gpus) + "\"\n";
      break;
    case NodeKind::kMig:
      labels +=
          "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB\n    nvidia.com/gpu.count: \"1\"\n"
          "    nvidia.com/gpu.memory: \"40960\"\n    nvidia.com/mig.capable: \"true\"\n"
          "    nvidia.com/mig.strategy: mixed\n    nvidia.com/mig-3g.20gb.count: \"2\"\n";
      extra = "    nvidia.com/gpu: \"0\"\n    nvidia.com/mig-3g.20gb: \"2\"\n";
      break;
    default:
      break;
  }
  std::string out = "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + n.name + "\n  labels:\n" + labels;
  if (d.Chance(10)) {
    out += "spec:\n  taints:\n  - {key: dedicated, value: batch, effect: NoSchedule}\n";
  }
  out += "status:\n  allocatable:\n    cpu: \"" + Str(d.Int(2, 32)) + "\"\n    memory: " +
         Str(d.Int(4, 64)) + "Gi\n    pods: \"" + Str(d.Int(2, 12)) + "\"\n" + extra + "---\n";
  if (n.kind == NodeKind::kDra) {
    out += "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " + n.name +
           "-gpus\nspec:\n  driver: gpu.nvidia.com\n  pool: {name: " + n.name +
           ", generation: 1, resourceSliceCount: 1}\n  nodeName: " + n.name + "\n  devices:\n";
    for (int g = 0; g < n.gpus; ++g) {
      out += "  - name: gpu-" + Str(g) +
             "\n    attributes:\n      type: {string: gpu}\n    capacity:\n      memory: {value: 40Gi}\n";
    }
    out += "---\n";
  } else if (n.kind == NodeKind::kDraPartitioned) {
    // One GPU published whole and as two halves, all drawing on one counter set: the whole
    // GPU and a half never fit together.
    out += "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " + n.name +
           "-gpus\nspec:\n  driver: gpu.nvidia.com\n  pool: {name: " + n.name +
           ", generation: 1, resourceSliceCount: 1}\n  nodeName: " + n.name +
           "\n  sharedCounters:\n  - name: gpu-0-counters\n    counters:\n"
           "      memory: {value: 40Gi}\n  devices:\n"
           "  - name: gpu-0\n    attributes:\n      type: {string: gpu}\n"
           "    consumesCounters:\n    - counterSet: gpu-0-counters\n"
           "      counters:\n        memory: {value: 40Gi}\n";
    for (int h = 0; h < 2; ++h) {
      out += "  - name: gpu-0-half-" + Str(h) +
             "\n    attributes:\n      type: {string: mig}\n"
             "    consumesCounters:\n    - counterSet: gpu-0-counters\n"
             "      counters:\n        memory: {value: 20Gi}\n";
    }
    out += "---\n";
  }
  return out;
}

std::string DraClassesYaml() {
  std::string out;
  for (const char* type : {"gpu", "mig"}) {
    out += std::string("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: ") + type +
           ".nvidia.com\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == "
           "\"gpu.nvidia.com\" && device.attributes[\"gpu.nvidia.com\"].type == \"" +
           type + "\"\n---\n";
    out += std::string("apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: one-") +
           type + "\n  namespace: ns\nspec:\n  spec:\n    devices:\n      requests:\n      - name: dev\n"
           "        exactly:\n          deviceClassName: " + type + ".nvidia.com\n---\n";
  }
  return out;
}

struct Queues {
  std::vector<std::string> local_queues;
  std::string yaml;
};

// With `dra`, Kueue counts the DRA devices pods claim as the quota resource example.com/dev
// (deviceClassMappings), which the queues then cover.
Queues KueueYaml(Draw& d, bool dra) {
  Queues q;
  const std::string covered = dra ? "[cpu, memory, nvidia.com/gpu, example.com/dev]" : "[cpu, memory, nvidia.com/gpu]";
  if (dra) {
    q.yaml += "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nresources:\n"
              "  deviceClassMappings:\n  - name: example.com/dev\n"
              "    deviceClassNames: [gpu.nvidia.com, mig.nvidia.com]\n---\n";
  }
  for (const char* f : {"a", "b"}) {
    q.yaml += std::string("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: ") +
              f + "\nspec:\n  nodeLabels:\n    pool: " + f + "\n---\n";
  }
  const int cqs = static_cast<int>(d.Int(1, 3));
  const bool cohort_object = d.Chance(30);
  if (cohort_object) {
    q.yaml += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata:\n  name: co\nspec:\n";
    if (d.Chance(50)) {
      q.yaml += "  parentName: root\n";
    }
    q.yaml += "  resourceGroups:\n  - coveredResources: [cpu, memory, nvidia.com/gpu]\n    flavors:\n"
              "    - name: a\n      resources:\n      - {name: cpu, nominalQuota: \"" + Str(d.Int(0, 8)) +
              "\"}\n      - {name: memory, nominalQuota: " + Str(d.Int(0, 16)) +
              "Gi}\n      - {name: nvidia.com/gpu, nominalQuota: \"" + Str(d.Int(0, 2)) + "\"}\n---\n";
  }
  for (int i = 0; i < cqs; ++i) {
    const std::string name = "cq-" + Str(i);
    q.yaml += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: " + name +
              "\nspec:\n  namespaceSelector: {}\n";
    const bool in_cohort = d.Chance(65);
    if (in_cohort) q.yaml += "  cohortName: co\n";
    if (d.Chance(80)) {
      q.yaml += "  preemption:\n    withinClusterQueue: " +
                d.Pick(std::vector<std::string>{"Never", "LowerPriority", "LowerPriority",
                                                "LowerOrNewerEqualPriority"}) +
                "\n    reclaimWithinCohort: " + d.Pick(std::vector<std::string>{"Never", "LowerPriority", "Any"}) +
                "\n";
    }
    q.yaml += "  resourceGroups:\n  - coveredResources: " + covered + "\n    flavors:\n";
    std::vector<std::string> flavors = {"a"};
    if (d.Chance(50)) flavors.push_back("b");
    if (d.Chance(30)) flavors = {"b", "a"};
    for (const std::string& f : flavors) {
      q.yaml += "    - name: " + f + "\n      resources:\n";
      // Amounts in the unit written after them (cpu cores, memory Gi, GPUs).
      std::vector<std::pair<std::string, std::string>> resources = {
          {"cpu", ""}, {"memory", "Gi"}, {"nvidia.com/gpu", ""}};
      if (dra) resources.emplace_back("example.com/dev", "");
      for (const auto& [r, unit] : resources) {
        const int64_t nominal = d.Int(0, r == "memory" ? 96 : r == "cpu" ? 32 : r == "nvidia.com/gpu" ? 8 : 4);
        q.yaml += "      - name: " + r + "\n        nominalQuota: \"" + Str(nominal) + unit + "\"\n";
        // Kueue allows the limits only in a cohort, and lending no more than the nominal quota.
        if (in_cohort && d.Chance(25)) {
          q.yaml += "        borrowingLimit: \"" + Str(d.Int(0, 4)) + unit + "\"\n";
        }
        if (in_cohort && d.Chance(20)) {
          q.yaml += "        lendingLimit: \"" + Str(d.Int(0, nominal)) + unit + "\"\n";
        }
      }
    }
    q.yaml += "---\n";
    const std::string lq = "lq-" + Str(i);
    q.yaml += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: " + lq +
              "\n  namespace: ns\nspec:\n  clusterQueue: " + name + "\n---\n";
    q.local_queues.push_back(lq);
  }
  return q;
}

// A container's requests: cpu, memory, and sometimes GPUs of the fleet's kinds.
// `mig` only for pods outside Kueue: the queues do not cover MIG resources.
std::string Requests(Draw& d, bool gpus, bool mig) {
  std::string out = "{cpu: \"" + Str(d.Int(1, 4)) + "\", memory: " + Str(d.Int(1, 8)) + "Gi";
  if (gpus && d.Chance(45)) out += ", nvidia.com/gpu: \"" + Str(d.Int(1, 2)) + "\"";
  if (mig && d.Chance(15)) out += ", nvidia.com/mig-3g.20gb: \"1\"";
  return out + "}";
}

struct Fleet {
  std::vector<NodeSpec> nodes;
  std::vector<std::string> local_queues;
  bool gpus = false, mig = false, dra = false, fractions = false;
};

// A pod spec (indented by `indent`), its scheduling fields drawn at random.
std::string PodSpec(Draw& d, const Fleet& f, const std::string& indent, bool may_claim,
                    bool queued = false) {
  std::string out = indent + "priorityClassName: " + d.Pick(std::vector<std::string>{"low", "high"}) +
                    "\n" + indent + "containers:\n" + indent + "- name: c\n" + indent +
                    "  image: busybox\n" + indent + "  resources:\n" + indent +
                    "    requests: " + Requests(d, f.gpus, f.mig && !queued) + "\n";
  if (d.Chance(15)) out += indent + "tolerations:\n" + indent + "- {key: dedicated, operator: Exists}\n";
  if (d.Chance(10)) out += indent + "nodeSelector: {topology.kubernetes.io/zone: z1}\n";
  if (may_claim && f.dra && d.Chance(30)) {
    out += indent + "resourceClaims:\n" + indent + "- name: dev\n" + indent +
           "  resourceClaimTemplateName: " + (d.Chance(60) ? "one-gpu" : "one-mig") + "\n";
  }
  return out;
}

std::string QueueLabel(Draw& d, const Fleet& f) {
  if (f.local_queues.empty() || d.Chance(20)) return "";
  return "  labels: {kueue.x-k8s.io/queue-name: " + d.Pick(f.local_queues) + "}\n";
}

// A Job Kueue admitted before the plan (flavor a, its pods running on random nodes, which
// may not even have room: the input is what it is), with its Workload as Kueue left it.
std::string RunningQueuedJob(Draw& d, const Fleet& f, int i, const std::string& meta_tail) {
  const std::string job = "job-" + Str(i);
  const int64_t lq = d.Int(0, static_cast<int64_t>(f.local_queues.size()) - 1);
  const int64_t n = d.Int(1, 2), cpu = d.Int(1, 4), gpus = f.gpus ? d.Int(0, 2) : 0;
  const std::string requests = "{cpu: \"" + Str(cpu) + "\", memory: 2Gi" +
                               (gpus > 0 ? ", nvidia.com/gpu: \"" + Str(gpus) + "\"" : "") + "}";
  const std::string priority = d.Chance(85) ? "low" : "high";
  const std::string container = "    - name: c\n      image: busybox\n      resources:\n        requests: " +
                                requests + "\n";
  std::string out = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + job + "\n  uid: uid-" + job +
                    "\n" + meta_tail + "  labels: {kueue.x-k8s.io/queue-name: lq-" + Str(lq) +
                    "}\nspec:\n  parallelism: " + Str(n) + "\n  completions: " + Str(n) +
                    "\n  suspend: false\n  template:\n    spec:\n      restartPolicy: Never\n"
                    "      priorityClassName: " + priority + "\n      containers:\n" +
                    [&] {
                      std::string c;
                      size_t start = 0;
                      while (start < container.size()) {
                        const size_t end = container.find('\n', start);
                        c += "  " + container.substr(start, end - start) + "\n";
                        start = end + 1;
                      }
                      return c;
                    }() + "---\n";
  std::string usage = "{cpu: \"" + Str(cpu * n) + "\", memory: " + Str(2 * n) + "Gi";
  std::string flavors = "{cpu: a, memory: a";
  if (gpus > 0) {
    usage += ", nvidia.com/gpu: \"" + Str(gpus * n) + "\"";
    flavors += ", nvidia.com/gpu: a";
  }
  out += "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: job-" + job +
         "\n  namespace: ns\n  uid: uid-wl-" + job + "\n  labels: {kueue.x-k8s.io/job-uid: uid-" + job +
         "}\n  ownerReferences:\n  - {apiVersion: batch/v1, kind: Job, name: " + job + ", uid: uid-" + job +
         ", controller: true}\nspec:\n  queueName: lq-" + Str(lq) + "\n  priority: " +
         (priority == "low" ? "10" : "1000") + "\n  podSets:\n  - name: main\n    count: " + Str(n) +
         "\n    template:\n      spec:\n        restartPolicy: Never\n        containers:\n" +
         "        - name: c\n          image: busybox\n          resources:\n            requests: " + requests +
         "\nstatus:\n  admission:\n    clusterQueue: cq-" + Str(lq) +
         "\n    podSetAssignments:\n    - name: main\n      count: " + Str(n) + "\n      flavors: " + flavors +
         "}\n      resourceUsage: " + usage + "}\n  conditions:\n"
         "  - {type: QuotaReserved, status: \"True\", reason: QuotaReserved, message: reserved, "
         "lastTransitionTime: \"2026-01-10T09:00:00Z\"}\n"
         "  - {type: Admitted, status: \"True\", reason: Admitted, message: admitted, "
         "lastTransitionTime: \"2026-01-10T09:00:00Z\"}\n---\n";
  for (int64_t k = 0; k < n; ++k) {
    out += "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + job + "-" + Str(k) + "\n  namespace: ns\n  uid: uid-" +
           job + "-" + Str(k) + "\n  labels: {batch.kubernetes.io/job-name: " + job +
           "}\n  ownerReferences:\n  - {apiVersion: batch/v1, kind: Job, name: " + job + ", uid: uid-" + job +
           ", controller: true}\nspec:\n  nodeName: " + d.Pick(f.nodes).name + "\n  priorityClassName: " +
           priority + "\n  containers:\n" + container + "status: {phase: Running}\n---\n";
  }
  return out;
}

std::string WorkloadYaml(Draw& d, const Fleet& f, int i) {
  const std::string meta_tail = "  namespace: ns\n  creationTimestamp: \"" + Time(i * 7 + static_cast<int>(d.Int(0, 5))) + "\"\n";
  if (!f.local_queues.empty() && d.Chance(25)) return RunningQueuedJob(d, f, i, meta_tail);
  switch (d.Int(0, 6)) {
    case 0:
    case 1:
    case 6: {  // Job
      const int64_t n = d.Int(1, 3);
      const std::string label = QueueLabel(d, f);
      return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job-" + Str(i) + "\n" + meta_tail +
             label + "spec:\n  parallelism: " + Str(n) + "\n  completions: " + Str(n) +
             "\n  template:\n    spec:\n      restartPolicy: Never\n" +
             PodSpec(d, f, "      ", true, !label.empty()) + "---\n";
    }
    case 2: {  // JobSet
      const std::string label = QueueLabel(d, f);
      std::string out = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: js-" + Str(i) +
                        "\n" + meta_tail + label + "spec:\n  replicatedJobs:\n";
      const int64_t roles = d.Int(1, 2);
      for (int64_t r = 0; r < roles; ++r) {
        const int64_t p = d.Int(1, 2);
        out += "  - name: role" + Str(r) + "\n    replicas: " + Str(d.Int(1, 2)) +
               "\n    template:\n      spec:\n        parallelism: " + Str(p) + "\n        completions: " +
               Str(p) + "\n        template:\n          spec:\n            restartPolicy: Never\n" +
               PodSpec(d, f, "            ", false, !label.empty());
      }
      return out + "---\n";
    }
    case 3: {  // Deployment
      return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: dep-" + Str(i) + "\n" + meta_tail +
             "spec:\n  replicas: " + Str(d.Int(1, 3)) +
             "\n  selector:\n    matchLabels: {app: dep-" + Str(i) + "}\n  template:\n    metadata:\n"
             "      labels: {app: dep-" + Str(i) + "}\n    spec:\n" + PodSpec(d, f, "      ", false) + "---\n";
    }
    default: {  // a Pod: pending, fractional, or running on a node
      std::string annotations;
      std::string spec = PodSpec(d, f, "  ", true);
      if (f.fractions && d.Chance(50)) {
        annotations = "  annotations: {gpu-fraction: \"" + d.Pick(std::vector<std::string>{"0.25", "0.5", "0.75"}) + "\"}\n";
        spec = "  priorityClassName: low\n  containers:\n  - name: c\n    image: busybox\n"
               "    resources:\n      requests: {cpu: \"1\", memory: 1Gi}\n";
      }
      std::string status;
      if (d.Chance(40)) {
        const NodeSpec& node = d.Pick(f.nodes);
        spec = "  nodeName: " + node.name + "\n" + spec;
        status = "status:\n  phase: Running\n";
      }
      return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-" + Str(i) + "\n" + meta_tail + annotations +
             "spec:\n" + spec + status + "---\n";
    }
  }
}

}  // namespace

std::string RandomFleetYaml(uint64_t seed) {
  Draw d(seed);
  Fleet f;
  std::string out = "# random fleet, seed " + Str(static_cast<int64_t>(seed)) + "\n";
  const int64_t nodes = d.Int(1, 5);
  for (int64_t i = 0; i < nodes; ++i) {
    NodeSpec n{"node-" + Str(i), static_cast<NodeKind>(d.Int(0, 5)), static_cast<int>(d.Int(1, 4))};
    f.gpus = f.gpus || n.kind == NodeKind::kGpu || n.kind == NodeKind::kTimeSliced;
    f.fractions = f.fractions || n.kind == NodeKind::kGpu;
    f.mig = f.mig || n.kind == NodeKind::kMig;
    f.dra = f.dra || n.kind == NodeKind::kDra || n.kind == NodeKind::kDraPartitioned;
    out += NodeYaml(d, n);
    f.nodes.push_back(n);
  }
  if (f.dra) out += DraClassesYaml();
  out += "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: low\nvalue: 10\n---\n"
         "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\n---\n";
  if (d.Chance(75)) {
    Queues q = KueueYaml(d, f.dra);
    out += q.yaml;
    f.local_queues = q.local_queues;
  }
  const int64_t workloads = d.Int(2, 10);
  for (int64_t i = 0; i < workloads; ++i) out += WorkloadYaml(d, f, static_cast<int>(i));
  return out;
}

}  // namespace berth::engine::testing
