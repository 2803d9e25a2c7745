#include "diag/why_fixes.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/taint.h"
#include "model/pod_requests.h"

namespace berth::diag {
namespace {

// One candidate change: how it reads, how it is applied to a copy of the input, and the
// objects it removes on purpose (its victims, reported as preempted rather than delayed).
struct FixCandidate {
  std::string change;
  std::function<void(model::Snapshot&)> apply;
  std::set<std::string> victims;  // "Pod ns/name" or "Workload ns/name"
  // Candidates of one family are tried smallest change first; once one works the rest
  // are bigger changes to the same end and are not tried.
  std::string family = {};
};

std::string PodLabel(const model::Pod& pod) { return "pod " + engine::PodKey(pod); }
std::string WorkloadLabel(const model::Workload& w) {
  return "workload " + w.meta.NamespacedName();
}

bool Admits(const engine::WorkloadDecision* d) {
  return d != nullptr && (d->outcome == engine::WorkloadOutcome::kAdmitted ||
                          d->outcome == engine::WorkloadOutcome::kAlreadyAdmitted ||
                          d->outcome == engine::WorkloadOutcome::kQuotaReserved);
}

// Every pod the change must reach: the target's pods and, for a Kueue Workload, its pod
// sets' templates (the pods Kueue creates once it admits).
void ForEachTargetPod(const WhyContext& ctx, model::Snapshot& s,
                      const std::function<void(model::Pod&)>& fn) {
  for (int32_t p : ctx.target.pods) fn(s.pods[static_cast<size_t>(p)]);
  if (ctx.target.kind == ResolvedTarget::Kind::kKueue) {
    for (auto& set : s.kueue_workloads[static_cast<size_t>(ctx.target.workload)].pod_sets)
      fn(set.pod_template);
  }
}

// ---- what changed between the baseline plan and a fix's plan ----

std::string SideEffects(const WhyContext& ctx, const engine::Plan& after, const FixCandidate& fix) {
  const model::Snapshot& input = *ctx.input;
  std::set<int32_t> skip(ctx.target.pods.begin(), ctx.target.pods.end());
  for (const auto& w : input.kueue_workloads) {
    for (const auto& set : w.pods) skip.insert(set.begin(), set.end());
  }
  std::vector<std::string> preempted;
  std::vector<std::string> delayed;
  for (size_t i = 0; i < input.pods.size(); ++i) {
    if (skip.count(static_cast<int32_t>(i)) != 0) continue;
    const model::Pod& before = ctx.base.planned.pods[i];
    const model::Pod& now = after.planned.pods[i];
    if (!before.IsBound() || before.IsTerminal() || (now.IsBound() && !now.IsTerminal())) continue;
    const std::string label = PodLabel(input.pods[i]);
    (fix.victims.count(label) != 0 ? preempted : delayed).push_back(label);
  }
  for (size_t i = 0; i < input.kueue_workloads.size(); ++i) {
    if (static_cast<int32_t>(i) == ctx.target.workload) continue;
    const int32_t w = static_cast<int32_t>(i);
    if (!Admits(DecisionIn(ctx.base, input, w)) || Admits(DecisionIn(after, input, w))) continue;
    const std::string label = WorkloadLabel(input.kueue_workloads[i]);
    (fix.victims.count(label) != 0 ? preempted : delayed).push_back(label);
  }
  std::string out;
  if (!preempted.empty()) out = "preempts " + NameList(preempted, 5);
  if (!delayed.empty())
    out += (out.empty() ? "" : "; ") + std::string("leaves pending ") + NameList(delayed, 5);
  return out.empty() ? "no other pod or workload changes" : out;
}

// ---- pod-level candidates (kube-scheduler's filters) ----

std::string TolerationText(const core::Taint& taint) {
  return taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" +
         core::TaintEffectName(taint.effect);
}

void AddTolerationFixes(const WhyContext& ctx, const model::Pod& pod,
                        std::vector<FixCandidate>& out) {
  std::vector<std::pair<core::Taint, size_t>> taints;  // distinct, with node counts
  for (const NodeGroup& g : ctx.groups) {
    if (g.plugin != "TaintToleration") continue;
    for (int32_t n : g.nodes) {
      const core::Taint* t = core::FindUntoleratedHardTaint(
          ctx.input->nodes[static_cast<size_t>(n)].taints, pod.tolerations);
      // Node lifecycle taints (not-ready, unreachable, unschedulable) are not for pods to tolerate.
      if (t == nullptr || t->key.rfind("node.kubernetes.io/", 0) == 0) continue;
      auto it =
          std::find_if(taints.begin(), taints.end(), [&](const auto& e) { return e.first == *t; });
      if (it == taints.end()) {
        taints.emplace_back(*t, 1);
      } else {
        ++it->second;
      }
    }
  }
  std::stable_sort(taints.begin(), taints.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (size_t i = 0; i < taints.size() && i < 2; ++i) {
    const core::Taint taint = taints[i].first;
    core::Toleration toleration;
    toleration.key = taint.key;
    toleration.op = taint.value.empty() ? core::TolerationOp::kExists : core::TolerationOp::kEqual;
    toleration.value = taint.value;
    toleration.effect = taint.effect;
    out.push_back({"add the toleration " + TolerationText(taint) + " (operator " +
                       (taint.value.empty() ? "Exists" : "Equal") + ") to " + ctx.target.display +
                       ": " + std::to_string(taints[i].second) + " nodes carry that taint",
                   [&ctx, toleration](model::Snapshot& s) {
                     ForEachTargetPod(ctx, s,
                                      [&](model::Pod& p) { p.tolerations.push_back(toleration); });
                   },
                   {}});
  }
}

void AddSelectorFixes(const WhyContext& ctx, const model::Pod& pod,
                      std::vector<FixCandidate>& out) {
  const bool affinity_rejected =
      std::any_of(ctx.groups.begin(), ctx.groups.end(),
                  [](const NodeGroup& g) { return g.plugin == "NodeAffinity"; });
  if (!affinity_rejected) return;
  for (const auto& entry : pod.node_selector) {
    // Copies, not structured bindings: lambdas may not capture those before C++20's P1091.
    const std::string key = entry.first;
    const std::string value = entry.second;
    const bool any =
        std::any_of(ctx.input->nodes.begin(), ctx.input->nodes.end(), [&](const model::Node& n) {
          auto it = n.meta.labels.find(key);
          return n.cluster == pod.cluster && it != n.meta.labels.end() && it->second == value;
        });
    if (any) continue;
    out.push_back({"remove nodeSelector " + key + "=" + value + " from " + ctx.target.display +
                       ": no node of cluster " + pod.cluster + " has that label",
                   [&ctx, key](model::Snapshot& s) {
                     ForEachTargetPod(ctx, s, [&](model::Pod& p) { p.node_selector.erase(key); });
                   },
                   {}});
  }
  if (pod.node_affinity.required) {
    const bool any =
        std::any_of(ctx.input->nodes.begin(), ctx.input->nodes.end(), [&](const model::Node& n) {
          return n.cluster == pod.cluster &&
                 pod.node_affinity.required->Matches(n.meta.labels, n.meta.name);
        });
    if (!any) {
      out.push_back({"remove the required node affinity of " + ctx.target.display +
                         ": no node of cluster " + pod.cluster + " satisfies it",
                     [&ctx](model::Snapshot& s) {
                       ForEachTargetPod(ctx, s,
                                        [&](model::Pod& p) { p.node_affinity.required.reset(); });
                     },
                     {}});
    }
  }
}

// Nodes the pod failed only for lack of room (its first failing filter NodeResourcesFit).
std::vector<int32_t> ShortNodes(const WhyContext& ctx) {
  std::vector<int32_t> nodes;
  for (const NodeGroup& g : ctx.groups) {
    if (g.plugin == "NodeResourcesFit") nodes.insert(nodes.end(), g.nodes.begin(), g.nodes.end());
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

void AddFewerAcceleratorFixes(const WhyContext& ctx, const model::Pod& pod,
                              std::vector<FixCandidate>& out) {
  const model::Snapshot& input = *ctx.input;
  const model::ResourceVector requests = model::PodRequests(pod);
  const std::vector<int32_t> nodes = ShortNodes(ctx);
  for (size_t i = 0; i < input.resources.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    const std::string& name = input.resources.Name(id);
    const int64_t wanted = requests.Get(id);
    if (wanted <= 0 || !IsAcceleratorResource(name)) continue;
    // The most any node had free below the request, where every other resource fits.
    int64_t best = 0;
    std::string best_node;
    for (int32_t n : nodes) {
      const model::ResourceVector& free = ctx.free_at_turn[static_cast<size_t>(n)];
      const int64_t have = free.Get(id);
      if (have <= best || have >= wanted) continue;
      bool others_fit = true;
      for (size_t j = 0; j < input.resources.size(); ++j) {
        const model::ResourceId other{static_cast<uint16_t>(j)};
        if (other.v != id.v && requests.Get(other) > free.Get(other)) others_fit = false;
      }
      if (!others_fit) continue;
      best = have;
      best_node = input.nodes[static_cast<size_t>(n)].meta.name;
    }
    if (best <= 0) continue;
    // One container must hold the whole request for the change to be one field.
    size_t holders = 0;
    for (const auto& c : pod.containers) holders += c.requests.Get(id) > 0 ? 1 : 0;
    if (holders != 1) continue;
    out.push_back({"request " + AmountText(input.resources, id, best) + " " + name +
                       " instead of " + AmountText(input.resources, id, wanted) + " in " +
                       ctx.target.display + ": " + best_node + " has " +
                       AmountText(input.resources, id, best) + " free",
                   [&ctx, id, best](model::Snapshot& s) {
                     ForEachTargetPod(ctx, s, [&](model::Pod& p) {
                       for (auto& c : p.containers) {
                         if (c.requests.Get(id) <= 0) continue;
                         c.requests.Set(id, best);
                         if (c.limits.Get(id) > 0) c.limits.Set(id, best);
                       }
                     });
                   },
                   {}});
  }
}

void AddPodPreemptionFix(const WhyContext& ctx, const model::Pod& pod,
                         std::vector<FixCandidate>& out) {
  const model::Snapshot& input = *ctx.input;
  const std::vector<int32_t> nodes = ShortNodes(ctx);
  if (nodes.empty()) return;
  const std::set<int32_t> short_set(nodes.begin(), nodes.end());
  // Lower-priority pods running on those nodes in the input (only running pods are evicted;
  // pods the plan binds after this one never took its room).
  std::map<std::string, int32_t> node_by_name;
  for (int32_t n : nodes) node_by_name[input.nodes[static_cast<size_t>(n)].meta.name] = n;
  std::map<int32_t, std::vector<int32_t>> running;
  for (size_t i = 0; i < input.pods.size(); ++i) {
    const model::Pod& p = input.pods[i];
    if (!p.IsBound() || p.IsTerminal() || p.cluster != pod.cluster || p.priority >= pod.priority)
      continue;
    auto it = node_by_name.find(p.node_name);
    if (it != node_by_name.end()) running[it->second].push_back(static_cast<int32_t>(i));
  }
  const model::ResourceVector requests = model::PodRequests(pod);
  int32_t best_node = -1;
  std::vector<int32_t> best_victims;
  for (auto& [n, candidates] : running) {
    model::ResourceVector free = ctx.free_at_turn[static_cast<size_t>(n)];
    std::stable_sort(candidates.begin(), candidates.end(), [&](int32_t a, int32_t b) {
      return input.pods[static_cast<size_t>(a)].priority <
             input.pods[static_cast<size_t>(b)].priority;
    });
    auto fits = [&] {
      for (size_t j = 0; j < input.resources.size(); ++j) {
        const model::ResourceId id{static_cast<uint16_t>(j)};
        if (requests.Get(id) > free.Get(id)) return false;
      }
      return true;
    };
    std::vector<int32_t> victims;
    for (int32_t v : candidates) {
      if (fits()) break;
      free.Add(model::PodRequests(input.pods[static_cast<size_t>(v)]));
      victims.push_back(v);
    }
    if (!fits() || victims.empty()) continue;
    if (best_node < 0 || victims.size() < best_victims.size()) {
      best_node = n;
      best_victims = victims;
    }
  }
  if (best_node < 0) return;
  std::vector<std::string> names;
  std::set<std::string> labels;
  for (int32_t v : best_victims) {
    const model::Pod& p = input.pods[static_cast<size_t>(v)];
    names.push_back(engine::PodKey(p) + " (priority " + std::to_string(p.priority) + ")");
    labels.insert(PodLabel(p));
  }
  out.push_back({"preempt " + NameList(names, 5) + " on node " +
                     input.nodes[static_cast<size_t>(best_node)].meta.name + " for " +
                     ctx.target.display,
                 [best_victims](model::Snapshot& s) {
                   for (int32_t v : best_victims)
                     s.pods[static_cast<size_t>(v)].phase = model::PodPhase::kFailed;
                 },
                 labels});
}

// Another member cluster (the input holds several, --cluster NAME=PATH): the first two
// others, in name order, that have nodes.
void AddOtherClusterFixes(const WhyContext& ctx, const model::Pod& pod,
                          std::vector<FixCandidate>& out) {
  std::set<std::string> clusters;
  for (const model::Node& n : ctx.input->nodes) {
    if (n.cluster != pod.cluster) clusters.insert(n.cluster);
  }
  size_t added = 0;
  for (const std::string& cluster : clusters) {
    if (added++ == 2) break;
    out.push_back(
        {"run " + ctx.target.display + " in cluster " + cluster + " instead of " + pod.cluster,
         [&ctx, cluster](model::Snapshot& s) {
           ForEachTargetPod(ctx, s, [&](model::Pod& p) { p.cluster = cluster; });
         },
         {}});
  }
}

// ---- Kueue candidates (quota) ----

// A Workload's first pod set cut to `pods`: the count Kueue admits, the job's own count, and
// the pods io expanded beyond it gone (terminal, so they hold nothing).
void SetPodCount(model::Snapshot& snap, int32_t workload, int32_t job, int32_t pods) {
  model::Workload& wl = snap.kueue_workloads[static_cast<size_t>(workload)];
  wl.pod_sets[0].count = pods;
  if (!wl.pods.empty() && wl.pods[0].size() > static_cast<size_t>(pods)) {
    for (size_t k = static_cast<size_t>(pods); k < wl.pods[0].size(); ++k) {
      snap.pods[static_cast<size_t>(wl.pods[0][k])].phase = model::PodPhase::kSucceeded;
    }
    wl.pods[0].resize(static_cast<size_t>(pods));
  }
  if (job >= 0 && !snap.workloads[static_cast<size_t>(job)].pod_sets.empty()) {
    snap.workloads[static_cast<size_t>(job)].pod_sets[0].count = pods;
  }
}

struct Shortfall {
  std::string flavor;
  std::string pod_set;
  std::vector<std::pair<model::ResourceId, int64_t>> missing;  // resource, amount short
  std::vector<std::pair<model::ResourceId, int64_t>> available;
};

std::vector<Shortfall> Shortfalls(const WhyContext& ctx) {
  std::vector<Shortfall> out;
  for (const engine::FlavorAttempt& a : ctx.decision->attempts) {
    Shortfall s{a.flavor, a.pod_set, {}, {}};
    for (const engine::ResourceFit& fit : a.resources) {
      model::ResourceId id;
      if (!ctx.input->resources.Find(fit.resource, &id)) continue;
      if (fit.requested > fit.available) {
        s.missing.emplace_back(id, fit.requested - std::max<int64_t>(0, fit.available));
        s.available.emplace_back(id, std::max<int64_t>(0, fit.available));
      }
    }
    if (!s.missing.empty()) out.push_back(std::move(s));
  }
  return out;
}

model::ClusterQueue* MutableClusterQueue(model::Snapshot& s, const std::string& name,
                                         const std::string& cluster) {
  for (auto& cq : s.cluster_queues) {
    if (cq.meta.name == name && cq.cluster == cluster) return &cq;
  }
  return nullptr;
}

void AddQuotaFixes(const WhyContext& ctx, const std::string& cq_name,
                   std::vector<FixCandidate>& out) {
  const model::Snapshot& input = *ctx.input;
  const model::Workload& w = input.kueue_workloads[static_cast<size_t>(ctx.target.workload)];
  const std::vector<Shortfall> shortfalls = Shortfalls(ctx);
  const model::ClusterQueue* cq = nullptr;
  for (const auto& q : input.cluster_queues) {
    if (q.meta.name == cq_name && q.cluster == w.cluster) cq = &q;
  }
  if (cq == nullptr) return;
  auto nominal_of = [&](const std::string& flavor, model::ResourceId id) -> std::optional<int64_t> {
    for (const auto& group : cq->resource_groups) {
      for (const auto& f : group.flavors) {
        if (f.flavor != flavor) continue;
        for (const auto& r : f.resources) {
          if (r.resource.v == id.v) return r.nominal;
        }
      }
    }
    return std::nullopt;
  };
  // 1. The ClusterQueue's nominal quota raised by exactly the shortfall, flavor by flavor.
  for (size_t i = 0; i < shortfalls.size() && i < 2; ++i) {
    const Shortfall& s = shortfalls[i];
    std::string text;
    bool known = true;
    for (const auto& [id, amount] : s.missing) {
      const auto nominal = nominal_of(s.flavor, id);
      if (!nominal) known = false;
      if (!known) break;
      text += (text.empty() ? "" : " and ") + input.resources.Name(id) + " by " +
              AmountText(input.resources, id, amount) + " (" +
              AmountText(input.resources, id, *nominal) + " -> " +
              AmountText(input.resources, id, *nominal + amount) + ")";
    }
    if (!known) continue;
    const std::string flavor = s.flavor;
    const auto missing = s.missing;
    const std::string cluster = w.cluster;
    out.push_back(
        {"raise ClusterQueue " + cq_name + "'s nominalQuota in flavor " + flavor + ": " + text,
         [cq_name, cluster, flavor, missing](model::Snapshot& snap) {
           model::ClusterQueue* q = MutableClusterQueue(snap, cq_name, cluster);
           if (q == nullptr) return;
           for (auto& group : q->resource_groups) {
             for (auto& f : group.flavors) {
               if (f.flavor != flavor) continue;
               for (auto& r : f.resources) {
                 for (const auto& [id, amount] : missing) {
                   if (r.resource.v == id.v) r.nominal += amount;
                 }
               }
             }
           }
         },
         {}});
  }
  // 2. Fewer pods: as many as the first short flavor has room for (one pod set only).
  if (!shortfalls.empty() && w.pod_sets.size() == 1 && w.pod_sets[0].count > 1) {
    const Shortfall& s = shortfalls.front();
    const int32_t count = w.pod_sets[0].count;
    int64_t n = count;
    for (size_t k = 0; k < s.missing.size(); ++k) {
      const int64_t requested = s.missing[k].second + s.available[k].second;
      const int64_t per_pod = requested / count;
      if (per_pod > 0) n = std::min(n, s.available[k].second / per_pod);
    }
    if (n >= 1 && n < count) {
      const int32_t pods = static_cast<int32_t>(n);
      const int32_t target = ctx.target.workload;
      const int32_t job = ctx.target.job;
      out.push_back(
          {"run " + std::to_string(pods) + " pods instead of " + std::to_string(count) +
               " (pod set " + w.pod_sets[0].name + "): flavor " + s.flavor + " has room for " +
               std::to_string(pods),
           [target, job, pods](model::Snapshot& snap) { SetPodCount(snap, target, job, pods); },
           {}});
    }
  }
  // 3. Lower-priority admitted workloads of the same ClusterQueue or cohort that hold the
  // short resource in that flavor: the fewest, lowest priority first, that free enough.
  if (!shortfalls.empty()) {
    const Shortfall& s = shortfalls.front();
    std::set<std::string> queues{cq_name};
    if (!cq->cohort.empty()) {
      for (const auto& q : input.cluster_queues) {
        if (q.cohort == cq->cohort && q.cluster == w.cluster) queues.insert(q.meta.name);
      }
    }
    struct Holder {
      int32_t workload;
      int32_t priority;
      std::map<int32_t, int64_t> usage;  // resource id -> amount in the flavor
    };
    // Other ClusterQueues of the cohort that borrow in the flavor: their workloads use quota
    // lent by others, which Kueue's reclaimWithinCohort would take back whatever their priority.
    std::set<std::string> borrowing;
    for (const auto& admission : ctx.base.admissions) {
      if (admission.cluster != w.cluster) continue;
      for (const auto& state : admission.result.cluster_queues) {
        for (const auto& u : state.usage) {
          if (u.flavor == s.flavor && u.borrowed > 0 && state.name != cq_name)
            borrowing.insert(state.name);
        }
      }
    }
    std::vector<Holder> holders;
    for (size_t i = 0; i < input.kueue_workloads.size(); ++i) {
      const model::Workload& other = input.kueue_workloads[i];
      const engine::WorkloadDecision* d = DecisionIn(ctx.base, input, static_cast<int32_t>(i));
      if (!Admits(d) || !d->admission || other.cluster != w.cluster) continue;
      if (queues.count(d->admission->cluster_queue) == 0) continue;
      if (other.priority >= w.priority && borrowing.count(d->admission->cluster_queue) == 0)
        continue;
      Holder h{static_cast<int32_t>(i), other.priority, {}};
      for (const auto& a : d->admission->pod_set_assignments) {
        for (const auto& [resource, flavor] : a.flavors) {
          model::ResourceId id;
          if (flavor != s.flavor || !input.resources.Find(resource, &id)) continue;
          auto it = a.resource_usage.find(resource);
          if (it != a.resource_usage.end()) h.usage[id.v] += it->second;
        }
      }
      if (!h.usage.empty()) holders.push_back(std::move(h));
    }
    std::stable_sort(holders.begin(), holders.end(),
                     [](const Holder& a, const Holder& b) { return a.priority < b.priority; });
    std::map<int32_t, int64_t> need;
    for (const auto& [id, amount] : s.missing) need[id.v] = amount;
    std::vector<int32_t> victims;
    auto satisfied = [&] {
      return std::all_of(need.begin(), need.end(), [](const auto& e) { return e.second <= 0; });
    };
    for (const Holder& h : holders) {
      if (satisfied()) break;
      bool helps = false;
      for (auto& [id, amount] : need) {
        auto it = h.usage.find(id);
        if (amount > 0 && it != h.usage.end() && it->second > 0) helps = true;
      }
      if (!helps) continue;
      for (auto& [id, amount] : need) {
        auto it = h.usage.find(id);
        if (it != h.usage.end()) amount -= it->second;
      }
      victims.push_back(h.workload);
    }
    if (satisfied() && !victims.empty()) {
      std::vector<std::string> names;
      std::set<std::string> labels;
      for (int32_t v : victims) {
        const model::Workload& o = input.kueue_workloads[static_cast<size_t>(v)];
        names.push_back(o.meta.NamespacedName() + " (priority " + std::to_string(o.priority) + ")");
        labels.insert(WorkloadLabel(o));
      }
      out.push_back({"preempt " + NameList(names, 5) + " to free flavor " + s.flavor + " for " +
                         ctx.target.display,
                     [victims](model::Snapshot& snap) {
                       for (int32_t v : victims) {
                         model::Workload& o = snap.kueue_workloads[static_cast<size_t>(v)];
                         o.admission.reset();
                         o.conditions.clear();
                         o.conditions.push_back(
                             {"Finished", "True", "Preempted", "evicted to make room", {}});
                         for (const auto& set : o.pods) {
                           for (int32_t p : set)
                             snap.pods[static_cast<size_t>(p)].phase = model::PodPhase::kFailed;
                         }
                       }
                     },
                     labels});
    }
  }
}

void AddQueueFixes(const WhyContext& ctx, const std::string& cq_name,
                   std::vector<FixCandidate>& out) {
  const model::Snapshot& input = *ctx.input;
  const model::Workload& w = input.kueue_workloads[static_cast<size_t>(ctx.target.workload)];
  // A StrictFIFO queue whose head blocks: BestEffortFIFO lets what fits behind it go first.
  for (const auto& q : input.cluster_queues) {
    if (q.meta.name != cq_name || q.cluster != w.cluster ||
        q.queueing_strategy != model::QueueingStrategy::kStrictFifo) {
      continue;
    }
    const std::string cluster = w.cluster;
    out.push_back({"set ClusterQueue " + cq_name + "'s queueingStrategy to BestEffortFIFO",
                   [cq_name, cluster](model::Snapshot& snap) {
                     if (model::ClusterQueue* cq = MutableClusterQueue(snap, cq_name, cluster)) {
                       cq->queueing_strategy = model::QueueingStrategy::kBestEffortFifo;
                     }
                   },
                   {}});
  }
  size_t added = 0;
  for (const auto& lq : input.local_queues) {
    if (added == 2) break;
    if (lq.meta.namespace_ != w.meta.namespace_ || lq.cluster != w.cluster ||
        lq.meta.name == w.queue_name || lq.cluster_queue == cq_name) {
      continue;
    }
    const int32_t target = ctx.target.workload;
    const std::string name = lq.meta.name;
    out.push_back({"submit " + ctx.target.display + " to LocalQueue " + lq.meta.NamespacedName() +
                       " (ClusterQueue " + lq.cluster_queue + ") instead of " + w.queue_name,
                   [target, name](model::Snapshot& snap) {
                     snap.kueue_workloads[static_cast<size_t>(target)].queue_name = name;
                   },
                   {}});
    ++added;
  }
}

// A workload whose quota fits but whose pods do not (no member cluster of the fleet takes
// it, or its topology has room for fewer): fewer pods, halved until one fits (each halving
// is a candidate the plan checks; the first that works ends the family).
void AddHalvedPods(const WhyContext& ctx, std::vector<FixCandidate>& out) {
  const model::Workload& w = ctx.input->kueue_workloads[static_cast<size_t>(ctx.target.workload)];
  if (w.pod_sets.size() != 1) return;
  const int32_t count = w.pod_sets[0].count;
  int32_t tries = 0;
  for (int32_t pods = count / 2; pods >= 1 && tries < 3; pods /= 2, ++tries) {
    const int32_t target = ctx.target.workload;
    const int32_t job = ctx.target.job;
    out.push_back(
        {"run " + std::to_string(pods) + (pods == 1 ? " pod" : " pods") + " instead of " +
             std::to_string(count) + " (pod set " + w.pod_sets[0].name + ")",
         [target, job, pods](model::Snapshot& snap) { SetPodCount(snap, target, job, pods); },
         {},
         "fewer-pods"});
  }
}

std::vector<FixCandidate> Candidates(const WhyContext& ctx) {
  std::vector<FixCandidate> out;
  if (ctx.target.kind == ResolvedTarget::Kind::kKueue && ctx.decision != nullptr) {
    const model::Workload& w = ctx.input->kueue_workloads[static_cast<size_t>(ctx.target.workload)];
    std::string cq_name;
    for (const auto& lq : ctx.input->local_queues) {
      if (lq.meta.name == w.queue_name && lq.meta.namespace_ == w.meta.namespace_ &&
          lq.cluster == w.cluster) {
        cq_name = lq.cluster_queue;
      }
    }
    if (ctx.decision->outcome == engine::WorkloadOutcome::kPending ||
        ctx.decision->outcome == engine::WorkloadOutcome::kInadmissible) {
      AddQuotaFixes(ctx, cq_name, out);
      AddQueueFixes(ctx, cq_name, out);
    }
    const bool pods_do_not_fit = ctx.decision->reason == "TopologyPlacementFailed" ||
                                 (ctx.dispatch != nullptr && !ctx.dispatch->cluster);
    if (pods_do_not_fit) AddHalvedPods(ctx, out);
  }
  if (ctx.pod >= 0 && !ctx.groups.empty()) {
    const model::Pod& pod = ctx.input->pods[static_cast<size_t>(ctx.pod)];
    AddTolerationFixes(ctx, pod, out);
    AddSelectorFixes(ctx, pod, out);
    AddFewerAcceleratorFixes(ctx, pod, out);
    AddPodPreemptionFix(ctx, pod, out);
    if (ctx.target.kind != ResolvedTarget::Kind::kKueue) AddOtherClusterFixes(ctx, pod, out);
  }
  return out;
}

}  // namespace

std::vector<WhyFix> ComputeFixes(const WhyContext& ctx, int32_t* runs, int32_t* candidates,
                                 std::vector<std::string>* rejected) {
  std::vector<FixCandidate> all = Candidates(ctx);
  *candidates = static_cast<int32_t>(all.size());
  *runs = 0;
  std::vector<WhyFix> out;
  std::set<std::string> done_families;
  for (const FixCandidate& fix : all) {
    if (*runs >= ctx.options->max_fix_runs) break;
    if (!fix.family.empty() && done_families.count(fix.family) != 0) continue;
    model::Snapshot copy = *ctx.input;
    fix.apply(copy);
    ++*runs;
    const engine::Plan after = engine::RunPlan(std::move(copy), ctx.options->plan);
    bool runs_now = false;
    StateIn(after, *ctx.input, ctx.target, &runs_now);
    if (!runs_now) {
      rejected->push_back(fix.change);
      continue;
    }
    if (!fix.family.empty()) done_families.insert(fix.family);
    out.push_back({fix.change, SideEffects(ctx, after, fix)});
  }
  return out;
}

}  // namespace berth::diag
