// Builders for Kueue objects in queueing tests: a KueueSnapshot that owns a model::Snapshot
// and adds flavors, ClusterQueues, Cohorts, LocalQueues and Workloads in one line each.
// Amounts are model units (cpu milli, memory bytes, others whole). Header-only.
//
//   testing::KueueSnapshot k;
//   k.Flavor("default");
//   k.Add(testing::CqBuilder("cq").Cohort("all").Quota("default", "cpu", 4000));
//   k.LocalQueue("lq", "cq");
//   k.Add(testing::WlBuilder("a").Queue("lq").Requests({{"cpu", 1000}}));
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/kueue.h"
#include "model/snapshot.h"
#include "support/model_builders.h"

namespace berth::testing {

struct QuotaSpec {
  std::string flavor;
  std::string resource;
  int64_t nominal = 0;
  std::optional<int64_t> borrowing_limit;
  std::optional<int64_t> lending_limit;
};

// A ClusterQueue (or, with AsCohort, a Cohort's resource groups). Quota() calls with the same
// group index build one resource group; flavors keep their first-seen order.
class CqBuilder {
 public:
  explicit CqBuilder(std::string name) {
    cq_.meta.name = std::move(name);
    cq_.namespace_selector = core::LabelSelector{};
  }
  CqBuilder& Cohort(std::string c) {
    cq_.cohort = std::move(c);
    return *this;
  }
  CqBuilder& Quota(std::string flavor, std::string resource, int64_t nominal,
                   std::optional<int64_t> borrowing_limit = std::nullopt,
                   std::optional<int64_t> lending_limit = std::nullopt, int group = 0) {
    quotas_.push_back(
        {{std::move(flavor), std::move(resource), nominal, borrowing_limit, lending_limit}, group});
    return *this;
  }
  CqBuilder& Strict() {
    cq_.queueing_strategy = model::QueueingStrategy::kStrictFifo;
    return *this;
  }
  CqBuilder& NoNamespaces() {
    cq_.namespace_selector.reset();
    return *this;
  }
  CqBuilder& NamespaceSelector(core::LabelSelector s) {
    cq_.namespace_selector = std::move(s);
    return *this;
  }
  CqBuilder& WithinClusterQueue(model::PreemptionPolicy p) {
    cq_.preemption.within_cluster_queue = p;
    return *this;
  }
  CqBuilder& ReclaimWithinCohort(model::PreemptionPolicy p) {
    cq_.preemption.reclaim_within_cohort = p;
    return *this;
  }
  CqBuilder& BorrowWithinCohort(model::PreemptionPolicy p,
                                std::optional<int32_t> threshold = std::nullopt) {
    cq_.preemption.borrow_within_cohort = {p, threshold};
    return *this;
  }
  CqBuilder& WhenCanBorrow(model::FungibilityPolicy p) {
    cq_.flavor_fungibility.when_can_borrow = p;
    return *this;
  }
  CqBuilder& WhenCanPreempt(model::FungibilityPolicy p) {
    cq_.flavor_fungibility.when_can_preempt = p;
    return *this;
  }
  CqBuilder& Preference(model::FungibilityPreference p) {
    cq_.flavor_fungibility.preference = p;
    return *this;
  }
  CqBuilder& Stop(model::StopPolicy p) {
    cq_.stop_policy = p;
    return *this;
  }
  CqBuilder& Check(std::string name, std::vector<std::string> on_flavors = {}) {
    cq_.admission_checks.push_back({std::move(name), std::move(on_flavors)});
    return *this;
  }

  std::vector<model::ResourceGroup> Groups(model::ResourceCatalog& catalog) const {
    std::vector<model::ResourceGroup> groups;
    for (const auto& [q, g] : quotas_) {
      if (groups.size() <= static_cast<size_t>(g)) groups.resize(static_cast<size_t>(g) + 1);
      auto& group = groups[static_cast<size_t>(g)];
      const model::ResourceId r = catalog.Intern(q.resource);
      if (std::find(group.covered_resources.begin(), group.covered_resources.end(), r) ==
          group.covered_resources.end()) {
        group.covered_resources.push_back(r);
      }
      model::FlavorQuotas* fq = nullptr;
      for (auto& f : group.flavors) {
        if (f.flavor == q.flavor) fq = &f;
      }
      if (fq == nullptr) {
        group.flavors.push_back({q.flavor, {}});
        fq = &group.flavors.back();
      }
      fq->resources.push_back({r, q.nominal, q.borrowing_limit, q.lending_limit});
    }
    return groups;
  }
  model::ClusterQueue Build(model::ResourceCatalog& catalog) const {
    model::ClusterQueue cq = cq_;
    cq.resource_groups = Groups(catalog);
    return cq;
  }

 private:
  model::ClusterQueue cq_;
  std::vector<std::pair<QuotaSpec, int>> quotas_;
};

class WlBuilder {
 public:
  explicit WlBuilder(std::string name) {
    wl_.meta.name = name;
    wl_.meta.namespace_ = "default";
    wl_.meta.uid = "uid-" + name;
    wl_.queue_name = "lq";
  }
  WlBuilder& Queue(std::string q) {
    wl_.queue_name = std::move(q);
    return *this;
  }
  WlBuilder& Namespace(std::string ns) {
    wl_.meta.namespace_ = std::move(ns);
    return *this;
  }
  WlBuilder& Priority(int32_t p) {
    wl_.priority = p;
    return *this;
  }
  WlBuilder& Created(int64_t unix_s) {
    wl_.meta.creation_timestamp.unix_s = unix_s;
    return *this;
  }
  WlBuilder& Inactive() {
    wl_.active = false;
    return *this;
  }
  // Adds a pod set with per-pod requests (the first call replaces nothing: pod sets append).
  WlBuilder& PodSet(std::string name, int32_t count,
                    std::vector<std::pair<std::string, int64_t>> per_pod,
                    std::optional<int32_t> min_count = std::nullopt) {
    pod_sets_.push_back({std::move(name), count, std::move(per_pod), min_count});
    return *this;
  }
  WlBuilder& Requests(std::vector<std::pair<std::string, int64_t>> per_pod, int32_t count = 1) {
    return PodSet("main", count, std::move(per_pod));
  }
  WlBuilder& Toleration(core::Toleration t) {
    tolerations_.push_back(std::move(t));
    return *this;
  }
  WlBuilder& NodeSelector(std::string k, std::string v) {
    node_selector_[k] = std::move(v);
    return *this;
  }
  // Holds quota in the input: status.admission in `cq` with resource -> flavor, amounts.
  WlBuilder& Admitted(std::string cq,
                      std::vector<std::tuple<std::string, std::string, int64_t>> usage,
                      int64_t reserved_at = 0, bool admitted_condition = true) {
    model::Admission a;
    a.cluster_queue = std::move(cq);
    model::PodSetAssignment psa;
    psa.name = "main";
    psa.count = 1;
    for (auto& [res, flavor, amount] : usage) {
      psa.flavors[res] = flavor;
      psa.resource_usage[res] = amount;
    }
    a.pod_set_assignments.push_back(std::move(psa));
    wl_.admission = std::move(a);
    wl_.conditions.push_back({"QuotaReserved", "True", "QuotaReserved", "", {reserved_at}});
    if (admitted_condition)
      wl_.conditions.push_back({"Admitted", "True", "Admitted", "", {reserved_at}});
    return *this;
  }
  WlBuilder& Condition(std::string type, std::string status, std::string reason = "") {
    wl_.conditions.push_back({std::move(type), std::move(status), std::move(reason), "", {}});
    return *this;
  }
  WlBuilder& CheckState(std::string name, model::CheckState s) {
    wl_.admission_checks.push_back({std::move(name), s, ""});
    return *this;
  }
  WlBuilder& Cluster(std::string c) {
    wl_.cluster = std::move(c);
    return *this;
  }

  model::Workload Build(model::ResourceCatalog& catalog) const {
    model::Workload wl = wl_;
    for (const auto& ps : pod_sets_) {
      model::KueuePodSet k;
      k.name = ps.name;
      k.count = ps.count;
      k.min_count = ps.min_count;
      model::Container c;
      for (const auto& [res, amount] : ps.per_pod) c.requests.Set(catalog.Intern(res), amount);
      k.pod_template.containers.push_back(std::move(c));
      k.pod_template.tolerations = tolerations_;
      for (const auto& [key, v] : node_selector_) k.pod_template.node_selector[key] = v;
      wl.pod_sets.push_back(std::move(k));
    }
    return wl;
  }

 private:
  struct PodSetSpec {
    std::string name;
    int32_t count;
    std::vector<std::pair<std::string, int64_t>> per_pod;
    std::optional<int32_t> min_count;
  };
  model::Workload wl_;
  std::vector<PodSetSpec> pod_sets_;
  std::vector<core::Toleration> tolerations_;
  std::map<std::string, std::string> node_selector_;
};

class KueueSnapshot {
 public:
  model::ResourceFlavor& Flavor(std::string name, core::Labels labels = {},
                                std::vector<core::Taint> taints = {}) {
    model::ResourceFlavor f;
    f.meta.name = std::move(name);
    f.node_labels = std::move(labels);
    f.node_taints = std::move(taints);
    snapshot.resource_flavors.push_back(std::move(f));
    return snapshot.resource_flavors.back();
  }
  void Add(const CqBuilder& b) { snapshot.cluster_queues.push_back(b.Build(snapshot.resources)); }
  // A Cohort object with a parent and optional quota (from a CqBuilder's Quota calls).
  void Cohort(std::string name, std::string parent, const CqBuilder* quota = nullptr) {
    model::Cohort c;
    c.meta.name = std::move(name);
    c.parent = std::move(parent);
    if (quota != nullptr) c.resource_groups = quota->Groups(snapshot.resources);
    snapshot.cohorts.push_back(std::move(c));
  }
  void LocalQueue(std::string name, std::string cq, std::string ns = "default") {
    model::LocalQueue lq;
    lq.meta.name = std::move(name);
    lq.meta.namespace_ = std::move(ns);
    lq.cluster_queue = std::move(cq);
    snapshot.local_queues.push_back(std::move(lq));
  }
  void AdmissionCheck(std::string name) {
    model::AdmissionCheck a;
    a.meta.name = std::move(name);
    snapshot.admission_checks.push_back(std::move(a));
  }
  int32_t Add(const WlBuilder& b) {
    snapshot.kueue_workloads.push_back(b.Build(snapshot.resources));
    return static_cast<int32_t>(snapshot.kueue_workloads.size()) - 1;
  }

  model::Snapshot snapshot;
};

}  // namespace berth::testing
