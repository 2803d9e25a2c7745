#include "queueing/fair_sharing_preemptor.h"
#include "model/resources.h"

#include <algorithm>
#include <utility>

namespace berth::queueing {
namespace {

// A share reduced to what CompareDrs reads, so the ordering compares two numbers: infinite
// shares (a zero weight that borrows) above all others and among themselves by their
// unweighted ratio, finite ones by the weighted share.
struct ShareKey {
  bool infinite = false;
  double value = 0;

  static ShareKey Of(const Drs& d) {
    return d.ZeroWeightBorrows() ? ShareKey{true, d.ratio} : ShareKey{false, d.Weighted()};
  }
  bool IsZero() const { return !infinite && value == 0; }
  bool operator<(const ShareKey& o) const {
    return infinite != o.infinite ? o.infinite : value < o.value;
  }
};

}  // namespace

// Per tree node, reused by every search; an entry counts only when its stamp is the current
// search's (or ordering's), so nothing is cleared between calls.
struct FairSharingPreemptor::Scratch {
  struct Queue {
    bool lazy = false;
    model::PreemptionPolicy policy = model::PreemptionPolicy::kNever;
    AdmittedSet::const_iterator it, end;
    size_t pos = 0, stop = 0;  // explicit lists: [pos, stop) of `retry`
  };
  explicit Scratch(size_t nodes)
      : queues(nodes), queue_stamp(nodes, 0), pruned_stamp(nodes, 0), path_stamp(nodes, 0),
        live(nodes), live_stamp(nodes, 0), drs(nodes), drs_stamp(nodes, 0) {}
  uint32_t NextStamp() {
    if (++stamp == 0) {  // wrapped: forget every old mark
      std::fill(queue_stamp.begin(), queue_stamp.end(), 0);
      std::fill(pruned_stamp.begin(), pruned_stamp.end(), 0);
      std::fill(path_stamp.begin(), path_stamp.end(), 0);
      std::fill(live_stamp.begin(), live_stamp.end(), 0);
      std::fill(drs_stamp.begin(), drs_stamp.end(), 0);
      stamp = 1;
    }
    return stamp;
  }

  uint32_t stamp = 0;
  std::vector<Queue> queues;
  std::vector<uint32_t> queue_stamp, pruned_stamp, path_stamp;
  // Per cohort, its children not yet pruned in the current ordering, ascending (rebuilt at
  // the ordering's first visit, compacted as children are pruned): a descent reads only
  // the queues that still hold candidates, not every child.
  std::vector<std::vector<int32_t>> live;
  std::vector<uint32_t> live_stamp;
  // The share of each node on the current tree as an ordering key, valid while drs_stamp is
  // the search's stamp; a usage change resets the stamps on its path (only those nodes'
  // usage moved).
  std::vector<ShareKey> drs;
  std::vector<uint32_t> drs_stamp;
  uint32_t search = 0;
  std::vector<std::pair<int32_t, int32_t>> retry;  // (cq, workload) the first rule passed over
  std::vector<int32_t> sources;
};

namespace {

using Scratch = FairSharingPreemptor::Scratch;

// Kueue's TargetClusterQueueOrdering (fairsharing/ordering.go) over per-queue candidate
// lists: each call to Next descends from the root to the child with the highest DRS,
// pruning queues without candidates (and, except the preemptor's, queues with share 0) and
// cohorts with share 0 that are off the preemptor's path. The caller pops a candidate or
// drops the queue between calls. Queues are read lazily from their admitted sets (already in
// candidate order) through a filter, or from explicit lists (the S2-b retry round).
class TargetOrdering {
 public:
  TargetOrdering(AdmissionState& state, const FairSharing& fs, Scratch& scratch,
                 const WorkloadInfo& preemptor, const std::vector<int32_t>& contested)
      : state_(state),
        fs_(fs),
        s_(scratch),
        pre_(preemptor),
        contested_(contested),
        stamp_(scratch.NextStamp()) {
    const QuotaTree& tree = state.tree();
    for (int32_t p = tree.parent(pre_.cq); p != QuotaTree::kNoParent; p = tree.parent(p)) {
      s_.path_stamp[static_cast<size_t>(p)] = stamp_;
    }
  }

  void AddLazy(int32_t cq, model::PreemptionPolicy policy) {
    Scratch::Queue& q = Claim(cq);
    q.lazy = true;
    q.policy = policy;
    q.it = state_.admitted(cq).begin();
    q.end = state_.admitted(cq).end();
  }
  // s_.retry[begin, stop) holds the queue's workloads.
  void AddExplicit(int32_t cq, size_t begin, size_t stop) {
    Scratch::Queue& q = Claim(cq);
    q.lazy = false;
    q.pos = begin;
    q.stop = stop;
  }

  bool HasWorkload(int32_t cq) {
    if (s_.queue_stamp[static_cast<size_t>(cq)] != stamp_) return false;
    Scratch::Queue& q = s_.queues[static_cast<size_t>(cq)];
    if (!q.lazy) return q.pos < q.stop;
    while (q.it != q.end) {
      const int32_t w = *q.it;
      const WorkloadInfo& cand = state_.info(w);
      if (UsesContested(w) && PolicyAllows(q.policy, pre_, cand)) return true;
      // The set ascends in priority: under a priority-based policy nothing later qualifies.
      if (q.policy != model::PreemptionPolicy::kAny && cand.priority > pre_.priority) {
        q.it = q.end;
        break;
      }
      ++q.it;
    }
    return false;
  }
  // Precondition: HasWorkload(cq).
  int32_t Pop(int32_t cq) {
    Scratch::Queue& q = s_.queues[static_cast<size_t>(cq)];
    if (!q.lazy) return s_.retry[q.pos++].second;
    return *q.it++;
  }
  void Drop(int32_t cq) { Prune(cq); }
  // True when `cq` can give no more candidates to this ordering.
  bool Exhausted(int32_t cq) {
    return Pruned(cq) || s_.queue_stamp[static_cast<size_t>(cq)] != stamp_ || !HasWorkload(cq);
  }
  // Calls f(s) for every ClusterQueue under the same cohort as `t` that still holds
  // candidates, in ascending order. Precondition: Next() returned `t` (so its cohort's
  // live list is built).
  template <typename F>
  void ForEachLiveSibling(int32_t t, F f) {
    for (int32_t s : s_.live[static_cast<size_t>(state_.tree().parent(t))]) {
      if (fs_.IsClusterQueue(s) && !Pruned(s) &&
          s_.queue_stamp[static_cast<size_t>(s)] == stamp_) {
        f(s);
      }
    }
  }

  // The next target ClusterQueue, or -1 when the tree holds no more candidates.
  int32_t Next() {
    const QuotaTree& tree = state_.tree();
    if (!tree.HasParent(pre_.cq)) {
      return !Pruned(pre_.cq) && HasWorkload(pre_.cq) ? pre_.cq : -1;
    }
    const int32_t root = tree.Root(pre_.cq);
    while (!Pruned(root)) {
      const int32_t t = NextTarget(root);
      if (t >= 0) return t;
    }
    return -1;
  }

 private:
  Scratch::Queue& Claim(int32_t cq) {
    s_.queue_stamp[static_cast<size_t>(cq)] = stamp_;
    return s_.queues[static_cast<size_t>(cq)];
  }
  bool Pruned(int32_t v) const { return s_.pruned_stamp[static_cast<size_t>(v)] == stamp_; }
  void Prune(int32_t v) { s_.pruned_stamp[static_cast<size_t>(v)] = stamp_; }
  bool OnPath(int32_t v) const { return s_.path_stamp[static_cast<size_t>(v)] == stamp_; }
  ShareKey Share(int32_t v) {
    const auto i = static_cast<size_t>(v);
    if (s_.drs_stamp[i] != s_.search) {
      s_.drs[i] = ShareKey::Of(fs_.ShareValue(state_.tree(), v));
      s_.drs_stamp[i] = s_.search;
    }
    return s_.drs[i];
  }

  bool UsesContested(int32_t w) const {
    for (const auto& [fr, v] : state_.held(w)->usage) {
      if (v > 0 && std::find(contested_.begin(), contested_.end(), fr) != contested_.end()) {
        return true;
      }
    }
    return false;
  }
  int32_t NextTarget(int32_t node) {
    int32_t best_cq = -1, best_cohort = -1;
    ShareKey best_cq_drs, best_cohort_drs;
    std::vector<int32_t>& live = s_.live[static_cast<size_t>(node)];
    if (s_.live_stamp[static_cast<size_t>(node)] != stamp_) {
      s_.live_stamp[static_cast<size_t>(node)] = stamp_;
      live.clear();
      for (int32_t child : fs_.children(node)) {
        // Queues that hold no candidate never enter.
        if (!fs_.IsClusterQueue(child) || s_.queue_stamp[static_cast<size_t>(child)] == stamp_) {
          live.push_back(child);
        }
      }
    }
    size_t kept = 0;
    for (size_t k = 0; k < live.size(); ++k) {
      const int32_t child = live[k];
      if (Pruned(child)) continue;
      live[kept++] = child;
      if (fs_.IsClusterQueue(child)) {
        // Queues that hold no candidate are pruned before their share is read.
        if (s_.queue_stamp[static_cast<size_t>(child)] != stamp_) {
          Prune(child);
          continue;
        }
        const ShareKey d = Share(child);
        // The preemptor's own queue stays until it runs out of candidates.
        if ((d.IsZero() && child != pre_.cq) || !HasWorkload(child)) {
          Prune(child);
        } else if (best_cq < 0 || !(d < best_cq_drs)) {
          best_cq = child;
          best_cq_drs = d;
        }
        continue;
      }
      const ShareKey d = Share(child);
      if (d.IsZero() && !OnPath(child)) {
        Prune(child);
      } else if (best_cohort < 0 || !(d < best_cohort_drs)) {
        best_cohort = child;
        best_cohort_drs = d;
      }
    }
    live.resize(kept);
    if (best_cq < 0 && best_cohort < 0) {
      Prune(node);
      return -1;
    }
    // Ties go to the cohort: inside it the most unfair node can be chosen.
    if (best_cohort >= 0 && (best_cq < 0 || !(best_cohort_drs < best_cq_drs))) {
      return NextTarget(best_cohort);
    }
    return best_cq;
  }

  AdmissionState& state_;
  const FairSharing& fs_;
  Scratch& s_;
  const WorkloadInfo& pre_;
  const std::vector<int32_t>& contested_;
  const uint32_t stamp_;
};

// The node just below the lowest common ancestor of the two queues on `from`'s path.
int32_t AlmostLca(const QuotaTree& tree, int32_t from, int32_t lca) {
  while (tree.parent(from) != lca) from = tree.parent(from);
  return from;
}

bool StrategyAllows(model::FairSharingStrategy s, const Drs& preemptor_new,
                    const Drs& target_old, const Drs& target_new) {
  switch (s) {
    case model::FairSharingStrategy::kLessThanOrEqualToFinalShare:
      return CompareDrs(preemptor_new, target_new) <= 0;
    case model::FairSharingStrategy::kLessThanInitialShare:
      return CompareDrs(preemptor_new, target_old) < 0;
  }
  return false;
}

struct Victim {
  int32_t workload;
  int32_t cq;
  const char* reason;
};

}  // namespace

FairSharingPreemptor::FairSharingPreemptor(AdmissionState& state, const FairSharing& fair_sharing,
                                           std::vector<model::FairSharingStrategy> strategies)
    : state_(state),
      fs_(fair_sharing),
      strategies_(std::move(strategies)),
      scratch_(std::make_unique<Scratch>(static_cast<size_t>(state.tree().num_nodes()))) {}

FairSharingPreemptor::~FairSharingPreemptor() = default;

PreemptionResult FairSharingPreemptor::GetTargets(const WorkloadInfo& wl, int32_t cq,
                                                  const FrUsage& usage,
                                                  const std::vector<int32_t>& contested,
                                                  bool explain) {
  PreemptionResult result;
  QuotaTree& tree = state_.tree();
  Scratch& s = *scratch_;
  const auto& policy = state_.cq_spec(cq).preemption;
  auto borrowing_on_contested = [&](int32_t node) {
    return std::any_of(contested.begin(), contested.end(),
                       [&](int32_t fr) { return tree.IsBorrowing(node, fr); });
  };
  // Candidate queues, chosen on the state before the preemptor's usage is simulated.
  std::vector<int32_t>& sources = s.sources;
  sources.clear();
  if (policy.within_cluster_queue != model::PreemptionPolicy::kNever &&
      !state_.admitted(cq).empty()) {
    sources.push_back(cq);
  }
  if (policy.reclaim_within_cohort != model::PreemptionPolicy::kNever && tree.HasParent(cq)) {
    for (int32_t other : state_.cq(cq).same_tree) {
      if (other == cq || state_.admitted(other).empty() || !borrowing_on_contested(other)) {
        continue;
      }
      sources.push_back(other);
    }
  }
  if (sources.empty()) return result;
  if (!explain) {
    // Removing usage u anywhere raises Available(cq, fr) by at most u, so when even every
    // source queue's whole usage could not cover a request no victim set fits and the
    // search would end empty-handed. Explained searches still list their candidates.
    for (const auto& [fr, v] : usage) {
      if (v <= 0) continue;
      int64_t freeable = tree.Available(cq, fr);
      for (int32_t q : sources) freeable = model::SaturatingAdd(freeable, tree.Usage(q, fr));
      if (freeable < v) return result;
    }
  }
  s.search = s.NextStamp();
  s.retry.clear();
  TargetOrdering first(state_, fs_, s, wl, contested);
  for (int32_t q : sources) {
    first.AddLazy(q, q == cq ? policy.within_cluster_queue : policy.reclaim_within_cohort);
  }

  // Usage changes drop the cached shares on their path (the only nodes whose usage moved).
  auto forget = [&](int32_t node) {
    for (int32_t v = node; v != QuotaTree::kNoParent; v = tree.parent(v)) {
      s.drs_stamp[static_cast<size_t>(v)] = 0;
    }
  };
  auto remove = [&](int32_t w) {
    state_.RemoveUsage(state_.held(w)->cq, state_.held(w)->usage);
    forget(state_.held(w)->cq);
  };
  auto add = [&](int32_t w) {
    state_.AddUsage(state_.held(w)->cq, state_.held(w)->usage);
    forget(state_.held(w)->cq);
  };
  auto fits_now = [&] {
    for (const auto& [fr, v] : usage) {
      if (v > tree.Available(cq, fr)) return false;
    }
    return true;
  };
  // While the preemptor's usage is simulated, a fit check takes it out first (and puts it
  // back, so no cached share changes).
  auto fits_simulated = [&] {
    state_.RemoveUsage(cq, usage);
    const bool ok = fits_now();
    state_.AddUsage(cq, usage);
    return ok;
  };
  auto shares = [&](int32_t target, int32_t* target_alca) {
    const int32_t lca = tree.CommonAncestor(cq, target);
    *target_alca = AlmostLca(tree, target, lca);
    return std::make_pair(fs_.ShareValue(tree, AlmostLca(tree, cq, lca)),
                          fs_.ShareValue(tree, *target_alca));
  };

  state_.AddUsage(cq, usage);
  forget(cq);
  // FairSharingPreemptWithinNominal (beta, on): with its request the preemptor stays within
  // its nominal quota on every contested FR.
  const bool within_nominal = std::all_of(contested.begin(), contested.end(), [&](int32_t fr) {
    return tree.Usage(cq, fr) <= tree.SubtreeQuota(cq, fr);
  });
  std::vector<Victim> victims;
  std::vector<std::pair<int32_t, int32_t>> passed_over;  // (workload, cq), explain only
  bool fits = false;
  const model::FairSharingStrategy strategy = strategies_.empty()
                                                  ? model::FairSharingStrategy::kLessThanOrEqualToFinalShare
                                                  : strategies_.front();
  for (int32_t t = first.Next(); !fits && t >= 0; t = fits ? -1 : first.Next()) {
    if (t == cq || within_nominal) {
      const int32_t w = first.Pop(t);
      remove(w);
      victims.push_back({w, t, t == cq ? "InClusterQueue" : "InCohortReclamation"});
      fits = fits_simulated();
      continue;
    }
    int32_t target_alca = -1;
    const auto [preemptor_new, target_old] = shares(t, &target_alca);
    if (!StrategyAllows(strategy, preemptor_new, target_old, target_old)) {
      // A removal never raises the target's share, and both rules only get easier as it
      // rises: no candidate of this queue can pass, so none is simulated. Only the first
      // passed-over one matters to rule S2-b; explain lists them all.
      while (first.HasWorkload(t)) {
        s.retry.emplace_back(t, first.Pop(t));
        if (!explain) break;
      }
      first.Drop(t);
      if (!explain && tree.parent(t) == tree.parent(cq) && first.Exhausted(cq)) {
        // The preemptor's share against its siblings is its own, which no longer changes
        // (its queue gives no more victims), and a sibling's share only changes when it is
        // visited: every sibling that fails the same test now would fail it when its turn
        // came, so settle them all here instead of one descent each.
        first.ForEachLiveSibling(t, [&, preemptor_new = preemptor_new](int32_t sib) {
          if (sib == cq) return;
          const Drs sib_share = fs_.ShareValue(tree, sib);
          if (CompareDrs(sib_share, Drs{}) != 0 &&
              StrategyAllows(strategy, preemptor_new, sib_share, sib_share)) {
            return;
          }
          // A zero share is pruned without a retry entry, as the descent would.
          if (CompareDrs(sib_share, Drs{}) != 0 && first.HasWorkload(sib)) {
            s.retry.emplace_back(sib, first.Pop(sib));
          }
          first.Drop(sib);
        });
      }
      continue;
    }
    while (first.HasWorkload(t)) {
      const int32_t w = first.Pop(t);
      remove(w);
      const Drs target_new = fs_.ShareValue(tree, target_alca);
      if (StrategyAllows(strategy, preemptor_new, target_old, target_new)) {
        victims.push_back({w, t, "InCohortFairSharing"});
        fits = fits_simulated();
        break;  // shares changed: pick the target queue again
      }
      add(w);
      s.retry.emplace_back(t, w);
    }
  }
  // Passed-over candidates by queue, each queue's in the order they were passed over.
  std::stable_sort(s.retry.begin(), s.retry.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  if (!fits && strategies_.size() > 1) {
    // Rule S2-b over the candidates the first rule passed over: one victim per queue, since
    // the rule does not depend on the victim.
    TargetOrdering second(state_, fs_, s, wl, contested);
    for (size_t i = 0; i < s.retry.size();) {
      size_t j = i;
      while (j < s.retry.size() && s.retry[j].first == s.retry[i].first) ++j;
      second.AddExplicit(s.retry[i].first, i, j);
      i = j;
    }
    for (int32_t t = second.Next(); !fits && t >= 0; t = fits ? -1 : second.Next()) {
      int32_t target_alca = -1;
      const auto [preemptor_new, target_old] = shares(t, &target_alca);
      if (StrategyAllows(strategies_[1], preemptor_new, target_old, target_old)) {
        const int32_t w = second.Pop(t);
        remove(w);
        victims.push_back({w, t, "InCohortFairSharing"});
        fits = fits_simulated();
      }
      second.Drop(t);
    }
  }
  state_.RemoveUsage(cq, usage);
  if (fits) {
    // Fill back (borrowing allowed): newest removal first, never the last one.
    for (int32_t k = static_cast<int32_t>(victims.size()) - 2; k >= 0; --k) {
      const int32_t w = victims[static_cast<size_t>(k)].workload;
      add(w);
      if (fits_now()) {
        if (explain) passed_over.emplace_back(w, victims[static_cast<size_t>(k)].cq);
        victims.erase(victims.begin() + k);
      } else {
        remove(w);
      }
    }
  }
  for (const Victim& v : victims) add(v.workload);
  if (fits) {
    for (const Victim& v : victims) result.targets.push_back({v.workload, v.reason, v.cq == cq});
  }
  if (explain) {
    for (const Victim& v : victims) {
      result.candidates.push_back({v.workload, state_.cq(v.cq).name, fits, v.reason});
    }
    for (const auto& [w, q] : passed_over) {
      result.candidates.push_back({w, state_.cq(q).name, false, "not needed for the minimal set"});
    }
    for (const auto& [q, w] : s.retry) {
      const bool taken = std::any_of(victims.begin(), victims.end(),
                                     [w = w](const Victim& v) { return v.workload == w; });
      if (taken) continue;
      result.candidates.push_back(
          {w, state_.cq(q).name, false, "not allowed by the fair sharing strategies"});
    }
  }
  return result;
}

}  // namespace berth::queueing
