#include "engine/invariants.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "binding/framework/resource_table.h"
#include "core/quantity.h"
#include "engine/cluster_sim.h"
#include "gpu/fraction_request.h"
#include "gpu/gpu_inventory.h"
#include "gpu/gpu_occupancy.h"
#include "model/pod_requests.h"

namespace berth::engine {
namespace {

// Every rule reads the plan through this: which pods the plan bound, deleted or marked
// terminating, and each pod's last decision. Built once, O(pods + decisions).
struct PlanFacts {
  explicit PlanFacts(const Plan& plan) : plan(plan), s(plan.planned) {
    const size_t n = s.pods.size();
    last_decision.assign(n, -1);
    bound_by_plan.assign(n, false);
    deleted.assign(n, false);
    for (size_t i = 0; i < plan.pod_decisions.size(); ++i) {
      const model::PodDecision& d = plan.pod_decisions[i];
      if (d.pod.v < 0 || static_cast<size_t>(d.pod.v) >= n) continue;
      const auto p = static_cast<size_t>(d.pod.v);
      last_decision[p] = static_cast<int32_t>(i);
      // A decision with a node on a terminating pod marks the input's binding, not a bind.
      if (!d.skipped && d.node.has_value() && !s.pods[p].deletion_timestamp.has_value()) {
        bound_by_plan[p] = true;
      }
    }
    for (const model::PodDeletion& d : plan.deleted_pods) {
      if (d.pod.v >= 0 && static_cast<size_t>(d.pod.v) < n) deleted[static_cast<size_t>(d.pod.v)] = true;
    }
    preempted.assign(n, false);
    for (const model::PodPreemption& pr : plan.preemptions) {
      for (model::PodIndex v : pr.victims) {
        if (v.v >= 0 && static_cast<size_t>(v.v) < n) preempted[static_cast<size_t>(v.v)] = true;
      }
    }
    for (size_t i = 0; i < s.nodes.size(); ++i) {
      node_by_key.emplace(std::make_pair(s.nodes[i].cluster, s.nodes[i].meta.name), i);
    }
  }

  // Pods that hold node resources after the plan.
  bool Holds(size_t p) const {
    const model::Pod& pod = s.pods[p];
    return pod.IsBound() && !pod.IsTerminal() && !deleted[p];
  }
  std::optional<size_t> NodeOf(const model::Pod& pod) const {
    auto it = node_by_key.find(std::make_pair(pod.cluster, pod.node_name));
    if (it == node_by_key.end()) return std::nullopt;
    return it->second;
  }

  const Plan& plan;
  const model::Snapshot& s;
  std::vector<int32_t> last_decision;
  std::vector<bool> bound_by_plan;
  std::vector<bool> deleted;
  // Victims of kube-scheduler's DefaultPreemption (deleted, or being deleted after one cycle).
  std::vector<bool> preempted;
  std::map<std::pair<std::string, std::string>, size_t> node_by_key;
};

std::string Key(const std::string& cluster, const std::string& namespace_, const std::string& name) {
  std::string out = cluster + "/";
  if (!namespace_.empty()) out += namespace_ + "/";
  return out + name;
}

std::string NodeName(const model::Node& n) { return "Node " + Key(n.cluster, "", n.meta.name); }
std::string PodName(const model::Pod& p) {
  return "Pod " + Key(p.cluster, p.meta.namespace_.empty() ? "default" : p.meta.namespace_, p.meta.name);
}
std::string WorkloadName(const model::Workload& w) {
  return "Workload " + Key(w.cluster, w.meta.namespace_.empty() ? "default" : w.meta.namespace_, w.meta.name);
}

// Up to three pod names, for messages that say who is on a node.
std::string Some(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < 3; ++i) out += (i > 0 ? ", " : "") + names[i];
  if (names.size() > 3) out += ", ... (" + std::to_string(names.size()) + " pods)";
  return out;
}

// ---- nodes and device-plugin GPUs ----

void CheckNodes(const PlanFacts& f, std::vector<InvariantViolation>& out) {
  const model::Snapshot& s = f.s;
  const size_t width = s.resources.size();
  // Which resources NodeResourcesFit compares (binding's table), and nvidia.com/gpu, which
  // GPU-fraction reservations take whole.
  std::vector<bool> checked(width, false);
  for (size_t r = 0; r < width; ++r) {
    const model::ResourceId id{static_cast<uint16_t>(r)};
    checked[r] = id == model::kCpu || id == model::kMemory || id == model::kEphemeralStorage ||
                 (id != model::kPods && binding::IsScalarResourceName(s.resources.Name(id)));
  }
  model::ResourceId gpu_id;
  const bool has_gpu = s.resources.Find(gpu::kResourceGpu, &gpu_id);

  std::vector<int64_t> requested(s.nodes.size() * width, 0);
  std::vector<int64_t> pods_on(s.nodes.size(), 0);
  // Pods the plan bound per node, with what they ask (only those nodes are checked: a node
  // the input already overcommits stays as it was unless the plan adds to it).
  std::vector<std::vector<size_t>> plan_pods(s.nodes.size());
  std::vector<std::vector<gpu::PodGpuDemand>> demands(s.nodes.size());
  std::vector<int64_t> scratch(width);
  auto add = [&](size_t p) {
    const model::Pod& pod = s.pods[p];
    const std::optional<size_t> node = f.NodeOf(pod);
    if (!node) {
      if (f.bound_by_plan[p]) {
        out.push_back({"node-missing", PodName(pod),
                       "bound to node " + pod.node_name + ", which cluster " + pod.cluster +
                           " does not have"});
      }
      return;
    }
    std::fill(scratch.begin(), scratch.end(), 0);
    model::PodRequestsInto(pod, {}, scratch);
    int64_t* row = &requested[*node * width];
    for (size_t r = 0; r < width; ++r) row[r] = model::SaturatingAdd(row[r], scratch[r]);
    ++pods_on[*node];
    if (f.bound_by_plan[p]) plan_pods[*node].push_back(p);
    gpu::PodGpuDemand demand =
        gpu::GpuDemandOf(pod, model::PodIndex{static_cast<int32_t>(p)}, s.resources);
    if (!demand.empty()) demands[*node].push_back(std::move(demand));
  };
  // Binding's order (engine/inventory.h): pods bound in the input, then the plan's binds in
  // scheduling order, so the fraction ledgers replay as binding accounted them.
  for (size_t p = 0; p < s.pods.size(); ++p) {
    if (f.Holds(p) && !f.bound_by_plan[p]) add(p);
  }
  // The GPU demands of every pod bound in the input, those the plan deleted included: the
  // devices as binding found them before the plan.
  std::vector<std::vector<gpu::PodGpuDemand>> input_demands(s.nodes.size());
  for (size_t p = 0; p < s.pods.size(); ++p) {
    const model::Pod& pod = s.pods[p];
    if (!pod.IsBound() || pod.IsTerminal() || f.bound_by_plan[p]) continue;
    const std::optional<size_t> node = f.NodeOf(pod);
    if (!node) continue;
    gpu::PodGpuDemand demand =
        gpu::GpuDemandOf(pod, model::PodIndex{static_cast<int32_t>(p)}, s.resources);
    if (!demand.empty()) input_demands[*node].push_back(std::move(demand));
  }
  std::vector<bool> added(s.pods.size(), false);
  for (const model::PodDecision& d : f.plan.pod_decisions) {
    const auto p = static_cast<size_t>(d.pod.v);
    if (d.pod.v < 0 || p >= s.pods.size() || !f.bound_by_plan[p] || !f.Holds(p) || added[p]) continue;
    added[p] = true;  // counted once, at its first bind
    add(p);
  }

  for (size_t i = 0; i < s.nodes.size(); ++i) {
    if (plan_pods[i].empty()) continue;
    const model::Node& node = s.nodes[i];
    int64_t* row = &requested[i * width];
    // GPU devices: the device plugin's assignment replayed (gpu_occupancy), and the GPUs the
    // fraction ledger reserved, which take nvidia.com/gpu as binding counts them.
    const gpu::NodeGpuInventory inventory = gpu::ReadNodeGpus(node, s.resources);
    bool reserved_by_plan = false;
    // Pods the input bound with GPUs its devices cannot hold (more than the node has, a
    // fraction that fits no GPU): the node's GPU accounting is the input's and order-dependent
    // (binding placed the fraction while pods the plan deleted still held their GPUs), so its
    // GPUs are left unchecked, as an overcommitted resource is.
    const bool input_gpus_inconsistent =
        !inventory.empty() && !input_demands[i].empty() &&
        !gpu::AssignGpus(inventory, input_demands[i]).unassigned.empty();
    if (!inventory.empty() && !demands[i].empty() && !input_gpus_inconsistent) {
      const gpu::NodeOccupancy occ = gpu::AssignGpus(inventory, demands[i]);
      for (size_t d = 0; d < occ.devices.size() && d < inventory.devices.size(); ++d) {
        if (occ.devices[d].used > inventory.devices[d].replicas) {
          out.push_back({"gpu-devices", NodeName(node),
                         inventory.devices[d].resource + " device " + std::to_string(d) + " holds " +
                             std::to_string(occ.devices[d].used) + " replicas > " +
                             std::to_string(inventory.devices[d].replicas)});
        }
      }
      for (const gpu::SharedGpu& g : occ.fractions.shared()) {
        const int64_t memory = occ.fractions.gpu_memory_mib();
        if (g.milli_used > gpu::kMilliGpu || (memory > 0 && g.memory_used_mib > memory)) {
          out.push_back({"gpu-fraction", NodeName(node),
                         "shared GPU " + std::to_string(g.gpu) + " holds " +
                             std::to_string(g.milli_used) + " milli-GPU (max 1000) and " +
                             std::to_string(g.memory_used_mib) + " MiB (GPU memory " +
                             std::to_string(memory) + " MiB)"});
        }
      }
      for (const gpu::UnassignedDemand& u : occ.unassigned) {
        if (!f.bound_by_plan[static_cast<size_t>(u.pod.v)]) continue;  // the input's
        // kube-scheduler binds such a pod and the kubelet refuses it (UnexpectedAdmissionError),
        // as berth models it: not a device given twice.
        if (inventory.sharing.fail_requests_greater_than_one && u.amount > 1) continue;
        out.push_back({"gpu-devices", PodName(s.pod(u.pod)),
                       "bound to " + node.meta.name + " but " + std::to_string(u.amount) + " " +
                           u.resource + " got no device: " + u.reason});
      }
      if (has_gpu) {
        row[gpu_id.v] = model::SaturatingAdd(
            row[gpu_id.v], static_cast<int64_t>(occ.fractions.shared().size()));
      }
      // A shared GPU is the plan's reservation when its first holder is a pod the plan bound.
      for (const gpu::SharedGpu& g : occ.fractions.shared()) {
        reserved_by_plan = reserved_by_plan ||
                           (!g.holders.empty() && f.bound_by_plan[static_cast<size_t>(g.holders.front().pod.v)]);
      }
    }
    std::vector<std::string> names;
    for (size_t p : plan_pods[i]) names.push_back(s.pods[p].meta.name);
    for (size_t r = 0; r < width; ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      if (!checked[r] || row[r] <= node.allocatable.Get(id)) continue;
      if (input_gpus_inconsistent && gpu::IsNvidiaGpuResource(s.resources.Name(id))) continue;
      // Over: a violation when a pod the plan put here asks for it, or a GPU-fraction pod
      // the plan put here reserved a GPU (fractions sharing a GPU reserved before add none).
      bool adds = has_gpu && id == gpu_id && reserved_by_plan;
      for (size_t p : plan_pods[i]) adds = adds || model::PodRequests(s.pods[p]).Get(id) > 0;
      if (!adds) continue;
      out.push_back({"node-capacity", NodeName(node),
                     s.resources.Name(id) + " requested " + std::to_string(row[r]) +
                         " > allocatable " + std::to_string(node.allocatable.Get(id)) +
                         " after the plan bound " + Some(names)});
    }
    if (pods_on[i] > node.allocatable.Get(model::kPods)) {
      out.push_back({"node-pods", NodeName(node),
                     std::to_string(pods_on[i]) + " pods > allocatable pods " +
                         std::to_string(node.allocatable.Get(model::kPods)) +
                         " after the plan bound " + Some(names)});
    }
  }
}

// ---- DRA devices ----

struct DeviceRef {
  const model::Device* device = nullptr;
  const model::ResourceSlice* slice = nullptr;
};

void CheckDevices(const PlanFacts& f, std::vector<InvariantViolation>& out) {
  const model::Snapshot& s = f.s;
  if (s.resource_claims.empty()) return;
  // Devices of each pool's newest generation (older slices are stale), by name.
  using PoolKey = std::tuple<std::string, std::string, std::string>;  // cluster, driver, pool
  std::map<PoolKey, int64_t> generation;
  for (const model::ResourceSlice& sl : s.resource_slices) {
    auto [it, fresh] = generation.emplace(PoolKey{sl.cluster, sl.driver, sl.pool_name}, sl.pool_generation);
    if (!fresh) it->second = std::max(it->second, sl.pool_generation);
  }
  std::map<std::tuple<std::string, std::string, std::string, std::string>, DeviceRef> devices;
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, core::Quantity>
      counters;  // pool + counter set + counter -> amount
  for (const model::ResourceSlice& sl : s.resource_slices) {
    if (generation[PoolKey{sl.cluster, sl.driver, sl.pool_name}] != sl.pool_generation) continue;
    for (const model::Device& d : sl.devices) {
      devices.emplace(std::make_tuple(sl.cluster, sl.driver, sl.pool_name, d.name), DeviceRef{&d, &sl});
    }
    for (const model::CounterSet& cs : sl.shared_counters) {
      for (const auto& [name, q] : cs.counters) {
        counters.emplace(std::make_tuple(sl.cluster, sl.driver, sl.pool_name, cs.name, name), q);
      }
    }
  }
  const std::set<int32_t> changed(f.plan.changed_claims.begin(), f.plan.changed_claims.end());
  struct Use {
    std::vector<size_t> claims;
    bool by_plan = false;
    std::map<std::string, core::Quantity> consumed;
  };
  std::map<std::tuple<std::string, std::string, std::string, std::string>, Use> uses;
  for (size_t c = 0; c < s.resource_claims.size(); ++c) {
    const model::ResourceClaim& claim = s.resource_claims[c];
    if (!claim.allocation) continue;
    for (const model::DeviceRequestAllocationResult& r : claim.allocation->results) {
      if (r.admin_access) continue;  // admin access may share any device (DRA's rule)
      Use& u = uses[std::make_tuple(claim.cluster, r.driver, r.pool, r.device)];
      if (std::find(u.claims.begin(), u.claims.end(), c) == u.claims.end()) u.claims.push_back(c);
      u.by_plan = u.by_plan || changed.contains(static_cast<int32_t>(c));
      for (const auto& [name, q] : r.consumed_capacity) {
        auto [it, fresh] = u.consumed.emplace(name, q);
        if (!fresh) it->second = it->second + q;
      }
    }
  }
  auto claim_names = [&](const std::vector<size_t>& claims) {
    std::vector<std::string> names;
    for (size_t c : claims) {
      const model::ResourceClaim& cl = s.resource_claims[c];
      names.push_back((cl.meta.namespace_.empty() ? "default" : cl.meta.namespace_) + "/" + cl.meta.name);
    }
    return Some(names);
  };
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, core::Quantity>
      consumed_counters;
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, bool>
      counters_by_plan;
  for (const auto& [key, u] : uses) {
    const auto& [cluster, driver, pool, device] = key;
    const std::string object = "Device " + cluster + "/" + driver + "/" + pool + "/" + device;
    auto it = devices.find(key);
    if (it == devices.end()) continue;  // a device no slice publishes: the input's claim
    const model::Device& d = *it->second.device;
    if (!d.allow_multiple_allocations) {
      if (u.claims.size() > 1 && u.by_plan) {
        out.push_back({"device-once", object,
                       "allocated to " + std::to_string(u.claims.size()) + " claims: " + claim_names(u.claims)});
      }
    } else if (u.by_plan) {
      for (const auto& [name, q] : u.consumed) {
        auto cap = d.capacity.find(name);
        if (cap != d.capacity.end() && q > cap->second.value) {
          out.push_back({"device-capacity", object,
                         name + " consumed " + q.ToString() + " > capacity " +
                             cap->second.value.ToString() + " by " + claim_names(u.claims)});
        }
      }
    }
    for (const model::DeviceCounterConsumption& cc : d.consumes_counters) {
      for (const auto& [name, q] : cc.counters) {
        const auto ck = std::make_tuple(cluster, driver, pool, cc.counter_set, name);
        auto [ci, fresh] = consumed_counters.emplace(ck, q);
        if (!fresh) ci->second = ci->second + q;
        counters_by_plan[ck] = counters_by_plan[ck] || u.by_plan;
      }
    }
  }
  for (const auto& [ck, q] : consumed_counters) {
    auto have = counters.find(ck);
    if (have == counters.end() || q <= have->second || !counters_by_plan[ck]) continue;
    const auto& [cluster, driver, pool, set, name] = ck;
    out.push_back({"device-counters", "Pool " + cluster + "/" + driver + "/" + pool,
                   "counter " + set + "/" + name + " consumed " + q.ToString() + " > " +
                       have->second.ToString()});
  }
}

// ---- Kueue quota ----

bool IsTrue(const model::Workload& w, const char* type) {
  const model::WorkloadCondition* c = w.FindCondition(type);
  return c != nullptr && c->status == "True";
}

// Holds quota after the plan: an admission and QuotaReserved=True, not finished.
bool HoldsQuota(const model::Workload& w) {
  return w.admission.has_value() && IsTrue(w, "QuotaReserved") && !IsTrue(w, "Finished");
}

// One workload's hold on quota: its admission, in its cluster, and whether the pass being
// checked made it (only those can break a limit the input did not already break).
struct QuotaHolder {
  const std::string* cluster = nullptr;
  const model::Admission* admission = nullptr;
  bool new_admission = false;
};

void CheckQuotaOf(const model::Snapshot& s, const std::vector<QuotaHolder>& holders,
                  std::vector<InvariantViolation>& out) {
  if (s.cluster_queues.empty()) return;
  // (flavor, resource name) amounts.
  using FR = std::pair<std::string, std::string>;
  struct Queue {
    const model::ClusterQueue* cq = nullptr;
    std::map<FR, int64_t> nominal, usage;
    std::map<FR, std::optional<int64_t>> borrowing_limit;
    std::map<FR, int64_t> guaranteed;  // nominal - lendingLimit: never lent
    std::set<FR> admitted_by_plan;      // flavor-resources a workload the plan admitted uses
  };
  std::map<std::pair<std::string, std::string>, Queue> queues;  // (cluster, name)
  for (const model::ClusterQueue& cq : s.cluster_queues) {
    Queue& q = queues[{cq.cluster, cq.meta.name}];
    if (q.cq != nullptr) continue;  // a duplicate name: the reader reports it
    q.cq = &cq;
    for (const model::ResourceGroup& g : cq.resource_groups) {
      for (const model::FlavorQuotas& fq : g.flavors) {
        for (const model::ResourceQuota& rq : fq.resources) {
          const FR fr{fq.flavor, s.resources.Name(rq.resource)};
          q.nominal[fr] = rq.nominal;
          q.borrowing_limit[fr] = rq.borrowing_limit;
          q.guaranteed[fr] = rq.lending_limit ? std::max<int64_t>(0, rq.nominal - *rq.lending_limit) : 0;
        }
      }
    }
  }
  for (const QuotaHolder& h : holders) {
    auto it = queues.find({*h.cluster, h.admission->cluster_queue});
    if (it == queues.end()) continue;
    for (const model::PodSetAssignment& psa : h.admission->pod_set_assignments) {
      for (const auto& [resource, flavor] : psa.flavors) {
        auto usage = psa.resource_usage.find(resource);
        if (usage == psa.resource_usage.end()) continue;
        const FR fr{flavor, resource};
        it->second.usage[fr] = model::SaturatingAdd(it->second.usage[fr], usage->second);
        if (h.new_admission) it->second.admitted_by_plan.insert(fr);
      }
    }
  }
  // Per ClusterQueue.
  for (const auto& [key, q] : queues) {
    if (q.cq == nullptr) continue;
    for (const auto& [fr, used] : q.usage) {
      if (!q.admitted_by_plan.contains(fr)) continue;
      const int64_t nominal = q.nominal.contains(fr) ? q.nominal.at(fr) : 0;
      const std::optional<int64_t> limit =
          q.borrowing_limit.contains(fr) ? q.borrowing_limit.at(fr) : std::nullopt;
      std::optional<int64_t> cap;
      if (q.cq->cohort.empty()) {
        cap = nominal;
      } else if (limit) {
        cap = model::SaturatingAdd(nominal, *limit);
      }
      if (cap && used > *cap) {
        out.push_back({"quota", "ClusterQueue " + key.first + "/" + key.second,
                       fr.second + " in flavor " + fr.first + ": usage " + std::to_string(used) +
                           " > " + (q.cq->cohort.empty() ? "nominal " : "nominal + borrowingLimit ") +
                           std::to_string(*cap)});
      }
    }
  }
  // Per cohort tree: usage above the queues' guaranteed quota must fit in what the tree
  // holds beyond those guarantees (every queue's and cohort's nominal quota).
  std::map<std::pair<std::string, std::string>, const model::Cohort*> cohorts;
  for (const model::Cohort& c : s.cohorts) cohorts.emplace(std::make_pair(c.cluster, c.meta.name), &c);
  auto root_of = [&](const std::string& cluster, std::string name) {
    // Bounded: a cycle (the reader reports it) ends the walk.
    for (size_t steps = 0; steps <= cohorts.size(); ++steps) {
      auto it = cohorts.find({cluster, name});
      if (it == cohorts.end() || it->second->parent.empty()) break;
      name = it->second->parent;
    }
    return name;
  };
  struct Tree {
    std::map<FR, int64_t> capacity, guaranteed, borrowed;
    std::set<FR> admitted_by_plan;
  };
  std::map<std::pair<std::string, std::string>, Tree> trees;
  for (const auto& [key, q] : queues) {
    if (q.cq == nullptr || q.cq->cohort.empty()) continue;
    Tree& t = trees[{key.first, root_of(key.first, q.cq->cohort)}];
    for (const auto& [fr, n] : q.nominal) {
      t.capacity[fr] = model::SaturatingAdd(t.capacity[fr], n);
      t.guaranteed[fr] = model::SaturatingAdd(t.guaranteed[fr], q.guaranteed.at(fr));
    }
    for (const auto& [fr, used] : q.usage) {
      const int64_t g = q.guaranteed.contains(fr) ? q.guaranteed.at(fr) : 0;
      t.borrowed[fr] = model::SaturatingAdd(t.borrowed[fr], std::max<int64_t>(0, used - g));
      // Blamed on this pass only where a queue it admitted into draws on the cohort: a
      // queue within its guaranteed quota takes nothing from the others (Kueue admits it
      // whatever the cohort's state, which the input may have left over).
      if (used > g && q.admitted_by_plan.contains(fr)) t.admitted_by_plan.insert(fr);
    }
  }
  for (const model::Cohort& c : s.cohorts) {
    auto t = trees.find({c.cluster, root_of(c.cluster, c.meta.name)});
    if (t == trees.end()) continue;
    for (const model::ResourceGroup& g : c.resource_groups) {
      for (const model::FlavorQuotas& fq : g.flavors) {
        for (const model::ResourceQuota& rq : fq.resources) {
          const FR fr{fq.flavor, s.resources.Name(rq.resource)};
          t->second.capacity[fr] = model::SaturatingAdd(t->second.capacity[fr], rq.nominal);
        }
      }
    }
  }
  for (const auto& [key, t] : trees) {
    for (const auto& [fr, borrowed] : t.borrowed) {
      if (!t.admitted_by_plan.contains(fr)) continue;
      const int64_t capacity = t.capacity.contains(fr) ? t.capacity.at(fr) : 0;
      const int64_t guaranteed = t.guaranteed.contains(fr) ? t.guaranteed.at(fr) : 0;
      const int64_t lendable = capacity - guaranteed;
      if (borrowed > lendable) {
        out.push_back({"cohort-quota", "Cohort " + key.first + "/" + key.second,
                       fr.second + " in flavor " + fr.first + ": usage beyond guaranteed quota " +
                           std::to_string(borrowed) + " > lendable quota " +
                           std::to_string(lendable) + " (nominal " + std::to_string(capacity) +
                           ", guaranteed " + std::to_string(guaranteed) + ")"});
      }
    }
  }
}

void CheckQuota(const PlanFacts& f, std::vector<InvariantViolation>& out) {
  const model::Snapshot& s = f.s;
  std::vector<bool> admitted_by_plan(s.kueue_workloads.size(), false);
  for (const Plan::ClusterAdmission& a : f.plan.admissions) {
    for (const queueing::WorkloadDecision& d : a.result.decisions) {
      if ((d.outcome == queueing::WorkloadOutcome::kAdmitted ||
           d.outcome == queueing::WorkloadOutcome::kQuotaReserved) &&
          d.admission.has_value() && d.workload >= 0 &&
          static_cast<size_t>(d.workload) < admitted_by_plan.size()) {
        admitted_by_plan[static_cast<size_t>(d.workload)] = true;
      }
    }
  }
  std::vector<QuotaHolder> holders;
  for (size_t i = 0; i < s.kueue_workloads.size(); ++i) {
    const model::Workload& w = s.kueue_workloads[i];
    if (HoldsQuota(w)) holders.push_back({&w.cluster, &*w.admission, admitted_by_plan[i]});
  }
  CheckQuotaOf(s, holders, out);
}

// ---- admitted workloads' pods ----

// The pod's wait has a reason written: PodScheduled=False with a message.
bool WaitsWithReason(const model::Pod& pod) {
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "PodScheduled") return c.status == "False" && !c.message.empty();
  }
  return false;
}

void CheckAdmittedPods(const PlanFacts& f, std::vector<InvariantViolation>& out) {
  const model::Snapshot& s = f.s;
  std::vector<std::vector<int32_t>> created(s.kueue_workloads.size());
  for (const Plan::CreatedPod& c : f.plan.created_pods) {
    if (c.workload >= 0 && static_cast<size_t>(c.workload) < created.size()) {
      created[static_cast<size_t>(c.workload)].push_back(c.pod);
    }
  }
  // Queues given without nodes are planned on quota alone: their pods get no decision.
  std::set<std::string> with_nodes;
  for (const model::Node& n : s.nodes) with_nodes.insert(n.cluster);
  auto placed = [&](size_t p) {
    const model::Pod& pod = s.pods[p];
    // kube-scheduler preempted it (it does not know Kueue): its deletion names the
    // preemptor, and the job's controller creates it anew.
    if (f.preempted[p]) return true;
    // The API server refused to create it (ResourceQuota, LimitRange): NotCreated says why.
    if (!pod.admission_refused.empty()) return true;
    return !f.deleted[p] && (pod.IsBound() || pod.IsTerminal() || WaitsWithReason(pod));
  };
  for (size_t i = 0; i < s.kueue_workloads.size(); ++i) {
    const model::Workload& w = s.kueue_workloads[i];
    // Pods of a workload dispatched to a worker cluster run there (MultiKueue).
    if (w.pods.empty() || !w.cluster_name.empty() || !HoldsQuota(w) || !IsTrue(w, "Admitted") ||
        IsTrue(w, "Evicted") || !with_nodes.contains(w.cluster)) {
      continue;
    }
    int64_t wanted = 0, ok = 0;
    std::vector<std::string> missing;
    for (const model::PodSetAssignment& psa : w.admission->pod_set_assignments) {
      size_t ps = 0;
      while (ps < w.pod_sets.size() && w.pod_sets[ps].name != psa.name) ++ps;
      if (ps >= w.pods.size()) continue;
      wanted += psa.count;
      const std::vector<int32_t>& pods = w.pods[ps];
      for (size_t k = 0; k < pods.size() && k < static_cast<size_t>(std::max(psa.count, 0)); ++k) {
        const auto p = static_cast<size_t>(pods[k]);
        if (p >= s.pods.size()) continue;
        if (placed(p)) {
          ++ok;
        } else if (!f.deleted[p]) {
          missing.push_back(s.pods[p].meta.name);
        }
      }
    }
    for (int32_t p : created[i]) ok += placed(static_cast<size_t>(p)) ? 1 : 0;
    if (ok < wanted) {
      out.push_back({"admitted-pods", WorkloadName(w),
                     "admitted with " + std::to_string(wanted) + " pods but only " +
                         std::to_string(ok) + " are bound or say why they wait" +
                         (missing.empty() ? std::string() : "; without either: " + Some(missing))});
    }
  }
}

// ---- printed statuses against the decisions ----

void CheckStatuses(const PlanFacts& f, std::vector<InvariantViolation>& out) {
  const model::Snapshot& s = f.s;
  for (size_t p = 0; p < s.pods.size(); ++p) {
    if (f.last_decision[p] < 0 || f.deleted[p]) continue;
    const model::PodDecision& d = f.plan.pod_decisions[static_cast<size_t>(f.last_decision[p])];
    if (d.skipped) continue;
    const model::Pod& pod = s.pods[p];
    const model::PodCondition* scheduled = nullptr;
    for (const model::PodCondition& c : pod.conditions) {
      if (c.type == "PodScheduled") scheduled = &c;
    }
    // A decision marking a pod of the input terminating (plan --cycles N) repeats its node
    // and writes no PodScheduled.
    const bool terminating = pod.deletion_timestamp.has_value();
    if (d.node.has_value()) {
      const std::string& node =
          static_cast<size_t>(d.node->v) < s.nodes.size() ? s.node(*d.node).meta.name : std::string("?");
      if (pod.node_name != node ||
          (!terminating && (scheduled == nullptr || scheduled->status != "True"))) {
        out.push_back({"pod-status", PodName(pod),
                       "decision: bound to " + node + "; printed: spec.nodeName '" + pod.node_name +
                           "', PodScheduled " + (scheduled ? scheduled->status : "<none>")});
      }
    } else if (pod.IsBound() || scheduled == nullptr || scheduled->status != "False" ||
               scheduled->message != d.message) {
      out.push_back({"pod-status", PodName(pod),
                     "decision: unschedulable (" + d.message + "); printed: spec.nodeName '" +
                         pod.node_name + "', PodScheduled " +
                         (scheduled ? scheduled->status + " (" + scheduled->message + ")" : "<none>")});
    }
  }
  for (const Plan::ClusterAdmission& a : f.plan.admissions) {
    for (const queueing::WorkloadDecision& d : a.result.decisions) {
      if (d.workload < 0 || static_cast<size_t>(d.workload) >= s.kueue_workloads.size()) continue;
      const model::Workload& w = s.kueue_workloads[static_cast<size_t>(d.workload)];
      const bool admitted = d.outcome == queueing::WorkloadOutcome::kAdmitted ||
                            d.outcome == queueing::WorkloadOutcome::kAlreadyAdmitted;
      if (admitted && d.admission.has_value() &&
          (!w.admission.has_value() || w.admission->cluster_queue != d.admission->cluster_queue ||
           !IsTrue(w, "QuotaReserved"))) {
        out.push_back({"workload-status", WorkloadName(w),
                       std::string("decision: ") + queueing::WorkloadOutcomeName(d.outcome) + " in " +
                           d.admission->cluster_queue + "; printed: admission " +
                           (w.admission ? w.admission->cluster_queue : "<none>") +
                           ", QuotaReserved " + (IsTrue(w, "QuotaReserved") ? "True" : "not True")});
      }
      if (d.outcome == queueing::WorkloadOutcome::kPending && HoldsQuota(w)) {
        out.push_back({"workload-status", WorkloadName(w),
                       "decision: pending (" + d.reason + "); printed: admitted to " +
                           w.admission->cluster_queue});
      }
    }
  }
}

}  // namespace

std::string InvariantViolation::ToString() const {
  return "invariant " + invariant + " violated: " + object + ": " + message;
}

SimStepChecker::SimStepChecker(const ClusterSim& sim) : sim_(sim) {
  const model::Snapshot& world = sim.world();
  const size_t width = world.resources.size();
  overcommitted_.assign(world.nodes.size() * width, false);
  for (size_t n = 0; n < world.nodes.size(); ++n) {
    const model::ResourceVector free = sim.scheduler().NodeFree(model::NodeIndex{static_cast<int32_t>(n)});
    for (size_t r = 0; r < width; ++r) {
      overcommitted_[n * width + r] = free.Get(model::ResourceId{static_cast<uint16_t>(r)}) < 0;
    }
  }
}

std::vector<InvariantViolation> SimStepChecker::Check() const {
  const model::Snapshot& world = sim_.world();
  std::vector<InvariantViolation> out;
  const size_t width = world.resources.size();
  for (size_t n = 0; n < world.nodes.size(); ++n) {
    const model::Node& node = world.nodes[n];
    if (node.cluster != sim_.cluster()) continue;
    const model::ResourceVector free = sim_.scheduler().NodeFree(model::NodeIndex{static_cast<int32_t>(n)});
    for (size_t r = 0; r < width; ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      if (free.Get(id) >= 0 || overcommitted_[n * width + r]) continue;
      out.push_back({"node-capacity", NodeName(node),
                     world.resources.Name(id) + " requested " +
                         std::to_string(node.allocatable.Get(id) - free.Get(id)) + " > allocatable " +
                         std::to_string(node.allocatable.Get(id))});
    }
  }
  std::vector<QuotaHolder> holders;
  for (const int32_t i : sim_.QuotaHolders()) {
    const model::Workload& w = world.kueue_workloads[static_cast<size_t>(i)];
    const std::optional<model::Admission>& a = sim_.admission(i);
    if (a.has_value()) holders.push_back({&w.cluster, &*a, true});
  }
  CheckQuotaOf(world, holders, out);
  return out;
}

std::vector<InvariantViolation> CheckPlanInvariants(const Plan& plan) {
  const PlanFacts facts(plan);
  std::vector<InvariantViolation> out;
  CheckNodes(facts, out);
  CheckDevices(facts, out);
  CheckQuota(facts, out);
  CheckAdmittedPods(facts, out);
  CheckStatuses(facts, out);
  return out;
}

}  // namespace berth::engine
