#include "binding/framework/fit_index.h"

#include <algorithm>

#include "binding/framework/plugin_names.h"

namespace berth::binding {

namespace {

// Heap order: the top is the highest score, then the lowest rank. A function object, so the
// heap algorithms inline it.
struct Worse {
  bool operator()(const FitIndex::Entry& a, const FitIndex::Entry& b) const {
    return a.score < b.score || (a.score == b.score && a.rank > b.rank);
  }
};

}  // namespace

FitIndex::FitIndex(const PodResources& pod, const ResolvedProfile& profile,
                   const ResourceTable& resources, const NodeClasses& classes, bool check_fit,
                   int32_t min_free_devices)
    : pod_(pod),
      request_(MakeFitRequest(pod, resources)),
      classes_(classes),
      scorer_(profile, resources),
      check_fit_(check_fit),
      min_free_devices_(min_free_devices),
      fit_weight_(profile.Weight(kNodeResourcesFit)),
      balanced_weight_(
          scorer_.BalancedSkipped(pod) ? 0 : profile.Weight(kNodeResourcesBalancedAllocation)) {}

int64_t FitIndex::Score(const NodeLoad& load) const {
  int64_t s = 0;
  if (fit_weight_ != 0) s += fit_weight_ * scorer_.FitScore(load, pod_);
  if (balanced_weight_ != 0) s += balanced_weight_ * scorer_.BalancedScore(load, pod_);
  return s;
}

void FitIndex::Count(int32_t c, uint64_t failures, int delta) {
  size_t base = static_cast<size_t>(c) * static_cast<size_t>(num_bits());
  while (failures != 0) {
    int bit = __builtin_ctzll(failures);
    failure_counts_[base + static_cast<size_t>(bit)] += delta;
    failures &= failures - 1;
  }
}

void FitIndex::Rebuild(const ClusterState& state) {
  auto n = static_cast<size_t>(state.num_nodes());
  seen_.assign(n, stamp_);
  failures_.assign(n, 0);
  failure_counts_.assign(
      static_cast<size_t>(classes_.num_classes()) * static_cast<size_t>(num_bits()), 0);
  heaps_.assign(static_cast<size_t>(classes_.num_classes()), {});
  for (int32_t c = 0; c < classes_.num_classes(); ++c) {
    auto& heap = heaps_[static_cast<size_t>(c)];
    heap.reserve(classes_.members(c).size());
    for (model::NodeIndex node : classes_.members(c)) {
      NodeLoad load = state.load(node);
      uint64_t f = check_fit_ ? FitFailures(load, request_) : 0;
      failures_[static_cast<size_t>(node.v)] = f;
      Count(c, f, +1);
      if (f == 0 && state.free_devices(node) >= min_free_devices_) {
        heap.push_back(Entry{Score(load), state.rank(node), node.v, state.version(node)});
      }
    }
    std::make_heap(heap.begin(), heap.end(), Worse{});
  }
  built_ = true;
}

void FitIndex::Update(const ClusterState& state, model::NodeIndex node) {
  int32_t c = classes_.class_of(node);
  NodeLoad load = state.load(node);
  uint64_t f = check_fit_ ? FitFailures(load, request_) : 0;
  uint64_t& old = failures_[static_cast<size_t>(node.v)];
  if (f != old) {
    Count(c, old, -1);
    Count(c, f, +1);
    old = f;
  }
  if (f != 0 || state.free_devices(node) < min_free_devices_) return;
  // The node's earlier entries carry an older version and are skipped when they surface.
  auto& heap = heaps_[static_cast<size_t>(c)];
  heap.push_back(Entry{Score(load), state.rank(node), node.v, state.version(node)});
  std::push_heap(heap.begin(), heap.end(), Worse{});
  if (heap.size() > 2 * static_cast<size_t>(classes_.size(c)) + 16) Compact(c, state);
}

void FitIndex::Compact(int32_t c, const ClusterState& state) {
  auto& heap = heaps_[static_cast<size_t>(c)];
  heap.erase(std::remove_if(heap.begin(), heap.end(),
                            [&](const Entry& e) {
                              return e.version != state.version(model::NodeIndex{e.node});
                            }),
             heap.end());
  std::make_heap(heap.begin(), heap.end(), Worse{});
}

void FitIndex::Refresh(const ClusterState& state) {
  const std::vector<int32_t>& log = state.change_log();
  // Far behind (or never built): re-evaluating every node is cheaper than replaying.
  if (!built_ || log.size() - log_pos_ > static_cast<size_t>(state.num_nodes()) / 2) {
    ++stamp_;
    Rebuild(state);
    log_pos_ = log.size();
    return;
  }
  if (log_pos_ == log.size()) return;
  ++stamp_;
  for (size_t i = log_pos_; i < log.size(); ++i) {
    auto n = static_cast<size_t>(log[i]);
    if (seen_[n] == stamp_) continue;  // one re-evaluation per node reflects all its changes
    seen_[n] = stamp_;
    Update(state, model::NodeIndex{log[i]});
  }
  log_pos_ = log.size();
}

const FitIndex::Entry* FitIndex::Best(int32_t c, const ClusterState& state) {
  auto& heap = heaps_[static_cast<size_t>(c)];
  while (!heap.empty() &&
         heap.front().version != state.version(model::NodeIndex{heap.front().node})) {
    std::pop_heap(heap.begin(), heap.end(), Worse{});
    heap.pop_back();
  }
  return heap.empty() ? nullptr : &heap.front();
}

void FitIndex::SetAsideBest(int32_t c) {
  auto& heap = heaps_[static_cast<size_t>(c)];
  std::pop_heap(heap.begin(), heap.end(), Worse{});
  set_aside_.emplace_back(c, heap.back());
  heap.pop_back();
}

void FitIndex::RestoreSetAside() {
  // Pushed back in any order: the heap order depends on the entries, not on how they came.
  for (const auto& [c, entry] : set_aside_) {
    auto& heap = heaps_[static_cast<size_t>(c)];
    heap.push_back(entry);
    std::push_heap(heap.begin(), heap.end(), Worse{});
  }
  set_aside_.clear();
}

}  // namespace berth::binding
