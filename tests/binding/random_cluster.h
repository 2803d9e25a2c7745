// Seeded random clusters for the unbind, gang and override tests: nodes with cpu, memory,
// extended-resource GPUs, zones and taints; pods bound in the input and pending ones with
// whole GPUs, topology spread and inter-pod (anti-)affinity; optionally DRA claims (some
// shared, some allocated in the input) and fractional GPU pods. Plus the snapshot that is
// equivalent to a Scheduler's current state, for comparing against a fresh Scheduler.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "binding/scheduler.h"
#include "devices/dra_builders.h"
#include "support/model_builders.h"

namespace berth::testing {

// Deterministic on every standard library (unlike std::uniform_int_distribution).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  int64_t Below(int64_t n) { return static_cast<int64_t>(gen_() % static_cast<uint64_t>(n)); }
  bool Chance(int percent) { return Below(100) < percent; }

 private:
  std::mt19937_64 gen_;
};

struct ClusterFeatures {
  bool dra = false;        // ResourceSlices, claims (some shared, some allocated in the input)
  bool fractions = false;  // pods with gpu-fraction annotations
};

inline constexpr const char* kDraDriver = "gpu.example.com";

inline model::Snapshot RandomCluster(uint64_t seed, const ClusterFeatures& features) {
  using berth::testing::Indexed;
  using berth::testing::kGi;
  using berth::testing::NodeBuilder;
  using berth::testing::PodBuilder;
  namespace dra = devices::testing;
  Rng rng(seed);
  berth::testing::SnapshotBuilder s;
  s.Namespace("default");
  const int64_t nodes = 3 + rng.Below(7);
  for (int64_t i = 0; i < nodes; ++i) {
    NodeBuilder n(Indexed("node-", i));
    n.Cpu(2000 + 2000 * rng.Below(3)).Memory((4 + 4 * rng.Below(3)) * kGi).Pods(3 + rng.Below(8));
    n.Label("zone", Indexed("z", rng.Below(3)));
    if (rng.Chance(60)) {
      n.Gpu(1 + rng.Below(4)).Label("nvidia.com/gpu.memory", "81920");
      if (rng.Chance(30)) n.Taint("nvidia.com/gpu", "present");
    }
    if (rng.Chance(20)) n.Taint("spot", "true", core::TaintEffect::kPreferNoSchedule);
    s.Add(n);
  }
  struct Extra {
    core::Labels annotations;
  };
  std::vector<Extra> extras;
  auto random_pod = [&](const std::string& name, int64_t created) {
    PodBuilder p(name);
    const int64_t app = rng.Below(3);
    p.Label("app", Indexed("app-", app)).Created(created).Priority(0);
    switch (rng.Below(4)) {
      case 0:
        p.Container({{"cpu", 500}, {"memory", kGi}});
        break;
      case 1:
        p.Container({{"cpu", 1000}, {"memory", 2 * kGi}, {"nvidia.com/gpu", 1}});
        break;
      case 2:
        p.Container({{"cpu", 1500}, {"nvidia.com/gpu", 2}});
        break;
      default:
        p.Container({{"cpu", 250}});
    }
    if (rng.Chance(40)) p.Toleration("nvidia.com/gpu", core::TolerationOp::kExists);
    if (rng.Chance(15)) p.NodeSelector("zone", Indexed("z", rng.Below(3)));
    if (rng.Chance(15)) {
      p.SpreadConstraint(berth::testing::Spread("zone", 1, {{"app", Indexed("app-", app)}}));
    }
    if (rng.Chance(10)) {
      p.PodAntiAffinity(
          berth::testing::AffinityTerm({{"app", Indexed("app-", app)}}, "kubernetes.io/hostname"));
    }
    if (rng.Chance(8)) {
      p.PreferredPodAffinity(30, berth::testing::AffinityTerm({{"app", "app-0"}}, "zone"));
    }
    Extra extra;
    if (features.fractions && rng.Chance(30)) {
      p = PodBuilder(name);
      p.Label("app", "frac").Created(created).Container({{"cpu", 100}});
      extra.annotations["gpu-fraction"] = rng.Chance(50) ? "0.5" : "0.25";
      if (rng.Chance(20)) extra.annotations["gpu-fraction-num-devices"] = "2";
    }
    extras.push_back(extra);
    return p;
  };
  const int64_t bound = rng.Below(5);
  for (int64_t i = 0; i < bound; ++i) {
    PodBuilder p = random_pod(Indexed("running-", i), 0);
    p.NodeName(Indexed("node-", rng.Below(nodes)));
    s.Add(p);
  }
  const int64_t pending = 10 + rng.Below(25);
  for (int64_t i = 0; i < pending; ++i) s.Add(random_pod(Indexed("pod-", i), 1 + i));
  model::Snapshot snap = s.Build();
  for (size_t i = 0; i < extras.size(); ++i) snap.pods[i].meta.annotations = extras[i].annotations;
  if (!features.dra) return snap;

  snap.device_classes.push_back(dra::Class("gpu", kDraDriver));
  std::vector<int64_t> devices_on(static_cast<size_t>(nodes), 0);
  std::vector<int64_t> held_on(static_cast<size_t>(nodes), 0);
  for (int64_t i = 0; i < nodes; ++i) {
    const int64_t devices = rng.Below(5);
    devices_on[static_cast<size_t>(i)] = devices;
    if (devices == 0) continue;
    const std::string node = Indexed("node-", i);
    dra::SliceB slice(node, node, node, kDraDriver);
    for (int64_t d = 0; d < devices; ++d) {
      slice.Dev(dra::DeviceB(Indexed("dev-", d)).Str("model", rng.Chance(50) ? "a" : "b"));
    }
    snap.resource_slices.push_back(slice.s);
  }
  auto use = [&](size_t pod, const std::string& claim) {
    snap.pods[pod].resource_claims.push_back(model::PodResourceClaim{"gpu", claim, ""});
  };
  for (size_t p = 0; p < snap.pods.size(); ++p) {
    if (!snap.pods[p].meta.annotations.empty() || rng.Chance(40)) continue;
    const std::string name = Indexed("claim-", static_cast<int64_t>(p));
    if (p > 0 && rng.Chance(20) && !snap.pods[p - 1].resource_claims.empty() &&
        !snap.pods[p - 1].IsBound()) {
      snap.pods[p].resource_claims.push_back(snap.pods[p - 1].resource_claims.front());
      continue;  // shares the previous pod's claim
    }
    dra::RequestB request("gpu", "gpu", 1 + rng.Below(2));
    if (rng.Chance(30)) request.Sel(R"(device.attributes["gpu.example.com"].model == "a")");
    dra::ClaimB claim(name, "default");
    claim.Req(request);
    if (snap.pods[p].IsBound()) {
      // Allocated in the input to a free device of the pod's node, and reserved for it.
      const std::string& node = snap.pods[p].node_name;
      const auto n = static_cast<size_t>(std::stoll(node.substr(5)));  // "node-<i>"
      if (held_on[n] >= devices_on[n]) continue;
      claim.Allocated({{kDraDriver, node, Indexed("dev-", held_on[n]++)}});
      claim.c.reserved_for.push_back(snap.pods[p].meta.name);
    }
    snap.resource_claims.push_back(claim.c);
    use(p, name);
  }
  return snap;
}

// The snapshot a fresh Scheduler must decide like `scheduler` from: every pod bound where
// `node_of` says (empty: pending), every claim with the status the scheduler gives it.
inline model::Snapshot EquivalentSnapshot(
    const model::Snapshot& snap, const binding::Scheduler& scheduler,
    const std::vector<std::optional<model::NodeIndex>>& node_of) {
  model::Snapshot out = snap;
  for (size_t p = 0; p < out.pods.size(); ++p) {
    out.pods[p].node_name = node_of[p].has_value() ? snap.node(*node_of[p]).meta.name : "";
  }
  for (size_t c = 0; c < out.resource_claims.size(); ++c) {
    out.resource_claims[c] = scheduler.ClaimStatus(devices::ClaimIndex{static_cast<int32_t>(c)});
  }
  return out;
}

// Where each pod of `snap` is bound in the input.
inline std::vector<std::optional<model::NodeIndex>> InputPlacement(const model::Snapshot& snap) {
  std::vector<std::optional<model::NodeIndex>> out(snap.pods.size());
  for (size_t p = 0; p < snap.pods.size(); ++p) {
    for (size_t n = 0; n < snap.nodes.size(); ++n) {
      if (snap.nodes[n].meta.name == snap.pods[p].node_name) {
        out[p] = model::NodeIndex{static_cast<int32_t>(n)};
      }
    }
  }
  return out;
}

}  // namespace berth::testing
