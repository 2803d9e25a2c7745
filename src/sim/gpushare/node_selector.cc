#include "sim/gpushare/node_selector.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace berth::sim::gpushare {
namespace {

// Beyond this many tied classes, KthTied walks the nodes once instead of binary-searching
// positions over every tied class's members (O(classes x log^2 nodes) per draw).
constexpr size_t kMaxTiedForSearch = 32;

}  // namespace

int SelectByScan(const gpu::NodeScorer& scorer, const gpu::PodSpec& pod,
                 const gpu::GpuCluster& cluster, const std::vector<int32_t>& ranks,
                 TieBreak tie_break, Rng& rng) {
  BERTH_CHECK(ranks.size() == static_cast<size_t>(cluster.size()), "one rank per node");
  // Upstream samples a reservoir over the ties; one uniform draw over them is the same
  // distribution, and the ranked rule needs no list at all.
  const bool uniform = scorer.always_uniform() || tie_break == TieBreak::kUniform;
  std::vector<int> ties;
  int64_t best = std::numeric_limits<int64_t>::min();
  int chosen = -1;
  for (int i = 0; i < cluster.size(); ++i) {
    const gpu::NodeState& node = cluster.node(i);
    if (!Fits(pod, node)) continue;
    const int64_t score = scorer.Score(pod, node, cluster.node_fragment_milli(i));
    if (score < best) continue;
    if (score > best) {
      best = score;
      chosen = i;
      ties.clear();
    } else if (!uniform && ranks[i] < ranks[chosen]) {
      chosen = i;
    }
    if (uniform) ties.push_back(i);
  }
  if (!uniform || ties.size() <= 1) return chosen;
  return ties[static_cast<size_t>(rng.UniformIntByRemainder(ties.size()))];
}

NodeSelector::NodeSelector(std::vector<int32_t> ranks, TieBreak tie_break)
    : ranks_(std::move(ranks)), tie_break_(tie_break) {}

size_t NodeSelector::KeyHash::operator()(const gpu::NodeState& s) const {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  const auto mix = [&h](int64_t v) {
    h ^= static_cast<uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  };
  mix(s.cpu_capacity_milli);
  mix(s.cpu_free_milli);
  mix(s.memory_free_mib);
  mix(s.num_gpu);
  mix(static_cast<int64_t>(s.model));
  for (int32_t v : s.gpu_free_milli) mix(v);
  for (int32_t v : s.pods_by_tag) mix(v);
  mix(s.tags_present);
  return static_cast<size_t>(h);
}

gpu::NodeState NodeSelector::KeyOf(const gpu::NodeState& node) const {
  if (!filter_key_) return node;
  // What gpu::Fits reads, and nothing else: free CPU and memory, the model, and how many GPUs
  // have a given share free (so the shares' order does not matter).
  gpu::NodeState key;
  key.cpu_free_milli = node.cpu_free_milli;
  key.memory_free_mib = node.memory_free_mib;
  key.num_gpu = node.num_gpu;
  key.model = node.model;
  key.gpu_free_milli = node.gpu_free_milli;
  std::sort(key.gpu_free_milli.begin(), key.gpu_free_milli.begin() + node.num_gpu,
            std::greater<>());
  return key;
}

void NodeSelector::Build(const gpu::NodeScorer& scorer, const gpu::GpuCluster& cluster) {
  BERTH_CHECK(ranks_.size() == static_cast<size_t>(cluster.size()), "one rank per node");
  // Only Random is known to score every node the same; any other scorer may read any field.
  filter_key_ = scorer.always_uniform();
  classes_.clear();
  free_classes_.clear();
  active_.clear();
  by_key_.clear();
  marked_.clear();
  shapes_.clear();
  class_of_.assign(static_cast<size_t>(cluster.size()), -1);
  for (int i = 0; i < cluster.size(); ++i) Join(i, KeyOf(cluster.node(i)));
  built_ = true;
}

void NodeSelector::Join(int index, const gpu::NodeState& key) {
  auto [it, inserted] = by_key_.try_emplace(key, -1);
  if (inserted) {
    int32_t id = 0;
    if (free_classes_.empty()) {
      id = static_cast<int32_t>(classes_.size());
      classes_.emplace_back();
    } else {
      id = free_classes_.back();
      free_classes_.pop_back();
    }
    it->second = id;
    NodeClass& c = classes_[static_cast<size_t>(id)];
    c.key = key;
    c.slot = static_cast<int32_t>(active_.size());
    active_.push_back(id);
  }
  const int32_t id = it->second;
  NodeClass& c = classes_[static_cast<size_t>(id)];
  c.members.insert(std::lower_bound(c.members.begin(), c.members.end(), index), index);
  if (tie_break_ == TieBreak::kSeededNodeOrder) c.ranked.emplace(ranks_[static_cast<size_t>(index)], index);
  class_of_[static_cast<size_t>(index)] = id;
}

void NodeSelector::Leave(int index) {
  const int32_t id = class_of_[static_cast<size_t>(index)];
  NodeClass& c = classes_[static_cast<size_t>(id)];
  c.members.erase(std::lower_bound(c.members.begin(), c.members.end(), index));
  if (tie_break_ == TieBreak::kSeededNodeOrder) c.ranked.erase({ranks_[static_cast<size_t>(index)], index});
  class_of_[static_cast<size_t>(index)] = -1;
  if (!c.members.empty()) return;
  // Swap-remove from active_; the order of active_ does not matter (ties go by rank or index).
  const int32_t last = active_.back();
  active_[static_cast<size_t>(c.slot)] = last;
  classes_[static_cast<size_t>(last)].slot = c.slot;
  active_.pop_back();
  c.slot = -1;
  by_key_.erase(c.key);
  free_classes_.push_back(id);
}

void NodeSelector::Update(int index, const gpu::GpuCluster& cluster) {
  if (!built_) return;
  for (FeasibleShape& shape : shapes_) SetFits(shape, index, Fits(shape.shape, cluster.node(index)));
  gpu::NodeState key = KeyOf(cluster.node(index));
  if (key == classes_[static_cast<size_t>(class_of_[static_cast<size_t>(index)])].key) return;
  Leave(index);
  Join(index, key);
}

void NodeSelector::SetFits(FeasibleShape& shape, int index, bool fits) {
  char& was = shape.fits[static_cast<size_t>(index)];
  if ((was != 0) == fits) return;
  was = fits ? 1 : 0;
  const int32_t delta = fits ? 1 : -1;
  shape.count += delta;
  for (size_t i = static_cast<size_t>(index) + 1; i <= shape.fits.size(); i += i & (~i + 1)) {
    shape.tree[i - 1] += delta;
  }
}

int NodeSelector::SelectFeasible(const gpu::PodSpec& pod, const gpu::GpuCluster& cluster,
                                 Rng& rng) {
  FeasibleShape* found = nullptr;
  for (FeasibleShape& shape : shapes_) {
    const gpu::PodSpec& s = shape.shape;
    if (s.cpu_milli == pod.cpu_milli && s.memory_mib == pod.memory_mib &&
        s.num_gpu == pod.num_gpu && s.gpu_milli == pod.gpu_milli &&
        s.allowed_models == pod.allowed_models) {
      found = &shape;
      break;
    }
  }
  if (found == nullptr) {
    const size_t cells = (shapes_.size() + 1) * static_cast<size_t>(cluster.size());
    if (shapes_.size() >= kMaxFeasibleShapes || cells > kMaxFeasibleCells) return -2;
    FeasibleShape& shape = shapes_.emplace_back();
    shape.shape.cpu_milli = pod.cpu_milli;
    shape.shape.memory_mib = pod.memory_mib;
    shape.shape.num_gpu = pod.num_gpu;
    shape.shape.gpu_milli = pod.gpu_milli;
    shape.shape.allowed_models = pod.allowed_models;
    shape.fits.assign(static_cast<size_t>(cluster.size()), 0);
    shape.tree.assign(static_cast<size_t>(cluster.size()), 0);
    for (int i = 0; i < cluster.size(); ++i) SetFits(shape, i, Fits(shape.shape, cluster.node(i)));
    found = &shape;
  }
  // The scan's draw: none for fewer than two feasible nodes, else one over their count.
  if (found->count == 0) return -1;
  uint64_t k = found->count == 1 ? 0 : rng.UniformIntByRemainder(static_cast<uint64_t>(found->count));
  // The (k+1)-th feasible node in index order: descend the Fenwick tree.
  size_t position = 0;
  size_t step = 1;
  while (step * 2 <= found->tree.size()) step *= 2;
  for (; step > 0; step /= 2) {
    const size_t next = position + step;
    if (next <= found->tree.size() &&
        static_cast<uint64_t>(found->tree[next - 1]) <= k) {
      position = next;
      k -= static_cast<uint64_t>(found->tree[next - 1]);
    }
  }
  return static_cast<int>(position);  // 0-based: the node after `position` feasible-prefix slots
}

int32_t NodeSelector::KthTied(uint64_t k) {
  if (tied_.size() == 1) return classes_[static_cast<size_t>(tied_[0])].members[k];
  if (tied_.size() <= kMaxTiedForSearch) {
    // The smallest node index x with more than k tied nodes at or below it.
    int32_t lo = 0;
    auto hi = static_cast<int32_t>(class_of_.size()) - 1;
    while (lo < hi) {
      const int32_t mid = lo + (hi - lo) / 2;
      uint64_t at_or_below = 0;
      for (int32_t id : tied_) {
        const std::vector<int32_t>& m = classes_[static_cast<size_t>(id)].members;
        at_or_below += static_cast<uint64_t>(std::upper_bound(m.begin(), m.end(), mid) - m.begin());
      }
      if (at_or_below > k) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
  marked_.resize(classes_.size());
  for (int32_t id : tied_) marked_[static_cast<size_t>(id)] = 1;
  int32_t found = -1;
  for (size_t i = 0; i < class_of_.size(); ++i) {
    if (marked_[static_cast<size_t>(class_of_[i])] == 0) continue;
    if (k == 0) {
      found = static_cast<int32_t>(i);
      break;
    }
    --k;
  }
  for (int32_t id : tied_) marked_[static_cast<size_t>(id)] = 0;
  BERTH_CHECK(found >= 0, "the draw falls among the tied nodes");
  return found;
}

int NodeSelector::Select(const gpu::NodeScorer& scorer, const gpu::PodSpec& pod,
                         const gpu::GpuCluster& cluster, Rng& rng) {
  // A scorer of the other kind (Random or not) needs the other class key: regroup.
  if (!built_ || filter_key_ != scorer.always_uniform()) Build(scorer, cluster);
  BERTH_CHECK(class_of_.size() == static_cast<size_t>(cluster.size()), "the same cluster");
  const bool uniform = scorer.always_uniform() || tie_break_ == TieBreak::kUniform;
  if (scorer.always_uniform()) {
    // Every feasible node ties (node_scorer.h): only the filter matters.
    if (const int node = SelectFeasible(pod, cluster, rng); node != -2) return node;
  }
  tied_.clear();
  uint64_t tied_nodes = 0;
  int64_t best = std::numeric_limits<int64_t>::min();
  std::pair<int32_t, int32_t> best_ranked{std::numeric_limits<int32_t>::max(), -1};
  for (const int32_t id : active_) {
    const NodeClass& c = classes_[static_cast<size_t>(id)];
    // The key holds every field Fits reads (under both keys), and sits in the class: no trip
    // to the cluster's node for the many classes the pod does not fit.
    if (!Fits(pod, c.key)) continue;
    const int member = c.members.front();
    const int64_t score =
        scorer.Score(pod, cluster.node(member), cluster.node_fragment_milli(member));
    if (score < best) continue;
    if (score > best) {
      best = score;
      tied_.clear();
      tied_nodes = 0;
      best_ranked = {std::numeric_limits<int32_t>::max(), -1};
    }
    if (uniform) {
      tied_.push_back(id);
      tied_nodes += c.members.size();
    } else {
      // The scan keeps the first node of the lowest rank: the lowest (rank, index).
      best_ranked = std::min(best_ranked, *c.ranked.begin());
    }
  }
  if (!uniform) return best_ranked.second;
  if (tied_nodes == 0) return -1;
  // The scan draws only when more than one node ties; the same draw, over the same count.
  const uint64_t k = tied_nodes == 1 ? 0 : rng.UniformIntByRemainder(tied_nodes);
  return KthTied(k);
}

}  // namespace berth::sim::gpushare
