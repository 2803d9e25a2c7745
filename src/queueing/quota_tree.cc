#include "queueing/quota_tree.h"

#include <algorithm>
#include <limits>

#include "core/check.h"
#include "model/resources.h"

namespace berth::queueing {
namespace {
// Marks an absent limit; real limits are never negative (validation drops them).
constexpr int64_t kUnset = std::numeric_limits<int64_t>::min();
}  // namespace

QuotaTree::QuotaTree(int32_t num_nodes, int32_t num_frs)
    : num_frs_(num_frs),
      parent_(static_cast<size_t>(num_nodes), kNoParent),
      height_(static_cast<size_t>(num_nodes), 0),
      depth_(static_cast<size_t>(num_nodes), 0) {
  const size_t n = static_cast<size_t>(num_nodes) * static_cast<size_t>(num_frs);
  nominal_.assign(n, 0);
  borrowing_limit_.assign(n, kUnset);
  lending_limit_.assign(n, kUnset);
  subtree_.assign(n, 0);
  local_.assign(n, 0);
  usage_.assign(n, 0);
}

void QuotaTree::SetQuota(int32_t node, int32_t fr, int64_t nominal,
                         std::optional<int64_t> borrowing_limit,
                         std::optional<int64_t> lending_limit) {
  const size_t i = At(node, fr);
  nominal_[i] = nominal;
  borrowing_limit_[i] = borrowing_limit ? *borrowing_limit : kUnset;
  lending_limit_[i] = lending_limit ? *lending_limit : kUnset;
}

std::optional<int64_t> QuotaTree::BorrowingLimit(int32_t node, int32_t fr) const {
  const int64_t b = borrowing_limit_[At(node, fr)];
  if (b == kUnset) return std::nullopt;
  return b;
}

int32_t QuotaTree::Root(int32_t node) const {
  while (parent_[node] != kNoParent) node = parent_[node];
  return node;
}

int32_t QuotaTree::CommonAncestor(int32_t a, int32_t b) const {
  while (depth_[a] > depth_[b]) a = parent_[a];
  while (depth_[b] > depth_[a]) b = parent_[b];
  while (a != b) {
    a = parent_[a];
    b = parent_[b];
    if (a == kNoParent || b == kNoParent) return kNoParent;
  }
  return a;
}

void QuotaTree::Finalize() {
  const int32_t n = num_nodes();
  // Depths first (the forest has no cycles, so every walk ends), then process nodes deepest
  // first so every child's SubtreeQuota is known before its parent's.
  int32_t max_depth = 0;
  for (int32_t v = 0; v < n; ++v) {
    int32_t d = 0;
    for (int32_t p = parent_[v]; p != kNoParent; p = parent_[p]) {
      ++d;
      BERTH_CHECK(d <= n, "quota tree has a cycle; QueueSetup must break cohort cycles");
    }
    depth_[v] = d;
    max_depth = std::max(max_depth, d);
  }
  std::vector<int32_t> order(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return depth_[a] > depth_[b]; });
  std::fill(height_.begin(), height_.end(), 0);
  for (int32_t v = 0; v < n; ++v) {
    for (int32_t fr = 0; fr < num_frs_; ++fr) subtree_[At(v, fr)] = nominal_[At(v, fr)];
  }
  for (int32_t v : order) {
    for (int32_t fr = 0; fr < num_frs_; ++fr) {
      const size_t i = At(v, fr);
      const int64_t lending = lending_limit_[i];
      local_[i] = (parent_[v] != kNoParent && lending != kUnset)
                      ? std::max<int64_t>(0, subtree_[i] - lending)
                      : 0;
      if (parent_[v] != kNoParent) {
        // Saturating: two ClusterQueues of 2^63-1 each must not wrap their cohort negative.
        const size_t p = At(parent_[v], fr);
        subtree_[p] = model::SaturatingAdd(subtree_[p], subtree_[i] - local_[i]);
      }
    }
    if (parent_[v] != kNoParent) {
      height_[parent_[v]] = std::max(height_[parent_[v]], height_[v] + 1);
    }
  }
}

int64_t QuotaTree::LocalAvailable(int32_t node, int32_t fr) const {
  const size_t i = At(node, fr);
  return std::max<int64_t>(0, local_[i] - usage_[i]);
}

int64_t QuotaTree::Available(int32_t node, int32_t fr) const {
  const size_t i = At(node, fr);
  if (parent_[node] == kNoParent) return subtree_[i] - usage_[i];
  int64_t parent_available = Available(parent_[node], fr);
  if (borrowing_limit_[i] != kUnset) {
    // What the node may still take from its parent: the lendable part of its own quota not
    // yet used, plus the borrowing limit.
    const int64_t stored_in_parent = std::max<int64_t>(0, usage_[i] - local_[i]);
    const int64_t cap = model::SaturatingAdd((subtree_[i] - local_[i]) - stored_in_parent,
                                             borrowing_limit_[i]);
    parent_available = std::min(parent_available, cap);
  }
  return model::SaturatingAdd(LocalAvailable(node, fr), parent_available);
}

int64_t QuotaTree::PotentialAvailable(int32_t node, int32_t fr) const {
  const size_t i = At(node, fr);
  if (parent_[node] == kNoParent) return subtree_[i];
  int64_t v = model::SaturatingAdd(local_[i], PotentialAvailable(parent_[node], fr));
  if (borrowing_limit_[i] != kUnset) {
    v = std::min(v, model::SaturatingAdd(subtree_[i], borrowing_limit_[i]));
  }
  return v;
}

std::pair<int32_t, bool> QuotaTree::LowestSubtreeThatFits(int32_t node, int32_t fr,
                                                          int64_t v) const {
  if (!BorrowingWith(node, fr, v) || !HasParent(node)) return {0, HasParent(node)};
  int64_t remaining = v - LocalAvailable(node, fr);
  for (int32_t p = parent_[node]; p != kNoParent; p = parent_[p]) {
    if (!BorrowingWith(p, fr, remaining)) return {Height(p), HasParent(p)};
    remaining -= LocalAvailable(p, fr);
  }
  return {Height(Root(node)), false};
}

void QuotaTree::AddUsage(int32_t node, int32_t fr, int64_t v) {
  while (true) {
    const size_t i = At(node, fr);
    const int64_t local_available = LocalAvailable(node, fr);
    usage_[i] = model::SaturatingAdd(usage_[i], v);
    if (parent_[node] == kNoParent || v <= local_available) return;
    v -= local_available;
    node = parent_[node];
  }
}

void QuotaTree::RemoveUsage(int32_t node, int32_t fr, int64_t v) {
  while (true) {
    const size_t i = At(node, fr);
    const int64_t stored_in_parent = usage_[i] - local_[i];
    usage_[i] = model::SaturatingRemove(usage_[i], v);
    if (stored_in_parent <= 0 || parent_[node] == kNoParent) return;
    v = std::min(v, stored_in_parent);
    node = parent_[node];
  }
}

}  // namespace berth::queueing
