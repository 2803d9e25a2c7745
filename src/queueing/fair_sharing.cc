#include "queueing/fair_sharing.h"
#include "model/resources.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace berth::queueing {

double Drs::Weighted() const {
  if (ZeroWeightBorrows()) return std::numeric_limits<double>::infinity();
  if (ratio == 0) return 0;
  return ratio / weight;
}

int64_t Drs::Rounded() const {
  if (ZeroWeightBorrows()) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::ceil(Weighted()));
}

bool Drs::BorrowingOn(const FrUsage& requested) const {
  for (int32_t fr : borrowed_frs) {
    for (const auto& [f, v] : requested) {
      if (f == fr && v > 0) return true;
    }
  }
  return false;
}

int CompareDrs(const Drs& a, const Drs& b) {
  auto cmp = [](double x, double y) { return x < y ? -1 : (x > y ? 1 : 0); };
  const bool ia = a.ZeroWeightBorrows(), ib = b.ZeroWeightBorrows();
  if (ia && ib) return cmp(a.ratio, b.ratio);
  if (ia) return 1;
  if (ib) return -1;
  return cmp(a.Weighted(), b.Weighted());
}

FairSharing::FairSharing(const model::Snapshot& snapshot, const QueueSetup& setup)
    : num_cqs_(static_cast<int32_t>(setup.cqs.size())) {
  const QuotaTree& tree = setup.tree;
  const auto nodes = static_cast<size_t>(tree.num_nodes());
  weights_.assign(nodes, 1.0);
  children_.resize(nodes);
  for (size_t q = 0; q < setup.cqs.size(); ++q) {
    const auto& spec = snapshot.cluster_queues[static_cast<size_t>(setup.cqs[q].index)];
    weights_[q] = static_cast<double>(spec.fair_sharing_weight_milli) / 1000.0;
  }
  // Cohort objects by name (several clusters may reuse a name; the first of this cluster's
  // tree wins, as QueueSetup resolves them).
  std::unordered_map<std::string, int64_t> cohort_weight;
  const std::string& cluster =
      setup.cqs.empty() ? std::string() : snapshot.cluster_queues[static_cast<size_t>(setup.cqs[0].index)].cluster;
  for (const auto& c : snapshot.cohorts) {
    if (!setup.cqs.empty() && c.cluster != cluster) continue;
    cohort_weight.emplace(c.meta.name, c.fair_sharing_weight_milli);
  }
  for (size_t i = 0; i < setup.cohort_names.size(); ++i) {
    auto it = cohort_weight.find(setup.cohort_names[i]);
    if (it != cohort_weight.end()) {
      weights_[setup.cqs.size() + i] = static_cast<double>(it->second) / 1000.0;
    }
  }
  for (int32_t v = 0; v < tree.num_nodes(); ++v) {
    if (tree.HasParent(v)) children_[static_cast<size_t>(tree.parent(v))].push_back(v);
  }
  // Dense resource indices over the FRs' resource names, in name order so that index order
  // is name order (ties on the dominant resource go to the smaller name).
  std::map<std::string, int32_t> by_name;
  for (const auto& [flavor, r] : setup.frs) by_name.emplace(snapshot.resources.Name(r), 0);
  for (auto& [name, idx] : by_name) {
    idx = static_cast<int32_t>(resource_names_.size());
    resource_names_.push_back(name);
  }
  num_resources_ = static_cast<int32_t>(resource_names_.size());
  resource_frs_.resize(static_cast<size_t>(num_resources_));
  for (const auto& [flavor, r] : setup.frs) {
    const int32_t dense = by_name[snapshot.resources.Name(r)];
    resource_frs_[static_cast<size_t>(dense)].push_back(static_cast<int32_t>(fr_resource_.size()));
    fr_resource_.push_back(dense);
  }
  lendable_.assign(nodes * static_cast<size_t>(num_resources_), 0);
  for (int32_t v = 0; v < tree.num_nodes(); ++v) {
    if (children_[static_cast<size_t>(v)].empty()) continue;
    for (int32_t fr = 0; fr < tree.num_frs(); ++fr) {
      lendable_[static_cast<size_t>(v) * static_cast<size_t>(num_resources_) +
                static_cast<size_t>(fr_resource_[static_cast<size_t>(fr)])] +=
          tree.PotentialAvailable(v, fr);
    }
  }
}

template <typename Borrowed>
void FairSharing::Dominate(const QuotaTree& tree, int32_t node, Borrowed borrowed,
                           Drs* drs) const {
  const size_t base =
      static_cast<size_t>(tree.parent(node)) * static_cast<size_t>(num_resources_);
  for (int32_t r = 0; r < num_resources_; ++r) {
    const int64_t b = borrowed(r);
    const int64_t lendable = lendable_[base + static_cast<size_t>(r)];
    if (b <= 0 || lendable <= 0) continue;
    const double ratio = static_cast<double>(b) * 1000.0 / static_cast<double>(lendable);
    // Resources ascend by name, so a strict > keeps the smaller name on ties.
    if (ratio > drs->ratio) {
      drs->ratio = ratio;
      drs->dominant = r;
    }
  }
}

Drs FairSharing::Share(const QuotaTree& tree, int32_t node, const FrUsage& request) const {
  Drs drs;
  drs.weight = weights_[static_cast<size_t>(node)];
  if (!tree.HasParent(node)) return drs;
  auto extra = [&](int32_t fr) -> int64_t {
    for (const auto& [f, v] : request) {
      if (f == fr) return v;
    }
    return 0;
  };
  auto over = [&](int32_t fr) { return tree.Usage(node, fr) + extra(fr) - tree.SubtreeQuota(node, fr); };
  for (int32_t fr = 0; fr < tree.num_frs(); ++fr) {
    if (over(fr) > 0) drs.borrowed_frs.push_back(fr);
  }
  if (drs.borrowed_frs.empty()) return drs;
  drs.borrowing = true;
  // Borrowed amounts per resource name, summed over flavors.
  Dominate(tree, node, [&](int32_t r) {
    int64_t sum = 0;
    for (int32_t fr : resource_frs_[static_cast<size_t>(r)]) {
      sum = model::SaturatingAdd(sum, std::max<int64_t>(0, over(fr)));
    }
    return sum;
  }, &drs);
  return drs;
}

Drs FairSharing::ShareValue(const QuotaTree& tree, int32_t node) const {
  Drs drs;
  drs.weight = weights_[static_cast<size_t>(node)];
  if (!tree.HasParent(node)) return drs;
  for (int32_t fr = 0; fr < tree.num_frs() && !drs.borrowing; ++fr) {
    drs.borrowing = tree.IsBorrowing(node, fr);
  }
  if (!drs.borrowing) return drs;
  Dominate(tree, node, [&](int32_t r) {
    int64_t sum = 0;
    for (int32_t fr : resource_frs_[static_cast<size_t>(r)]) {
      sum = model::SaturatingAdd(
          sum, std::max<int64_t>(0, tree.Usage(node, fr) - tree.SubtreeQuota(node, fr)));
    }
    return sum;
  }, &drs);
  return drs;
}

}  // namespace berth::queueing
