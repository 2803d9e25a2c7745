#include "diag/why_chain.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "core/human_units.h"
#include "diag/why_runbook.h"
#include "engine/model_load.h"
#include "model/data_objects.h"
#include "model/pod_requests.h"
#include "model/resources.h"

namespace berth::diag {
namespace {

std::string Plural(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

WhyObject NodeObject(const model::Node& node) { return {"Node", "", node.meta.name}; }

// "4 NVIDIA-H100-80GB-HBM3, 3 no GPU label": the node classes of a group, largest first.
std::string ClassSummary(const model::Snapshot& input, const std::vector<int32_t>& nodes) {
  std::map<std::string, size_t> counts;
  for (int32_t n : nodes) ++counts[NodeClassOf(input.nodes[static_cast<size_t>(n)])];
  std::vector<std::pair<std::string, size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [cls, count] : sorted) {
    out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + cls;
  }
  return out;
}

std::string SelectorText(const model::Pod& pod) {
  std::string out;
  for (const auto& [key, value] : pod.node_selector)
    out += (out.empty() ? "" : ", ") + key + "=" + value;
  return out;
}

// For a NodeResourcesFit group: per short resource, what the pod requests against the most
// any of the group's nodes had free when the pod's turn came.
std::string ShortfallText(const WhyContext& ctx, const NodeGroup& group) {
  const model::Snapshot& input = *ctx.input;
  const model::ResourceVector requests =
      model::PodRequests(input.pods[static_cast<size_t>(ctx.pod)]);
  std::string out;
  for (size_t i = 0; i < input.resources.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    const std::string& name = input.resources.Name(id);
    if (group.reason.find("Insufficient " + name) == std::string::npos) continue;
    // "Insufficient nvidia.com/gpu" also contains "Insufficient nvidia.com/gpu.shared"'s
    // prefix; require the name to end there.
    const size_t at = group.reason.find("Insufficient " + name) + 13 + name.size();
    if (at < group.reason.size() && group.reason[at] != ',') continue;
    int64_t best = 0;
    std::string best_node;
    for (int32_t n : group.nodes) {
      const int64_t free = std::max<int64_t>(0, ctx.free_at_turn[static_cast<size_t>(n)].Get(id));
      if (free > best || best_node.empty()) {
        best = free;
        best_node = input.nodes[static_cast<size_t>(n)].meta.name;
      }
    }
    out += (out.empty() ? "" : "; ") + std::string("requests ") +
           AmountText(input.resources, id, requests.Get(id)) + " " + name + ", at most " +
           AmountText(input.resources, id, best) + " free (" + best_node + ")";
  }
  return out;
}

void AddPodReasons(const WhyContext& ctx, std::vector<WhyReason>& out) {
  if (ctx.pod < 0) return;
  const model::Snapshot& input = *ctx.input;
  const model::Pod& pod = input.pods[static_cast<size_t>(ctx.pod)];
  const std::string who = ctx.target.kind == ResolvedTarget::Kind::kPod
                              ? std::string()
                              : " (pod " + pod.meta.name + ")";
  if (!ctx.groups.empty()) {
    for (const NodeGroup& group : ctx.groups) {
      WhyReason r;
      r.layer = group.layer;
      r.reason = group.reason + ": " + Plural(group.nodes.size(), "node", "nodes") + " (" +
                 ClassSummary(input, group.nodes) + ")";
      if (!group.detail.empty()) {
        r.reason += "; on " + input.nodes[static_cast<size_t>(group.nodes.front())].meta.name +
                    ": " + group.detail;
      }
      if (group.plugin == "NodeAffinity" && !pod.node_selector.empty()) {
        r.reason += "; the pod's nodeSelector is " + SelectorText(pod);
      }
      if (group.plugin == "NodeResourcesFit") {
        if (std::string shortfall = ShortfallText(ctx, group); !shortfall.empty()) {
          r.reason += "; " + shortfall;
        }
      }
      r.reason += who;
      for (size_t i = 0; i < group.nodes.size() && i < kMaxObjectsPerReason; ++i) {
        r.objects.push_back(NodeObject(input.nodes[static_cast<size_t>(group.nodes[i])]));
      }
      r.runbook = RunbookForNodes(input, group);
      out.push_back(std::move(r));
    }
    return;
  }
  if (!ctx.pod_decision) return;
  const model::PodDecision& d = *ctx.pod_decision;
  if (d.skipped) {
    out.push_back(
        {WhyLayer::kNode,
         "schedulerName \"" + pod.scheduler_name + "\" is served by no scheduler profile" + who,
         {},
         true,
         kRunbookPendingPods});
    return;
  }
  if (d.rejections.empty()) {
    if (!d.message.empty())
      out.push_back({WhyLayer::kNode, d.message + who, {}, true, kRunbookPendingPods});
    return;
  }
  for (const model::Rejection& rejection : d.rejections) {
    out.push_back({LayerOfFilter(rejection.plugin, rejection.reason),
                   rejection.reason + ": " +
                       Plural(static_cast<size_t>(rejection.count), "node", "nodes") + who,
                   {},
                   true,
                   kRunbookPendingPods});
  }
}

std::string ResourceFitText(const model::ResourceCatalog& catalog, const engine::ResourceFit& fit) {
  model::ResourceId id;
  auto amount = [&](int64_t v) {
    return catalog.Find(fit.resource, &id) ? AmountText(catalog, id, v) : std::to_string(v);
  };
  std::string out = fit.resource + " requested " + amount(fit.requested) + ", available " +
                    amount(fit.available) + " (nominal " + amount(fit.nominal) + ", used " +
                    amount(fit.used);
  if (fit.borrowing_limit >= 0) out += ", borrowing limit " + amount(fit.borrowing_limit);
  return out + ")";
}

const model::ClusterQueue* FindClusterQueue(const model::Snapshot& input, const std::string& name,
                                            const std::string& cluster) {
  for (const auto& cq : input.cluster_queues) {
    if (cq.meta.name == name && cq.cluster == cluster) return &cq;
  }
  return nullptr;
}

// The ClusterQueue a workload's LocalQueue points to; empty when either is missing.
std::string ClusterQueueOf(const model::Snapshot& input, const model::Workload& w) {
  for (const auto& lq : input.local_queues) {
    if (lq.meta.name == w.queue_name && lq.meta.namespace_ == w.meta.namespace_ &&
        lq.cluster == w.cluster) {
      return lq.cluster_queue;
    }
  }
  return "";
}

// A StrictFIFO ClusterQueue whose head (ordered before the target: higher priority, or equal
// and older) still waits: Kueue admits nothing behind it.
void AddStrictFifoHead(const WhyContext& ctx, const model::ClusterQueue& cq,
                       std::vector<WhyReason>& out) {
  if (cq.queueing_strategy != model::QueueingStrategy::kStrictFifo) return;
  const model::Snapshot& input = *ctx.input;
  const model::Workload& me = input.kueue_workloads[static_cast<size_t>(ctx.target.workload)];
  const model::Workload* head = nullptr;
  for (size_t i = 0; i < input.kueue_workloads.size(); ++i) {
    if (static_cast<int32_t>(i) == ctx.target.workload) continue;
    const model::Workload& other = input.kueue_workloads[i];
    if (other.cluster != me.cluster || ClusterQueueOf(input, other) != cq.meta.name) continue;
    const engine::WorkloadDecision* d = DecisionIn(ctx.base, input, static_cast<int32_t>(i));
    if (d == nullptr || d->outcome != engine::WorkloadOutcome::kPending) continue;
    const bool ahead = other.priority > me.priority ||
                       (other.priority == me.priority &&
                        other.meta.creation_timestamp < me.meta.creation_timestamp);
    if (ahead && (head == nullptr || other.priority > head->priority)) head = &other;
  }
  if (head == nullptr) return;
  out.push_back(
      {WhyLayer::kQueue,
       "ClusterQueue " + cq.meta.name + " is StrictFIFO and its head " +
           head->meta.NamespacedName() + " (priority " + std::to_string(head->priority) +
           ") cannot be admitted: nothing behind it is considered",
       {{"ClusterQueue", "", cq.meta.name}, {"Workload", head->meta.namespace_, head->meta.name}},
       true,
       kRunbookKueuePending});
}

void AddQuotaReasons(const WhyContext& ctx, const model::ClusterQueue* cq,
                     std::vector<WhyReason>& out) {
  const engine::WorkloadDecision& d = *ctx.decision;
  const model::Snapshot& input = *ctx.input;
  const std::string cq_name = cq ? cq->meta.name : "";
  const std::string cohort = cq && !cq->cohort.empty() ? " in cohort " + cq->cohort : "";
  size_t added = 0;
  for (const engine::FlavorAttempt& a : d.attempts) {
    if (a.mode == "Fit" || a.mode == "Borrow" || a.mode == "Skipped") continue;
    std::string text = "flavor " + a.flavor + " (" + a.mode + ", pod set " + a.pod_set + "): ";
    std::string fits;
    for (const engine::ResourceFit& fit : a.resources) {
      if (fit.verdict == "Fit" || fit.verdict == "Borrow") continue;
      fits += (fits.empty() ? "" : "; ") + ResourceFitText(input.resources, fit);
    }
    text += fits.empty() ? a.reason : fits;
    text += " in ClusterQueue " + cq_name + cohort;
    out.push_back({WhyLayer::kQuota,
                   text,
                   {{"ClusterQueue", "", cq_name}, {"ResourceFlavor", "", a.flavor}},
                   true,
                   kRunbookKueuePending});
    ++added;
  }
  if (!d.candidates.empty() && d.victims.empty()) {
    std::vector<std::string> names;
    for (const auto& c : d.candidates) {
      names.push_back(input.kueue_workloads[static_cast<size_t>(c.workload)].meta.NamespacedName() +
                      " (" + c.reason + ")");
    }
    out.push_back({WhyLayer::kQuota,
                   "preemption: none of " + std::to_string(d.candidates.size()) +
                       " candidates frees enough: " + NameList(names),
                   {},
                   true,
                   kRunbookKueuePending});
    ++added;
  }
  if (!d.victims.empty()) {
    std::vector<std::string> names;
    std::vector<WhyObject> objects;
    for (int32_t v : d.victims) {
      const model::Workload& w = input.kueue_workloads[static_cast<size_t>(v)];
      names.push_back(w.meta.NamespacedName());
      if (objects.size() < kMaxObjectsPerReason)
        objects.push_back({"Workload", w.meta.namespace_, w.meta.name});
    }
    out.push_back({WhyLayer::kQuota, "waits for the preemption of " + NameList(names, 5), objects,
                   true, kRunbookKueuePending});
    ++added;
  }
  // Nothing tried (a StrictFIFO head ahead of it) says nothing of quota; else Kueue's words.
  if (added == 0 && !(d.reason.empty() && d.message.empty())) {
    out.push_back({WhyLayer::kQuota,
                   d.reason + (d.message.empty() ? "" : ": " + d.message),
                   {{"ClusterQueue", "", cq_name}},
                   true,
                   kRunbookKueuePending});
  }
}

void AddFleetReasons(const WhyContext& ctx, std::vector<WhyReason>& out) {
  const engine::Dispatch& dispatch = *ctx.dispatch;
  const model::Snapshot& input = *ctx.input;
  const bool waiting = !dispatch.cluster.has_value();
  for (const auto& attempt : dispatch.attempts) {
    if (attempt.fits) continue;
    out.push_back({WhyLayer::kCluster,
                   "cluster " + attempt.cluster + ": " + attempt.reason,
                   {{"ManagedCluster", "", attempt.cluster}},
                   waiting,
                   kRunbookKueuePending});
  }
  if (dispatch.cluster) {
    out.push_back(
        {WhyLayer::kCluster,
         "runs on cluster " + *dispatch.cluster + " (admission check " + dispatch.check + ")",
         {{"ManagedCluster", "", *dispatch.cluster}},
         false,
         ""});
  } else if (dispatch.attempts.empty()) {
    out.push_back({WhyLayer::kCluster,
                   "admission check " + dispatch.check + ": " + dispatch.message,
                   {{"AdmissionCheck", "", dispatch.check}},
                   true,
                   kRunbookKueuePending});
  }
  // The Placement behind the check: which clusters it left out, and why.
  for (const auto& check : input.admission_checks) {
    if (check.meta.name != dispatch.check || check.parameters_kind != "Placement") continue;
    for (const engine::PlacementRun& run : ctx.base.placements) {
      const model::Placement& p = input.placements[static_cast<size_t>(run.placement)];
      if (p.meta.name != check.parameters_name) continue;
      std::vector<std::string> excluded;
      for (const auto& v : run.outcome.clusters) {
        if (const model::Rejection* r = run.outcome.RejectionOf(v)) {
          excluded.push_back(v.cluster_name + " (" + r->message + ")");
        }
      }
      const bool none = run.outcome.selected.empty();
      if (excluded.empty() && !none) continue;
      std::string text = "Placement " + p.meta.NamespacedName() + " selected " +
                         std::to_string(run.outcome.selected.size()) + " of " +
                         std::to_string(run.outcome.clusters.size()) + " clusters";
      if (!excluded.empty()) text += "; excluded " + NameList(excluded, 5);
      out.push_back({WhyLayer::kPlacement,
                     text,
                     {{"Placement", p.meta.namespace_, p.meta.name}},
                     none && waiting,
                     kRunbookKueuePending});
    }
  }
}

void AddKueueReasons(const WhyContext& ctx, std::vector<WhyReason>& out) {
  const model::Snapshot& input = *ctx.input;
  const model::Workload& w = input.kueue_workloads[static_cast<size_t>(ctx.target.workload)];
  const std::string cq_name = ClusterQueueOf(input, w);
  const model::ClusterQueue* cq = FindClusterQueue(input, cq_name, w.cluster);
  std::vector<WhyObject> queue_objects{{"LocalQueue", w.meta.namespace_, w.queue_name}};
  if (!cq_name.empty()) queue_objects.push_back({"ClusterQueue", "", cq_name});
  if (ctx.decision == nullptr) {
    out.push_back({WhyLayer::kQueue, "Kueue made no decision for it (no queue in its cluster)",
                   queue_objects, true, kRunbookKueuePending});
    return;
  }
  const engine::WorkloadDecision& d = *ctx.decision;
  using Outcome = engine::WorkloadOutcome;
  switch (d.outcome) {
    case Outcome::kInadmissible:
      out.push_back({WhyLayer::kQueue, d.reason + ": " + d.message, queue_objects, true,
                     kRunbookKueuePending});
      break;
    case Outcome::kInactive:
      out.push_back(
          {WhyLayer::kQueue,
           "the Workload is inactive" +
               (d.message.empty() ? std::string(" (spec.active: false)") : ": " + d.message),
           {{"Workload", w.meta.namespace_, w.meta.name}},
           true,
           kRunbookKueuePending});
      break;
    case Outcome::kFinished:
      out.push_back({WhyLayer::kQueue, "the Workload has finished", {}, false, ""});
      break;
    case Outcome::kPreempted:
      out.push_back({WhyLayer::kQuota,
                     "preempted: " + d.message,
                     {{"ClusterQueue", "", cq_name}},
                     true,
                     kRunbookKueuePending});
      break;
    case Outcome::kPending:
      if (cq != nullptr) AddStrictFifoHead(ctx, *cq, out);
      if (d.reason == "TopologyPlacementFailed") {
        const bool topology = d.message.find("opolog") != std::string::npos;
        out.push_back({topology ? WhyLayer::kTopology : WhyLayer::kNode,
                       "the quota fits but the pods do not: " + d.message, queue_objects, true,
                       topology ? kRunbookKueuePending : kRunbookPendingPods});
      } else {
        AddQuotaReasons(ctx, cq, out);
      }
      break;
    case Outcome::kQuotaReserved:
      if (ctx.dispatch == nullptr) {
        std::string checks;
        const model::Workload& planned =
            ctx.base.planned.kueue_workloads[static_cast<size_t>(ctx.target.workload)];
        for (const auto& c : planned.admission_checks) {
          if (c.state == model::CheckState::kReady) continue;
          checks += (checks.empty() ? "" : ", ") + c.name +
                    (c.message.empty() ? "" : " (" + c.message + ")");
        }
        out.push_back({WhyLayer::kQueue,
                       "quota reserved in ClusterQueue " + cq_name +
                           "; admission checks not ready: " + (checks.empty() ? "pending" : checks),
                       queue_objects, true, kRunbookKueuePending});
      }
      break;
    case Outcome::kAdmitted:
    case Outcome::kAlreadyAdmitted: {
      std::string flavors;
      if (d.admission) {
        for (const auto& a : d.admission->pod_set_assignments) {
          for (const auto& [resource, flavor] : a.flavors) {
            if (flavors.find(flavor) == std::string::npos)
              flavors += (flavors.empty() ? "" : ", ") + flavor;
          }
        }
      }
      out.push_back(
          {WhyLayer::kQueue,
           "admitted by ClusterQueue " + cq_name + (flavors.empty() ? "" : " in flavor " + flavors),
           queue_objects, false, ""});
      break;
    }
  }
  if (ctx.dispatch != nullptr) AddFleetReasons(ctx, out);
}

// The model a predictor pod of the target loads once bound (engine/model_load.h): how long and
// from where, from the fetch schedule of all its replicas (they share the origin). Context,
// never blocking: the load follows the bind, it does not keep the pod from one.
void AddDataReasons(const WhyContext& ctx, std::vector<WhyReason>& out) {
  const model::Snapshot& planned = ctx.base.planned;
  for (int32_t p : ctx.target.pods) {
    const model::Pod& pod = planned.pods[static_cast<size_t>(p)];
    std::optional<int32_t> service = engine::InferenceServiceOfPod(planned, pod);
    if (!service.has_value()) continue;
    const model::InferenceServiceModel& m = planned.inference_services[static_cast<size_t>(*service)];
    std::string model = "model " + model::ModelCacheName(m);
    if (m.size_bytes.has_value()) {
      model += " (" + model::AmountQuantity("memory", *m.size_bytes).ToString() + ")";
    }
    WhyObject isvc{"InferenceService", m.meta.namespace_, m.meta.name};
    const engine::ModelLoad load = engine::ScheduleModelLoad(ctx.base, *service);
    if (!load.no_schedule.empty()) {
      out.push_back({WhyLayer::kData, model + ": no load estimate: " + load.no_schedule, {isvc},
                     false, ""});
      return;
    }
    // A pod target: its own load. Otherwise the service's replicas together.
    if (ctx.target.kind == ResolvedTarget::Kind::kPod) {
      for (const engine::ReplicaLoad& l : load.loads) {
        if (l.pod != pod.meta.name) continue;
        std::string text = !l.forbidden.empty()
                               ? model + " may not be loaded on " + l.node + ": " + l.forbidden
                               : "loads " + model + " from " + l.source +
                                     (l.peer.empty() ? "" : " " + l.peer) + " on " + l.node +
                                     ": in GPU memory " + core::HumanSeconds(l.end_s) +
                                     " after binding";
        out.push_back({WhyLayer::kData, std::move(text), {isvc}, false, ""});
        return;
      }
      return;
    }
    std::map<std::string, int32_t> sources;
    int32_t forbidden = 0;
    for (const engine::ReplicaLoad& l : load.loads) {
      if (l.forbidden.empty()) {
        ++sources[l.source];
      } else {
        ++forbidden;
      }
    }
    std::vector<std::string> parts;
    for (const auto& [source, n] : sources) parts.push_back(std::to_string(n) + " from " + source);
    std::string text = model + ": " + std::to_string(load.loads.size()) + " bound replica" +
                       (load.loads.size() == 1 ? "" : "s") + " in GPU memory after " +
                       core::HumanSeconds(load.all_ready_s) + " (" + NameList(parts, 4) +
                       "); origin bytes " +
                       model::AmountQuantity("memory", load.origin_bytes).ToString();
    if (forbidden > 0) text += "; " + std::to_string(forbidden) + " on nodes residency forbids";
    out.push_back({WhyLayer::kData, std::move(text), {isvc}, false, ""});
    return;
  }
}

}  // namespace

std::vector<WhyReason> BuildChain(const WhyContext& ctx, bool runs) {
  std::vector<WhyReason> out;
  if (ctx.target.kind == ResolvedTarget::Kind::kKueue) AddKueueReasons(ctx, out);
  AddPodReasons(ctx, out);
  AddDataReasons(ctx, out);
  if (runs) {
    for (WhyReason& r : out) r.blocking = false;
    // Where the pods went: a short context line.
    std::vector<std::string> nodes;
    for (int32_t p : ctx.target.pods) {
      const model::Pod& planned = ctx.base.planned.pods[static_cast<size_t>(p)];
      if (planned.IsBound()) nodes.push_back(planned.meta.name + " on " + planned.node_name);
    }
    if (!nodes.empty()) {
      out.push_back({WhyLayer::kNode, "bound: " + NameList(nodes, 4), {}, false, ""});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const WhyReason& a, const WhyReason& b) {
    if (a.blocking != b.blocking) return a.blocking;
    return a.layer < b.layer;
  });
  return out;
}

}  // namespace berth::diag
