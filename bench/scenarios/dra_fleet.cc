// Builds the fleet directly in the model (no YAML) so that the benchmarks time binding, not
// reading. Names are zero-padded so that name order (the score tie-break) is node order.
#include "bench/scenarios/dra_fleet.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

namespace berth::bench {
namespace {

constexpr const char* kDriver = "gpu.nvidia.com";
constexpr int kGpusPerNode = 8;

model::DeviceAttribute Str(std::string v) {
  return {model::DeviceAttribute::Type::kString, 0, false, std::move(v)};
}
model::DeviceAttribute Int(int64_t v) { return {model::DeviceAttribute::Type::kInt, v, false, ""}; }

std::string Padded(const char* prefix, int32_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%s%05d", prefix, i);
  return buf;
}

model::ResourceClaimSpec ClaimSpec(DraClaimShape shape) {
  model::ResourceClaimSpec spec;
  model::DeviceRequest req;
  req.exactly.emplace();
  req.exactly->device_class_name = "gpu.nvidia.com";
  switch (shape) {
    case DraClaimShape::kOneGpuCel:
      req.name = "gpu";
      req.exactly->count = 1;
      req.exactly->selectors.push_back(
          {"device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\" && "
           "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0"});
      break;
    case DraClaimShape::kTwoGpusSamePcieRoot: {
      req.name = "gpus";
      req.exactly->count = 2;
      model::DeviceConstraint same_root;
      same_root.match_attribute = "gpu.nvidia.com/pcieRoot";
      spec.constraints.push_back(same_root);
      break;
    }
    case DraClaimShape::kEightOfSeven:
      req.name = "gpus";
      req.exactly->count = 8;
      break;
  }
  spec.requests.push_back(std::move(req));
  return spec;
}

}  // namespace

model::Snapshot MakeDraFleet(const DraFleetSpec& spec) {
  model::Snapshot s;
  model::DeviceClass cls;
  cls.meta.name = "gpu.nvidia.com";
  cls.selectors.push_back({"device.driver == \"gpu.nvidia.com\""});
  s.device_classes.push_back(cls);

  for (int32_t n = 0; n < spec.nodes; ++n) {
    model::Node node;
    node.meta.name = Padded("node-", n);
    node.meta.labels["kubernetes.io/hostname"] = node.meta.name;
    node.meta.labels["topology.kubernetes.io/zone"] = "zone-" + std::to_string(n % 4);
    node.allocatable.Set(model::kCpu, 96'000);
    node.allocatable.Set(model::kMemory, int64_t{512} << 30);
    node.allocatable.Set(model::kPods, 110);
    node.capacity = node.allocatable;
    s.nodes.push_back(node);

    model::ResourceSlice slice;
    slice.meta.name = node.meta.name + "-gpu.nvidia.com";
    slice.driver = kDriver;
    slice.pool_name = node.meta.name;
    slice.node_name = node.meta.name;
    for (int g = 0; g < kGpusPerNode; ++g) {
      model::Device d;
      d.name = "gpu-" + std::to_string(g);
      d.attributes["productName"] = Str("NVIDIA H100 80GB HBM3");
      d.attributes["uuid"] = Str("GPU-" + std::to_string(n) + "-" + std::to_string(g));
      d.attributes["pcieRoot"] = Str("pci0000:" + std::to_string(g / 2));
      d.attributes["gpu.nvidia.com/nvlinkClique"] = Int(n / 4);
      d.attributes["index"] = Int(g);
      d.capacity["memory"].value = core::Quantity::Parse("80Gi").value();
      slice.devices.push_back(d);
    }
    s.resource_slices.push_back(slice);

    // gpu-0 of every node is held by a running pod's claim.
    model::ResourceClaim held;
    held.meta.name = node.meta.name + "-held";
    held.meta.namespace_ = "team";
    held.allocation.emplace();
    model::DeviceRequestAllocationResult r;
    r.request = "gpu";
    r.driver = kDriver;
    r.pool = node.meta.name;
    r.device = "gpu-0";
    held.allocation->results.push_back(r);
    s.resource_claims.push_back(held);
  }

  const model::ResourceClaimSpec claim_spec = ClaimSpec(spec.shape);
  for (int32_t p = 0; p < spec.pods; ++p) {
    model::Pod pod;
    pod.meta.name = Padded("train-", p);
    pod.meta.namespace_ = "team";
    pod.meta.uid = "uid-" + pod.meta.name;
    model::Container c;
    c.name = "main";
    c.requests.Set(model::kCpu, 1000);
    c.requests.Set(model::kMemory, int64_t{4} << 30);
    c.cpu_request_named = true;
    c.memory_request_named = true;
    pod.containers.push_back(c);
    model::ResourceClaim claim;
    claim.meta.name = pod.meta.name + "-gpu";
    claim.meta.namespace_ = "team";
    claim.spec = claim_spec;
    claim.template_name = "gpu";
    claim.owner_pod = pod.meta.name;
    s.resource_claims.push_back(std::move(claim));
    pod.resource_claims.push_back({"gpu", pod.meta.name + "-gpu", "gpu"});
    s.pods.push_back(std::move(pod));
  }
  return s;
}

int64_t ExpectedBound(const DraFleetSpec& spec) {
  int64_t per_node = 0;
  switch (spec.shape) {
    case DraClaimShape::kOneGpuCel:
      per_node = kGpusPerNode - 1;
      break;
    case DraClaimShape::kTwoGpusSamePcieRoot:
      per_node = kGpusPerNode / 2 - 1;
      break;
    case DraClaimShape::kEightOfSeven:
      per_node = 0;
      break;
  }
  return std::min<int64_t>(spec.pods, per_node * spec.nodes);
}

}  // namespace berth::bench
