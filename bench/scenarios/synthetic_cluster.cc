// Both entry points draw the same plan (GenerateCluster) from the seed and then either build
// model objects or render kubectl JSON from it, so the Snapshot and the dump describe the
// same cluster. Sizing: GPU pods ask for about 110% of the GPUs and CPU pods for about 85%
// of the CPU nodes' cores, so most pods fit and some do not. Every random draw goes through
// the one std::mt19937_64 passed down, with fixed integer arithmetic on its raw output
// (std::uniform_*_distribution differ between standard libraries).
#include "bench/scenarios/synthetic_cluster.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"

namespace berth::bench {

namespace {

using Json = nlohmann::json;  // std::map keys: sorted, as kubectl prints unstructured objects

constexpr int64_t kGi = int64_t{1} << 30;
constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kBaseTime = 1735689600;  // 2025-01-01T00:00:00Z
constexpr int kGpusPerNode = 8;
constexpr int64_t kCpuPerGpuMilli = 10000;
constexpr int64_t kMemPerGpuGi = 100;

constexpr std::array<const char*, 3> kZones = {"us-east-1a", "us-east-1b", "us-east-1c"};
constexpr std::array<const char*, 8> kNamespaces = {"team-a",      "team-b",  "team-c", "team-d",
                                                    "ml-research", "ml-prod", "web",    "batch"};
constexpr const char* kA100 = "NVIDIA-A100-SXM4-80GB";
constexpr const char* kH100 = "NVIDIA-H100-80GB-HBM3";
constexpr const char* kGpuTaintKey = "nvidia.com/gpu";
constexpr const char* kRackLabel = "topology.example.com/rack";
constexpr const char* kPendingMessage = "0/100 nodes are available: 100 Insufficient cpu.";

uint64_t Below(std::mt19937_64& rng, uint64_t n) { return rng() % n; }
double Unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Index into `weights` drawn with those relative weights.
size_t Pick(std::mt19937_64& rng, std::span<const int> weights) {
  int total = 0;
  for (int w : weights) total += w;
  int r = static_cast<int>(Below(rng, static_cast<uint64_t>(total)));
  for (size_t i = 0; i < weights.size(); ++i) {
    if (r < weights[i]) return i;
    r -= weights[i];
  }
  return weights.size() - 1;
}

std::string Hex(std::mt19937_64& rng, int digits) {
  static constexpr std::string_view kDigits = "0123456789abcdef";
  std::string out;
  uint64_t bits = rng();
  for (int i = 0; i < digits; ++i) {
    if (i % 16 == 15) bits = rng();
    out += kDigits[bits & 0xf];
    bits >>= 4;
  }
  return out;
}

std::string Uid(std::mt19937_64& rng) {
  // One draw per group, last group first. The order is spelled out because the operands of a
  // `+` chain are unsequenced: GCC evaluated them right to left, clang left to right, and the
  // checked-in digests were made with GCC's order.
  const std::string e = Hex(rng, 12);
  const std::string d = Hex(rng, 4);
  const std::string c = Hex(rng, 4);
  const std::string b = Hex(rng, 4);
  const std::string a = Hex(rng, 8);
  return a + "-" + b + "-" + c + "-" + d + "-" + e;
}

std::string Numbered(const char* prefix, int64_t n, int width) {
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%s%0*lld", prefix, width, static_cast<long long>(n));
  return buf.data();
}

struct NodePlan {
  std::string name;
  std::string uid;
  bool gpu = false;
  std::string product;
  std::string instance_type;
  std::string zone;
  std::string rack;
  bool tainted = false;
  int64_t cpu_milli = 0;      // capacity
  int64_t memory_bytes = 0;   // capacity
  int64_t storage_bytes = 0;  // ephemeral-storage capacity
  int64_t created_s = 0;
  std::string ip;
  // Allocatable: what the kubelet leaves after system reservations.
  int64_t AllocCpuMilli() const { return cpu_milli - 500; }
  int64_t AllocMemoryBytes() const { return memory_bytes - 2 * kGi; }
  int64_t AllocStorageBytes() const { return storage_bytes / 10 * 9; }
};

struct PodPlan {
  std::string name;
  std::string generate_name;
  std::string ns;
  std::string uid;
  std::string app;
  std::string hash;
  std::string owner_kind;
  std::string owner_name;
  std::string owner_uid;
  std::string image;
  int64_t cpu_milli = 0;
  int64_t memory_bytes = 0;
  int64_t memory_limit_bytes = 0;  // 0: no limit
  int gpus = 0;
  bool gpu_toleration = false;
  std::string node_selector_product;  // empty: none
  std::string preferred_zone;         // empty: no preferred affinity
  std::string priority_class;         // empty: none
  int32_t priority = 0;
  int64_t created_s = 0;
  int node = -1;  // bound node index, -1 when pending
};

struct ClusterPlan {
  std::vector<NodePlan> nodes;
  std::vector<PodPlan> pods;
};

NodePlan PlanNode(std::mt19937_64& rng, int index, bool gpu) {
  NodePlan n;
  n.gpu = gpu;
  n.uid = Uid(rng);
  size_t zone = Below(rng, kZones.size());
  n.zone = kZones[zone];
  n.created_s = kBaseTime - int64_t{86400} * 30 + int64_t{index} * 7;
  n.ip = "10." + std::to_string(index / 65536 % 256) + "." + std::to_string(index / 256 % 256) +
         "." + std::to_string(index % 256);
  if (gpu) {
    bool h100 = Below(rng, 2) == 0;
    n.name = Numbered("gpu-node-", index, 5);
    n.product = h100 ? kH100 : kA100;
    n.instance_type = h100 ? "p5.48xlarge" : "p4d.24xlarge";
    n.cpu_milli = int64_t{h100 ? 192 : 96} * 1000;
    n.memory_bytes = (h100 ? 2048 : 1152) * kGi;
    n.storage_bytes = 7600 * kGi;
    n.tainted = Below(rng, 2) == 0;
  } else {
    static constexpr std::array<int, 4> kCoreWeights = {3, 3, 3, 1};
    static constexpr std::array<int, 4> kCores = {32, 48, 64, 96};
    int cores = kCores[Pick(rng, kCoreWeights)];
    int64_t gi_per_core = Below(rng, 2) == 0 ? 4 : 8;
    n.name = Numbered("cpu-node-", index, 5);
    n.instance_type = gi_per_core == 4 ? "m6i." + std::to_string(cores / 4) + "xlarge"
                                       : "r6i." + std::to_string(cores / 4) + "xlarge";
    n.cpu_milli = int64_t{cores} * 1000;
    n.memory_bytes = std::clamp<int64_t>(cores * gi_per_core, 128, 512) * kGi;
    n.storage_bytes = 500 * kGi;
  }
  n.rack = std::string("rack-") + static_cast<char>('a' + zone) + "-" + Numbered("", index / 16, 4);
  return n;
}

// Free capacity while binding pods at generation time (bound_pod_fraction).
struct Free {
  int64_t cpu = 0;
  int64_t memory = 0;
  int gpus = 0;
  int pods = 110;
};

bool Fits(const PodPlan& p, const NodePlan& n, const Free& f) {
  if (p.gpus > 0 && !n.gpu) return false;
  if (n.tainted && !p.gpu_toleration) return false;
  if (!p.node_selector_product.empty() && p.node_selector_product != n.product) return false;
  return f.cpu >= p.cpu_milli && f.memory >= p.memory_bytes && f.gpus >= p.gpus && f.pods > 0;
}

ClusterPlan GenerateCluster(const SyntheticClusterSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  ClusterPlan plan;
  const auto num_gpu_nodes = static_cast<int>(std::lround(spec.nodes * spec.gpu_node_fraction));
  int64_t gpu_supply = 0;
  int64_t cpu_supply_milli = 0;
  for (int i = 0; i < spec.nodes; ++i) {
    plan.nodes.push_back(PlanNode(rng, i, i < num_gpu_nodes));
    const NodePlan& n = plan.nodes.back();
    if (n.gpu) {
      gpu_supply += kGpusPerNode;
    } else {
      cpu_supply_milli += n.AllocCpuMilli();
    }
  }

  // GPU pods ask for 1/2/4/8 GPUs (weights 40/25/20/15, mean 2.9 GPUs).
  static constexpr std::array<int, 4> kGpuWeights = {40, 25, 20, 15};
  static constexpr std::array<int, 4> kGpuCounts = {1, 2, 4, 8};
  int64_t gpu_pods = std::min<int64_t>(spec.pods / 2, gpu_supply * 11 / 10 * 10 / 29);
  int64_t cpu_pods = spec.pods - gpu_pods;
  // CPU services draw a base shape, scaled so that all of them ask for ~85% of the CPU nodes.
  static constexpr std::array<int, 7> kCpuWeights = {10, 20, 25, 20, 12, 8, 5};
  static constexpr std::array<int64_t, 7> kCpuBase = {100, 250, 500, 1000, 2000, 4000, 8000};
  const double base_mean = 1345.0;  // milli, the weighted mean of kCpuBase
  double scale = cpu_pods > 0 && cpu_supply_milli > 0
                     ? 0.85 * static_cast<double>(cpu_supply_milli) /
                           (static_cast<double>(cpu_pods) * base_mean)
                     : 1.0;
  scale = std::clamp(scale, 0.1, 8.0);

  plan.pods.reserve(static_cast<size_t>(spec.pods));
  for (int i = 0; i < spec.pods; ++i) {
    PodPlan p;
    bool gpu = (static_cast<int64_t>(i) * gpu_pods) / spec.pods !=
               (static_cast<int64_t>(i + 1) * gpu_pods) / spec.pods;  // spread evenly
    p.ns = kNamespaces[Below(rng, kNamespaces.size())];
    p.uid = Uid(rng);
    p.created_s = kBaseTime + i;
    p.hash = Hex(rng, 10);
    if (gpu) {
      p.gpus = kGpuCounts[Pick(rng, kGpuWeights)];
      p.app = Numbered("train-", i / 8, 6);
      p.owner_kind = "Job";
      p.owner_name = p.app;
      p.generate_name = p.app + "-";
      p.name = p.generate_name + Hex(rng, 5);
      p.image = "nvcr.io/nvidia/pytorch:24.05-py3";
      p.cpu_milli = p.gpus * kCpuPerGpuMilli;
      p.memory_bytes = p.gpus * kMemPerGpuGi * kGi;
      p.memory_limit_bytes = p.memory_bytes;
      p.gpu_toleration = Below(rng, 10) != 0;
      if (Below(rng, 10) < 4) p.node_selector_product = Below(rng, 2) == 0 ? kA100 : kH100;
      if (Below(rng, 10) < 3) p.preferred_zone = kZones[Below(rng, kZones.size())];
      p.priority_class = "training";
      p.priority = 100;
    } else {
      int64_t base = kCpuBase[Pick(rng, kCpuWeights)];
      p.cpu_milli =
          std::max<int64_t>(50, static_cast<int64_t>(static_cast<double>(base) * scale) / 50 * 50);
      p.memory_bytes = (p.cpu_milli * (Below(rng, 2) == 0 ? 2 : 4) * kGi / 1000) / kMi * kMi;
      if (Below(rng, 2) == 0) p.memory_limit_bytes = p.memory_bytes * 2;
      p.app = Numbered("svc-", i / 20, 5);
      p.owner_kind = "ReplicaSet";
      p.owner_name = p.app + "-" + p.hash;
      p.generate_name = p.owner_name + "-";
      p.name = p.generate_name + Hex(rng, 5);
      p.image = "registry.example.com/" + p.app + ":v" + std::to_string(1 + Below(rng, 9));
      if (Below(rng, 10) < 3) {
        p.priority_class = "prod";
        p.priority = 1000;
      }
    }
    p.owner_uid = Uid(rng);
    plan.pods.push_back(std::move(p));
  }

  if (spec.bound_pod_fraction > 0 && !plan.nodes.empty()) {
    std::vector<Free> free(plan.nodes.size());
    for (size_t n = 0; n < plan.nodes.size(); ++n) {
      free[n].cpu = plan.nodes[n].AllocCpuMilli();
      free[n].memory = plan.nodes[n].AllocMemoryBytes();
      free[n].gpus = plan.nodes[n].gpu ? kGpusPerNode : 0;
    }
    for (PodPlan& p : plan.pods) {
      if (Unit(rng) >= spec.bound_pod_fraction) continue;
      for (int attempt = 0; attempt < 8; ++attempt) {
        size_t n = Below(rng, plan.nodes.size());
        if (!Fits(p, plan.nodes[n], free[n])) continue;
        free[n].cpu -= p.cpu_milli;
        free[n].memory -= p.memory_bytes;
        free[n].gpus -= p.gpus;
        free[n].pods -= 1;
        p.node = static_cast<int>(n);
        break;
      }
    }
  }
  return plan;
}

// ---- model --------------------------------------------------------------------------------

model::Node ToModel(const NodePlan& n, model::ResourceCatalog& catalog) {
  model::Node node;
  node.meta.name = n.name;
  node.meta.uid = n.uid;
  node.meta.creation_timestamp = core::Timestamp{n.created_s};
  node.meta.labels = {
      {"beta.kubernetes.io/arch", "amd64"},
      {"beta.kubernetes.io/instance-type", n.instance_type},
      {"beta.kubernetes.io/os", "linux"},
      {"kubernetes.io/arch", "amd64"},
      {"kubernetes.io/hostname", n.name},
      {"kubernetes.io/os", "linux"},
      {"node.kubernetes.io/instance-type", n.instance_type},
      {"topology.kubernetes.io/region", "us-east-1"},
      {"topology.kubernetes.io/zone", n.zone},
      {kRackLabel, n.rack},
  };
  if (n.gpu) {
    node.meta.labels["nvidia.com/gpu.product"] = n.product;
    node.meta.labels["nvidia.com/gpu.count"] = std::to_string(kGpusPerNode);
    node.meta.labels["nvidia.com/gpu.memory"] = "81920";
    node.meta.labels["nvidia.com/gpu.present"] = "true";
  }
  if (n.tainted) node.taints.push_back({kGpuTaintKey, "present", core::TaintEffect::kNoSchedule});
  node.capacity.Set(model::kCpu, n.cpu_milli);
  node.capacity.Set(model::kMemory, n.memory_bytes);
  node.capacity.Set(model::kEphemeralStorage, n.storage_bytes);
  node.capacity.Set(model::kPods, 110);
  node.allocatable.Set(model::kCpu, n.AllocCpuMilli());
  node.allocatable.Set(model::kMemory, n.AllocMemoryBytes());
  node.allocatable.Set(model::kEphemeralStorage, n.AllocStorageBytes());
  node.allocatable.Set(model::kPods, 110);
  if (n.gpu) {
    model::ResourceId gpu = catalog.Intern("nvidia.com/gpu");
    node.capacity.Set(gpu, kGpusPerNode);
    node.allocatable.Set(gpu, kGpusPerNode);
  }
  return node;
}

std::vector<core::Toleration> DefaultTolerations() {
  core::Toleration not_ready{"node.kubernetes.io/not-ready", core::TolerationOp::kExists, "",
                             core::TaintEffect::kNoExecute, 300};
  core::Toleration unreachable{"node.kubernetes.io/unreachable", core::TolerationOp::kExists, "",
                               core::TaintEffect::kNoExecute, 300};
  return {not_ready, unreachable};
}

model::Pod ToModel(const PodPlan& p, const ClusterPlan& plan, model::ResourceCatalog& catalog) {
  model::Pod pod;
  pod.meta.name = p.name;
  pod.meta.namespace_ = p.ns;
  pod.meta.uid = p.uid;
  pod.meta.creation_timestamp = core::Timestamp{p.created_s};
  pod.meta.labels = {{"app", p.app}};
  if (p.gpus > 0) {
    pod.meta.labels["batch.kubernetes.io/job-name"] = p.owner_name;
    pod.meta.labels["job-name"] = p.owner_name;
  } else {
    pod.meta.labels["pod-template-hash"] = p.hash;
  }
  model::Container c;
  c.name = p.gpus > 0 ? "trainer" : "app";
  c.requests.Set(model::kCpu, p.cpu_milli);
  c.requests.Set(model::kMemory, p.memory_bytes);
  if (p.memory_limit_bytes > 0) c.limits.Set(model::kMemory, p.memory_limit_bytes);
  if (p.gpus > 0) {
    model::ResourceId gpu = catalog.Intern("nvidia.com/gpu");
    c.requests.Set(gpu, p.gpus);
    c.limits.Set(gpu, p.gpus);
  }
  pod.containers.push_back(std::move(c));
  if (p.node >= 0) {
    pod.node_name = plan.nodes[static_cast<size_t>(p.node)].name;
    pod.phase = model::PodPhase::kRunning;
  }
  if (!p.node_selector_product.empty()) {
    pod.node_selector["nvidia.com/gpu.product"] = p.node_selector_product;
  }
  if (!p.preferred_zone.empty()) {
    model::PreferredSchedulingTerm pref;
    pref.weight = 50;
    pref.preference.match_expressions.push_back(
        {"topology.kubernetes.io/zone", core::SelectorOp::kIn, {p.preferred_zone}});
    pod.node_affinity.preferred.push_back(std::move(pref));
  }
  pod.tolerations = DefaultTolerations();
  if (p.gpu_toleration) {
    pod.tolerations.push_back(
        {kGpuTaintKey, core::TolerationOp::kExists, "", core::TaintEffect::kNoSchedule, {}});
  }
  pod.priority_class_name = p.priority_class;
  pod.priority = p.priority;
  pod.owner = model::OwnerRef{p.gpus > 0 ? "batch/v1" : "apps/v1", p.owner_kind, p.owner_name, ""};
  if (p.node >= 0) {
    pod.conditions = {{"PodScheduled", "True", "", ""}, {"Ready", "True", "", ""}};
  } else {
    pod.conditions = {{"PodScheduled", "False", "Unschedulable", kPendingMessage}};
  }
  return pod;
}

// ---- kubectl JSON -------------------------------------------------------------------------

std::string Cpu(int64_t milli) {
  return milli % 1000 == 0 ? std::to_string(milli / 1000) : std::to_string(milli) + "m";
}

std::string Bytes(int64_t bytes) {
  if (bytes % kGi == 0) return std::to_string(bytes / kGi) + "Gi";
  if (bytes % kMi == 0) return std::to_string(bytes / kMi) + "Mi";
  return std::to_string(bytes / 1024) + "Ki";
}

std::string Time(int64_t s) { return core::Timestamp{s}.ToString(); }

Json NodeJson(const NodePlan& n, const model::Node& node) {
  Json labels = Json::object();
  for (const auto& [k, v] : node.meta.labels) labels[k] = v;
  Json capacity = {{"cpu", Cpu(n.cpu_milli)},
                   {"ephemeral-storage", std::to_string(n.storage_bytes / 1024) + "Ki"},
                   {"hugepages-1Gi", "0"},
                   {"hugepages-2Mi", "0"},
                   {"memory", std::to_string(n.memory_bytes / 1024) + "Ki"},
                   {"pods", "110"}};
  Json allocatable = {{"cpu", Cpu(n.AllocCpuMilli())},
                      {"ephemeral-storage", std::to_string(n.AllocStorageBytes())},
                      {"hugepages-1Gi", "0"},
                      {"hugepages-2Mi", "0"},
                      {"memory", std::to_string(n.AllocMemoryBytes() / 1024) + "Ki"},
                      {"pods", "110"}};
  if (n.gpu) {
    capacity["nvidia.com/gpu"] = std::to_string(kGpusPerNode);
    allocatable["nvidia.com/gpu"] = std::to_string(kGpusPerNode);
  }
  Json conditions = Json::array();
  for (const char* type : {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
    bool ready = std::string(type) == "Ready";
    conditions.push_back({{"lastHeartbeatTime", Time(kBaseTime + 86400)},
                          {"lastTransitionTime", Time(n.created_s + 60)},
                          {"message", ready ? "kubelet is posting ready status"
                                            : std::string("kubelet has no ") + type},
                          {"reason", ready ? "KubeletReady" : std::string("KubeletHasNo") + type},
                          {"status", ready ? "True" : "False"},
                          {"type", type}});
  }
  Json images = Json::array();
  for (int i = 0; i < 4; ++i) {
    images.push_back(
        {{"names",
          {"registry.example.com/base/image-" + std::to_string(i) + "@sha256:" + n.uid + n.uid,
           "registry.example.com/base/image-" + std::to_string(i) + ":v1"}},
         {"sizeBytes", 100000000 + i * 12345678}});
  }
  Json spec = {{"podCIDR", "100.64." + std::to_string(node.meta.name.size()) + ".0/24"},
               {"providerID", "aws:///" + n.zone + "/i-" + n.uid.substr(0, 17)}};
  spec["podCIDRs"] = Json::array({spec["podCIDR"]});
  if (n.tainted) {
    spec["taints"] =
        Json::array({{{"effect", "NoSchedule"}, {"key", kGpuTaintKey}, {"value", "present"}}});
  }
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"annotations",
             {{"node.alpha.kubernetes.io/ttl", "0"},
              {"volumes.kubernetes.io/controller-managed-attach-detach", "true"}}},
            {"creationTimestamp", Time(n.created_s)},
            {"labels", labels},
            {"name", n.name},
            {"resourceVersion", std::to_string(1000000 + n.created_s % 1000000)},
            {"uid", n.uid}}},
          {"spec", spec},
          {"status",
           {{"addresses",
             {{{"address", n.ip}, {"type", "InternalIP"}},
              {{"address", n.name}, {"type", "Hostname"}}}},
            {"allocatable", allocatable},
            {"capacity", capacity},
            {"conditions", conditions},
            {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", 10250}}}}},
            {"images", images},
            {"nodeInfo",
             {{"architecture", "amd64"},
              {"bootID", n.uid},
              {"containerRuntimeVersion", "containerd://1.7.11"},
              {"kernelVersion", "6.1.0-18-cloud-amd64"},
              {"kubeProxyVersion", "v1.30.2"},
              {"kubeletVersion", "v1.30.2"},
              {"machineID", n.uid.substr(0, 8) + n.uid.substr(24)},
              {"operatingSystem", "linux"},
              {"osImage", "Ubuntu 22.04.4 LTS"},
              {"systemUUID", n.uid}}}}}};
}

Json PodJson(const PodPlan& p, const model::Pod& pod) {
  Json labels = Json::object();
  for (const auto& [k, v] : pod.meta.labels) labels[k] = v;
  const std::string volume = "kube-api-access-" + p.hash.substr(0, 5);
  Json requests = {{"cpu", Cpu(p.cpu_milli)}, {"memory", Bytes(p.memory_bytes)}};
  Json limits = Json::object();
  if (p.memory_limit_bytes > 0) limits["memory"] = Bytes(p.memory_limit_bytes);
  if (p.gpus > 0) {
    requests["nvidia.com/gpu"] = std::to_string(p.gpus);
    limits["nvidia.com/gpu"] = std::to_string(p.gpus);
  }
  Json resources = {{"requests", requests}};
  if (!limits.empty()) resources["limits"] = limits;
  Json container = {
      {"env",
       {{{"name", "POD_NAME"},
         {"valueFrom", {{"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", "metadata.name"}}}}}},
        {{"name", "LOG_LEVEL"}, {"value", "info"}}}},
      {"image", p.image},
      {"imagePullPolicy", "IfNotPresent"},
      {"name", pod.containers[0].name},
      {"ports", {{{"containerPort", 8080}, {"name", "http"}, {"protocol", "TCP"}}}},
      {"resources", resources},
      {"terminationMessagePath", "/dev/termination-log"},
      {"terminationMessagePolicy", "File"},
      {"volumeMounts",
       {{{"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
         {"name", volume},
         {"readOnly", true}}}}};
  Json tolerations = Json::array();
  for (const core::Toleration& t : pod.tolerations) {
    Json j = {{"key", t.key}, {"operator", "Exists"}};
    if (t.effect) j["effect"] = core::TaintEffectName(*t.effect);
    if (t.toleration_seconds) j["tolerationSeconds"] = *t.toleration_seconds;
    tolerations.push_back(j);
  }
  Json spec = {
      {"containers", {container}},
      {"dnsPolicy", "ClusterFirst"},
      {"enableServiceLinks", true},
      {"preemptionPolicy", "PreemptLowerPriority"},
      {"priority", p.priority},
      {"restartPolicy", p.gpus > 0 ? "Never" : "Always"},
      {"schedulerName", "default-scheduler"},
      {"securityContext", Json::object()},
      {"serviceAccount", "default"},
      {"serviceAccountName", "default"},
      {"terminationGracePeriodSeconds", 30},
      {"tolerations", tolerations},
      {"volumes",
       {{{"name", volume},
         {"projected",
          {{"defaultMode", 420},
           {"sources",
            {{{"serviceAccountToken", {{"expirationSeconds", 3607}, {"path", "token"}}}},
             {{"configMap",
               {{"items", {{{"key", "ca.crt"}, {"path", "ca.crt"}}}},
                {"name", "kube-root-ca.crt"}}}},
             {{"downwardAPI",
               {{"items",
                 {{{"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", "metadata.namespace"}}},
                   {"path", "namespace"}}}}}}}}}}}}}}};
  if (!p.priority_class.empty()) spec["priorityClassName"] = p.priority_class;
  if (!pod.node_name.empty()) spec["nodeName"] = pod.node_name;
  if (!p.node_selector_product.empty()) {
    spec["nodeSelector"] = {{"nvidia.com/gpu.product", p.node_selector_product}};
  }
  if (!p.preferred_zone.empty()) {
    spec["affinity"] = {{"nodeAffinity",
                         {{"preferredDuringSchedulingIgnoredDuringExecution",
                           {{{"preference",
                              {{"matchExpressions",
                                {{{"key", "topology.kubernetes.io/zone"},
                                  {"operator", "In"},
                                  {"values", {p.preferred_zone}}}}}}},
                             {"weight", 50}}}}}}};
  }
  Json status;
  const std::string qos = "Burstable";  // requests below limits, or no limits
  if (p.node >= 0) {
    status = {{"conditions",
               {{{"lastProbeTime", nullptr},
                 {"lastTransitionTime", Time(p.created_s + 2)},
                 {"status", "True"},
                 {"type", "PodScheduled"}},
                {{"lastProbeTime", nullptr},
                 {"lastTransitionTime", Time(p.created_s + 9)},
                 {"status", "True"},
                 {"type", "Ready"}}}},
              {"containerStatuses",
               {{{"containerID", "containerd://" + p.uid + p.uid},
                 {"image", p.image},
                 {"imageID", p.image + "@sha256:" + p.uid + p.uid},
                 {"lastState", Json::object()},
                 {"name", pod.containers[0].name},
                 {"ready", true},
                 {"restartCount", 0},
                 {"started", true},
                 {"state", {{"running", {{"startedAt", Time(p.created_s + 8)}}}}}}}},
              {"hostIP", "10.0.0.1"},
              {"phase", "Running"},
              {"podIP", "100.64.0.2"},
              {"qosClass", qos},
              {"startTime", Time(p.created_s + 2)}};
  } else {
    status = {{"conditions",
               {{{"lastProbeTime", nullptr},
                 {"lastTransitionTime", Time(p.created_s + 1)},
                 {"message", kPendingMessage},
                 {"reason", "Unschedulable"},
                 {"status", "False"},
                 {"type", "PodScheduled"}}}},
              {"phase", "Pending"},
              {"qosClass", qos}};
  }
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"creationTimestamp", Time(p.created_s)},
            {"generateName", p.generate_name},
            {"labels", labels},
            {"name", p.name},
            {"namespace", p.ns},
            {"ownerReferences",
             {{{"apiVersion", pod.owner->api_version},
               {"blockOwnerDeletion", true},
               {"controller", true},
               {"kind", p.owner_kind},
               {"name", p.owner_name},
               {"uid", p.owner_uid}}}},
            {"resourceVersion", std::to_string(2000000 + p.created_s % 1000000)},
            {"uid", p.uid}}},
          {"spec", spec},
          {"status", status}};
}

// metadata.managedFields as the API server records them: one entry per field manager,
// fieldsV1 naming every field it set ("f:" fields, "k:" list items by key). No stage reads
// them; they are here because real dumps carry them and a reader pays for their bytes.
Json FieldSet(const Json& object) {
  Json set = Json::object();
  for (auto it = object.begin(); it != object.end(); ++it) {
    const bool nested = it.value().is_object() && !it.value().empty();
    Json& field = set["f:" + it.key()];
    field = nested ? FieldSet(it.value()) : Json::object();
    if (nested) field["."] = Json::object();
  }
  return set;
}

Json ManagedField(const char* manager, const char* operation, int64_t time_s, Json fields,
                  const char* subresource = nullptr) {
  Json entry = {{"apiVersion", "v1"}, {"fieldsType", "FieldsV1"}, {"fieldsV1", std::move(fields)},
                {"manager", manager}, {"operation", operation},   {"time", Time(time_s)}};
  if (subresource != nullptr) entry["subresource"] = subresource;
  return entry;
}

void AddNodeManagedFields(const NodePlan& n, Json& node) {
  Json kubelet = {{"f:metadata", {{"f:labels", FieldSet(node["metadata"]["labels"])}}},
                  {"f:spec", {{"f:providerID", Json::object()}}}};
  Json status = {{"f:status",
                  {{"f:allocatable", FieldSet(node["status"]["allocatable"])},
                   {"f:capacity", FieldSet(node["status"]["capacity"])},
                   {"f:conditions", Json::object()},
                   {"f:images", Json::object()},
                   {"f:nodeInfo", FieldSet(node["status"]["nodeInfo"])}}}};
  for (const char* type : {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
    status["f:status"]["f:conditions"][std::string("k:{\"type\":\"") + type + "\"}"] = {
        {".", Json::object()},
        {"f:lastHeartbeatTime", Json::object()},
        {"f:lastTransitionTime", Json::object()},
        {"f:message", Json::object()},
        {"f:reason", Json::object()},
        {"f:status", Json::object()},
        {"f:type", Json::object()}};
  }
  Json controller = {{"f:spec", {{"f:podCIDR", Json::object()}, {"f:podCIDRs", Json::object()}}}};
  if (node["spec"].contains("taints")) controller["f:spec"]["f:taints"] = Json::object();
  node["metadata"]["managedFields"] = Json::array(
      {ManagedField("kubelet", "Update", n.created_s, std::move(kubelet)),
       ManagedField("kube-controller-manager", "Update", n.created_s + 30, std::move(controller)),
       ManagedField("kubelet", "Update", kBaseTime + 86400, std::move(status), "status")});
}

void AddPodManagedFields(const PodPlan& p, Json& pod) {
  const Json& spec = pod["spec"];
  Json container = FieldSet(spec["containers"][0]);
  container.erase("f:name");
  container["."] = Json::object();
  Json owner = {
      {"f:metadata",
       {{"f:generateName", Json::object()},
        {"f:labels", FieldSet(pod["metadata"]["labels"])},
        {"f:ownerReferences",
         {{".", Json::object()}, {"k:{\"uid\":\"" + p.owner_uid + "\"}", Json::object()}}}}},
      {"f:spec",
       {{"f:containers",
         {{"k:{\"name\":\"" + spec["containers"][0]["name"].get<std::string>() + "\"}",
           std::move(container)}}},
        {"f:dnsPolicy", Json::object()},
        {"f:enableServiceLinks", Json::object()},
        {"f:restartPolicy", Json::object()},
        {"f:schedulerName", Json::object()},
        {"f:securityContext", Json::object()},
        {"f:terminationGracePeriodSeconds", Json::object()},
        {"f:tolerations", Json::object()},
        {"f:volumes", Json::object()}}}};
  Json scheduler = {{"f:status",
                     {{"f:conditions",
                       {{".", Json::object()},
                        {"k:{\"type\":\"PodScheduled\"}",
                         {{".", Json::object()},
                          {"f:lastProbeTime", Json::object()},
                          {"f:lastTransitionTime", Json::object()},
                          {"f:message", Json::object()},
                          {"f:reason", Json::object()},
                          {"f:status", Json::object()},
                          {"f:type", Json::object()}}}}}}}};
  Json fields = Json::array(
      {ManagedField("kube-controller-manager", "Update", p.created_s, std::move(owner)),
       ManagedField("kube-scheduler", "Update", p.created_s + 1, std::move(scheduler), "status")});
  if (p.node >= 0) {
    fields.push_back(ManagedField("kubelet", "Update", p.created_s + 9,
                                  {{"f:status", FieldSet(pod["status"])}}, "status"));
  }
  pod["metadata"]["managedFields"] = std::move(fields);
}

// The fields a scheduler reads and little else, as a generator of test clusters would write
// them (issue 12's dump: about 340 bytes per object): nodes keep their name, zone and GPU
// labels, taints and allocatable; pods keep name, namespace, app label, creation time,
// containers' resources, node selector, GPU tolerations, zone affinity, priority and phase.
void MakeMinimal(Json& object) {
  Json& md = object["metadata"];
  Json labels = Json::object();
  for (const auto& [key, value] : md["labels"].items()) {
    if (key == "app" || key.starts_with("topology.kubernetes.io/") ||
        key == "nvidia.com/gpu.product" || key == "kubernetes.io/hostname") {
      labels[key] = value;
    }
  }
  Json meta = {{"name", md["name"]}};
  if (md.contains("namespace")) meta["namespace"] = md["namespace"];
  if (object["kind"] == "Pod") meta["creationTimestamp"] = md["creationTimestamp"];
  if (!labels.empty()) meta["labels"] = std::move(labels);
  Json spec = Json::object();
  Json& old_spec = object["spec"];
  Json& status = object["status"];
  if (object["kind"] == "Node") {
    if (old_spec.contains("taints")) spec["taints"] = old_spec["taints"];
    Json allocatable = Json::object();
    for (const char* key : {"cpu", "memory", "nvidia.com/gpu", "pods"}) {
      if (status["allocatable"].contains(key)) allocatable[key] = status["allocatable"][key];
    }
    object = {{"apiVersion", "v1"},
              {"kind", "Node"},
              {"metadata", std::move(meta)},
              {"spec", std::move(spec)},
              {"status", {{"allocatable", std::move(allocatable)}}}};
    return;
  }
  Json containers = Json::array();
  for (Json& c : old_spec["containers"]) {
    containers.push_back({{"name", c["name"]}, {"resources", c["resources"]}});
  }
  spec["containers"] = std::move(containers);
  for (const char* key : {"affinity", "nodeName", "nodeSelector", "priority"}) {
    if (old_spec.contains(key)) spec[key] = old_spec[key];
  }
  Json tolerations = Json::array();
  for (const Json& t : old_spec["tolerations"]) {
    if (!t["key"].get<std::string>().starts_with("node.kubernetes.io/")) tolerations.push_back(t);
  }
  if (!tolerations.empty()) spec["tolerations"] = std::move(tolerations);
  object = {{"apiVersion", "v1"},
            {"kind", "Pod"},
            {"metadata", std::move(meta)},
            {"spec", std::move(spec)},
            {"status", {{"phase", status["phase"]}}}};
}

// kubectl prints a List with 4-space indentation; items sit two levels deep.
void AppendItem(const Json& item, bool first, bool compact, std::string* out) {
  if (!first) *out += ",\n";
  if (compact) {
    *out += item.dump();
    return;
  }
  std::string text = item.dump(4);
  *out += "        ";
  for (char c : text) {
    *out += c;
    if (c == '\n') *out += "        ";
  }
}

}  // namespace

model::Snapshot MakeSyntheticCluster(const SyntheticClusterSpec& spec) {
  ClusterPlan plan = GenerateCluster(spec);
  model::Snapshot snap;
  snap.nodes.reserve(plan.nodes.size());
  for (const NodePlan& n : plan.nodes) snap.nodes.push_back(ToModel(n, snap.resources));
  snap.pods.reserve(plan.pods.size());
  for (const PodPlan& p : plan.pods) snap.pods.push_back(ToModel(p, plan, snap.resources));
  // No PriorityClass objects, as in a `kubectl get nodes,pods` dump: every pod carries its
  // resolved spec.priority.
  return snap;
}

std::string RenderKubectlJson(const SyntheticClusterSpec& spec) {
  ClusterPlan plan = GenerateCluster(spec);
  model::ResourceCatalog catalog;
  std::string out;
  out.reserve(static_cast<size_t>(spec.nodes) * 5000 + static_cast<size_t>(spec.pods) * 4500);
  out += "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n";
  bool first = true;
  for (const NodePlan& n : plan.nodes) {
    Json node = NodeJson(n, ToModel(n, catalog));
    if (spec.managed_fields) AddNodeManagedFields(n, node);
    if (spec.minimal) MakeMinimal(node);
    AppendItem(node, first, spec.compact, &out);
    first = false;
  }
  for (const PodPlan& p : plan.pods) {
    Json pod = PodJson(p, ToModel(p, plan, catalog));
    if (spec.managed_fields) AddPodManagedFields(p, pod);
    if (spec.minimal) MakeMinimal(pod);
    AppendItem(pod, first, spec.compact, &out);
    first = false;
  }
  out +=
      "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n "
      "   }\n}\n";
  return out;
}

}  // namespace berth::bench
