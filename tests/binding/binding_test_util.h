// Helpers for binding's tests: look up verdicts and scores by node name, make profiles
// that score with a single plugin so a test can read that plugin's values alone, build the
// DRA part of a random fleet (node-local GPU slices, pending pods' claims), and compare two
// schedulers' decisions and claim bindings (the index against the reference path).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "binding/scheduler.h"
#include "devices/dra_builders.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"
#include "support/model_builders.h"

namespace berth::binding {

inline const NodeVerdict* FindVerdict(const PodExplanation& e, const model::Snapshot& s,
                                      std::string_view node) {
  for (const NodeVerdict& v : e.nodes) {
    if (s.node(v.node).meta.name == node) return &v;
  }
  return nullptr;
}

inline const FilterVerdict* FindFilter(const NodeVerdict& v, std::string_view plugin) {
  for (const FilterVerdict& f : v.filters) {
    if (f.plugin == plugin) return &f;
  }
  return nullptr;
}

inline const PluginScore* FindScore(const NodeVerdict& v, std::string_view plugin) {
  for (const PluginScore& p : v.scores) {
    if (p.plugin == plugin) return &p;
  }
  return nullptr;
}

// The raw score `plugin` gave `node`, or -1 when it gave none.
inline int64_t RawScore(const PodExplanation& e, const model::Snapshot& s, std::string_view node,
                        std::string_view plugin) {
  const NodeVerdict* v = FindVerdict(e, s, node);
  if (v == nullptr) return -1;
  const PluginScore* p = FindScore(*v, plugin);
  return p == nullptr ? -1 : p->raw;
}

inline int64_t NormalizedScore(const PodExplanation& e, const model::Snapshot& s,
                               std::string_view node, std::string_view plugin) {
  const NodeVerdict* v = FindVerdict(e, s, node);
  if (v == nullptr) return -1;
  const PluginScore* p = FindScore(*v, plugin);
  return p == nullptr ? -1 : p->normalized;
}

// The reason the named filter gave, "" when it passed.
inline std::string FilterReason(const PodExplanation& e, const model::Snapshot& s,
                                std::string_view node, std::string_view plugin) {
  const NodeVerdict* v = FindVerdict(e, s, node);
  if (v == nullptr) return "<no node>";
  const FilterVerdict* f = FindFilter(*v, plugin);
  return f == nullptr ? "<no filter>" : f->reason;
}

inline std::string BoundTo(const model::Snapshot& s, const model::PodDecision& d) {
  return d.node.has_value() ? s.node(*d.node).meta.name : "";
}

// The default profile with only `plugin` scoring, at weight 1.
inline model::SchedulerConfig OnlyScore(const std::string& plugin) {
  model::SchedulerConfig config;
  config.profiles[0].score_weights = {{plugin, 1}};
  return config;
}

// Pod `pod` uses claim `claim` (in its namespace) under the name "gpu".
inline void UseClaim(model::Snapshot& snap, size_t pod, const std::string& claim) {
  snap.pods[pod].resource_claims.push_back(model::PodResourceClaim{"gpu", claim, ""});
}

// How AddGpuSlices publishes a node's GPUs. A chance of 0 is never drawn, so a fleet
// without the feature draws the same numbers as one built before the feature existed.
struct GpuSliceShape {
  std::string driver;
  int h100_percent = 50;           // a GPU's productName is H100, else A100
  int per_device_percent = 0;      // a node's slice names its node on each device instead
  bool multi_allocatable = false;  // then 20% of the devices allow several allocations
  int held_percent = 0;            // an input claim, reserved for a running pod, holds some
};

// Publishes 0-8 GPUs (uniformly) on each of the nodes n0..n<nodes - 1>, each with a
// productName and a pcieRoot (r0 for the first four, r1 after), in one slice per node, its
// pool named after the node, for the node (or, per `shape.per_device_percent`, with each
// device naming the node); then, per `shape.held_percent`, an allocated claim held-<i>
// takes that node's first 1..all GPUs.
template <typename Rng>
void AddGpuSlices(model::Snapshot& snap, int64_t nodes, Rng& rng, const GpuSliceShape& shape) {
  namespace dra = devices::testing;
  for (int64_t i = 0; i < nodes; ++i) {
    const std::string node = berth::testing::Indexed("n", i);
    const int64_t gpus = rng.Below(9);
    if (gpus == 0) continue;
    const bool per_device = shape.per_device_percent > 0 && rng.Chance(shape.per_device_percent);
    dra::SliceB slice(node, per_device ? "per-device" : node, node, shape.driver);
    for (int64_t g = 0; g < gpus; ++g) {
      dra::DeviceB d(berth::testing::Indexed("gpu-", g));
      d.Str("productName", rng.Chance(shape.h100_percent) ? "H100" : "A100")
          .Str("pcieRoot", g < 4 ? "r0" : "r1");
      if (per_device) d.OnNode(node);
      if (shape.multi_allocatable && rng.Chance(20)) d.Multi();
      slice.Dev(d);
    }
    snap.resource_slices.push_back(slice.s);
    if (shape.held_percent > 0 && rng.Chance(shape.held_percent)) {
      dra::ClaimB held(berth::testing::Indexed("held-", i), "default");
      std::vector<std::tuple<std::string, std::string, std::string>> devs;
      const int64_t take = 1 + rng.Below(gpus);
      for (int64_t g = 0; g < take; ++g) {
        devs.emplace_back(shape.driver, node, berth::testing::Indexed("gpu-", g));
      }
      held.Allocated(devs);
      held.c.reserved_for = {"running"};
      snap.resource_claims.push_back(held.c);
    }
  }
}

// Gives the last `pods` pods of `snap` (the pending ones, p0..) claims: none for
// `none_percent` of them; for `share_percent` of the others after the first, the previous
// pod's claim when it has one; otherwise a new claim c<p>, made by `make_claim(name)` (a
// devices::testing::ClaimB), in "default".
template <typename Rng, typename MakeClaim>
void AddPendingClaims(model::Snapshot& snap, int64_t pods, Rng& rng, int none_percent,
                      int share_percent, MakeClaim&& make_claim) {
  const size_t first_pending = snap.pods.size() - static_cast<size_t>(pods);
  for (int64_t p = 0; p < pods; ++p) {
    if (rng.Chance(none_percent)) continue;
    const size_t pod = first_pending + static_cast<size_t>(p);
    if (p > 0 && rng.Chance(share_percent) && !snap.pods[pod - 1].resource_claims.empty()) {
      snap.pods[pod].resource_claims.push_back(snap.pods[pod - 1].resource_claims.front());
      continue;
    }
    const std::string name = berth::testing::Indexed("c", p);
    snap.resource_claims.push_back(make_claim(name).c);
    UseClaim(snap, pod, name);
  }
}

// request=driver/pool/device per result: what two allocations must agree on.
inline std::vector<std::string> AllocatedDevices(const model::AllocationResult& a) {
  std::vector<std::string> out;
  for (const model::DeviceRequestAllocationResult& r : a.results) {
    out.push_back(r.request + "=" + r.driver + "/" + r.pool + "/" + r.device);
  }
  return out;
}

// Two schedulers decided a pod alike: node, message and rejection counts.
inline void ExpectSameDecision(const model::PodDecision& a, const model::PodDecision& b,
                               const std::string& where) {
  ASSERT_EQ(a.node, b.node) << where;
  ASSERT_EQ(a.message, b.message) << where;
  ASSERT_EQ(a.rejections, b.rejections) << where;
}

// Two schedulers of `snap` hold the same claim bindings (pod, claim, whether allocated
// there, devices) and every claim's status (allocation devices, reservedFor) alike.
inline void ExpectSameClaims(const Scheduler& a, const Scheduler& b, const model::Snapshot& snap,
                             const std::string& where) {
  const auto& x = a.ClaimBindings();
  const auto& y = b.ClaimBindings();
  ASSERT_EQ(x.size(), y.size()) << where;
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].pod, y[i].pod) << where;
    EXPECT_EQ(x[i].claim, y[i].claim) << where;
    EXPECT_EQ(x[i].allocated, y[i].allocated) << where;
    EXPECT_EQ(AllocatedDevices(x[i].allocation), AllocatedDevices(y[i].allocation)) << where;
  }
  for (size_t c = 0; c < snap.resource_claims.size(); ++c) {
    const devices::ClaimIndex ci{static_cast<int32_t>(c)};
    const model::ResourceClaim sa = a.ClaimStatus(ci);
    const model::ResourceClaim sb = b.ClaimStatus(ci);
    EXPECT_EQ(sa.allocation.has_value(), sb.allocation.has_value()) << where;
    if (sa.allocation.has_value() && sb.allocation.has_value()) {
      EXPECT_EQ(AllocatedDevices(*sa.allocation), AllocatedDevices(*sb.allocation)) << where;
    }
    EXPECT_EQ(sa.reserved_for, sb.reserved_for) << where;
  }
}

}  // namespace berth::binding
