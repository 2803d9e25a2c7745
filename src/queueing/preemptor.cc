#include "queueing/preemptor.h"

#include <algorithm>
#include <set>

#include "queueing/admission_fair_sharing.h"
#include "queueing/fair_sharing_preemptor.h"
#include "model/resources.h"

namespace berth::queueing {
namespace {

int64_t Request(const FrUsage& usage, int32_t fr) {
  for (const auto& [f, v] : usage) {
    if (f == fr) return v;
  }
  return 0;
}

}  // namespace

bool PolicyAllows(model::PreemptionPolicy policy, const WorkloadInfo& preemptor,
                  const WorkloadInfo& candidate) {
  switch (policy) {
    case model::PreemptionPolicy::kNever:
      return false;
    case model::PreemptionPolicy::kAny:
      return true;
    case model::PreemptionPolicy::kLowerPriority:
      return candidate.priority < preemptor.priority;
    case model::PreemptionPolicy::kLowerOrNewerEqualPriority:
      return candidate.priority < preemptor.priority ||
             (candidate.priority == preemptor.priority &&
              preemptor.queue_timestamp < candidate.queue_timestamp);
  }
  return false;
}

bool Preemptor::IsBorrowingOnAny(int32_t node, const std::vector<int32_t>& frs) const {
  for (int32_t fr : frs) {
    if (state_.tree().IsBorrowing(node, fr)) return true;
  }
  return false;
}

bool Preemptor::Fits(int32_t cq, const FrUsage& usage, bool allow_borrowing) const {
  const QuotaTree& tree = state_.tree();
  for (const auto& [fr, v] : usage) {
    if (!allow_borrowing && tree.BorrowingWith(cq, fr, v)) return false;
    if (v > tree.Available(cq, fr)) return false;
  }
  return true;
}

namespace {

enum class Variant { kSameQueue, kHierarchy, kWhileBorrowing, kWithoutBorrowing };

const char* VariantReason(Variant v) {
  switch (v) {
    case Variant::kSameQueue:
      return "InClusterQueue";
    case Variant::kWhileBorrowing:
      return "InCohortReclaimWhileBorrowing";
    case Variant::kHierarchy:
    case Variant::kWithoutBorrowing:
      return "InCohortReclamation";
  }
  return "InCohortReclamation";
}

struct Candidate {
  int32_t workload;
  int32_t cq;
  Variant variant;
};

// One candidate class (hierarchy, priority or same-queue) as a lazy k-way merge of the
// eligible queues' admitted sets, which are already in candidate order. Generated candidates
// are buffered so a second minimal-set attempt replays them.
class CandidateStream {
 public:
  struct Source {
    AdmittedSet::const_iterator it, end;
    int32_t cq;
    bool hierarchy;  // this queue's candidates are hierarchy candidates
    // AFS: the source reads only the workloads of LocalQueue `lq` of its queue's set.
    const AdmissionFairSharing* afs = nullptr;
    int32_t lq = -1;
  };
  CandidateStream(const AdmissionState& state, const WorkloadInfo& preemptor,
                  const model::ClusterQueuePreemption& policy,
                  const std::vector<int32_t>& contested, std::vector<Source> sources)
      : state_(state),
        pre_(preemptor),
        policy_(policy),
        contested_(contested),
        sources_(std::move(sources)) {}

  void Reset() { pos_ = 0; }
  bool Next(Candidate* out) {
    while (pos_ >= buffer_.size()) {
      if (!Generate()) return false;
    }
    *out = buffer_[pos_++];
    return true;
  }
  const std::vector<Candidate>& generated() const { return buffer_; }
  const std::vector<Source>& sources() const { return sources_; }

 private:
  // The best current head over the sources; false when every source is exhausted.
  bool Generate() {
    while (true) {
      int32_t best = -1;
      for (size_t s = 0; s < sources_.size(); ++s) {
        Source& src = sources_[s];
        while (src.afs != nullptr && src.it != src.end &&
               src.afs->LocalQueueOf(*src.it) != src.lq) {
          ++src.it;
        }
        if (src.it == src.end) continue;
        if (best < 0 || Before(src, sources_[static_cast<size_t>(best)])) {
          best = static_cast<int32_t>(s);
        }
      }
      if (best < 0) return false;
      Source& src = sources_[static_cast<size_t>(best)];
      const int32_t w = *src.it;
      ++src.it;
      const WorkloadInfo& cand = state_.info(w);
      bool uses = false;
      for (const auto& [fr, v] : state_.held(w)->usage) {
        uses = uses ||
               (v > 0 && std::find(contested_.begin(), contested_.end(), fr) != contested_.end());
      }
      if (!uses) continue;
      const bool same = src.cq == pre_.cq;
      // Sources are in ascending priority: once a lower-priority-only policy stops allowing,
      // nothing later in this source can be allowed either.
      if (same) {
        if (PolicyAllows(policy_.within_cluster_queue, pre_, cand)) {
          buffer_.push_back({w, src.cq, Variant::kSameQueue});
          return true;
        }
        if (cand.priority > pre_.priority ||
            (cand.priority == pre_.priority &&
             policy_.within_cluster_queue == model::PreemptionPolicy::kLowerPriority)) {
          src.it = src.end;
        }
        continue;
      }
      if (src.hierarchy) {
        if (PolicyAllows(policy_.reclaim_within_cohort, pre_, cand)) {
          buffer_.push_back({w, src.cq, Variant::kHierarchy});
          return true;
        }
        if (policy_.reclaim_within_cohort != model::PreemptionPolicy::kAny &&
            (cand.priority > pre_.priority ||
             (cand.priority == pre_.priority &&
              policy_.reclaim_within_cohort == model::PreemptionPolicy::kLowerPriority))) {
          src.it = src.end;
        }
        continue;
      }
      const auto& bwc = policy_.borrow_within_cohort;
      if (bwc.policy == model::PreemptionPolicy::kLowerPriority && cand.priority < pre_.priority &&
          (!bwc.max_priority_threshold || cand.priority <= *bwc.max_priority_threshold)) {
        buffer_.push_back({w, src.cq, Variant::kWhileBorrowing});
        return true;
      }
      if (PolicyAllows(policy_.reclaim_within_cohort, pre_, cand)) {
        buffer_.push_back({w, src.cq, Variant::kWithoutBorrowing});
        return true;
      }
    }
  }

  // Head of `a` before head of `b`: within one queue split by LocalQueue (AFS), the higher
  // LocalQueue usage first; otherwise candidate order.
  bool Before(const Source& a, const Source& b) const {
    if (a.afs != nullptr && b.afs != nullptr && a.cq == b.cq && a.lq != b.lq) {
      const double ua = a.lq < 0 ? 0.0 : a.afs->Usage(a.lq);
      const double ub = b.lq < 0 ? 0.0 : b.afs->Usage(b.lq);
      if (ua != ub) return ua > ub;
    }
    return VictimOrder{&state_}(*a.it, *b.it);
  }

  const AdmissionState& state_;
  const WorkloadInfo& pre_;
  const model::ClusterQueuePreemption& policy_;
  const std::vector<int32_t>& contested_;
  std::vector<Source> sources_;
  std::vector<Candidate> buffer_;
  size_t pos_ = 0;
};

}  // namespace

PreemptionResult Preemptor::GetTargets(const WorkloadInfo& wl, int32_t cq, const FrUsage& usage,
                                       const std::vector<int32_t>& contested, bool explain) {
  if (fair_ != nullptr) return fair_->GetTargets(wl, cq, usage, contested, explain);
  PreemptionResult result;
  const QuotaTree& tree = state_.tree();
  const auto& policy = state_.cq_spec(cq).preemption;

  // Where the request stops borrowing: other queues whose lowest common ancestor with the
  // preemptor is at least that high are reclaimed from "hierarchically". Every resource of
  // the request counts, not only the contested ones (hierarchical_preemption.go passes the
  // whole request to QuantitiesFitInQuota): a request that borrows memory has no advantage
  // when it preempts for cpu.
  bool all_fit = true;
  int32_t fit_height = 0;
  for (const auto& [fr, amount] : usage) {
    auto [h, ok] = tree.LowestSubtreeThatFits(cq, fr, amount);
    all_fit = all_fit && ok;
    fit_height = std::max(fit_height, h);
  }

  std::vector<CandidateStream::Source> hierarchy_sources, priority_sources;
  const bool cohort_candidates_possible =
      policy.reclaim_within_cohort != model::PreemptionPolicy::kNever ||
      policy.borrow_within_cohort.policy != model::PreemptionPolicy::kNever;
  if (cohort_candidates_possible && tree.HasParent(cq)) {
    for (int32_t other : state_.cq(cq).same_tree) {
      if (other == cq || state_.admitted(other).empty()) continue;
      if (!IsBorrowingOnAny(other, contested)) continue;
      const int32_t lca = tree.CommonAncestor(cq, other);
      if (lca == QuotaTree::kNoParent) continue;
      // Every cohort between the other queue and the common ancestor must exceed its quota
      // too, or that subtree is only using what it owns.
      bool path_borrowing = true;
      for (int32_t v = tree.parent(other); v != lca && path_borrowing; v = tree.parent(v)) {
        path_borrowing = IsBorrowingOnAny(v, contested);
      }
      if (!path_borrowing) continue;
      const bool advantage = all_fit && fit_height <= tree.Height(lca);
      const AdmittedSet& set = state_.admitted(other);
      (advantage ? hierarchy_sources : priority_sources)
          .push_back({set.begin(), set.end(), other, advantage});
    }
  }
  const bool any_other = !hierarchy_sources.empty() || !priority_sources.empty();
  const bool no_hierarchy = hierarchy_sources.empty();
  const AdmittedSet& own = state_.admitted(cq);
  std::vector<CandidateStream> streams;
  streams.reserve(3);
  streams.emplace_back(state_, wl, policy, contested, std::move(hierarchy_sources));
  streams.emplace_back(state_, wl, policy, contested, std::move(priority_sources));
  std::vector<CandidateStream::Source> own_sources;
  if (afs_ != nullptr && afs_->Enabled(cq)) {
    // One source per LocalQueue of the own queue (each still in candidate order, so the
    // priority cut-off holds per source); O(n) to find them, n the queue's holders.
    std::set<int32_t> lqs;
    for (int32_t w : own) lqs.insert(afs_->LocalQueueOf(w));
    for (int32_t lq : lqs) own_sources.push_back({own.begin(), own.end(), cq, false, afs_, lq});
  } else {
    own_sources.push_back({own.begin(), own.end(), cq, false});
  }
  streams.emplace_back(state_, wl, policy, contested, std::move(own_sources));

  // Which borrowing modes to try, and in which order (classical preemption.go).
  std::vector<bool> attempts;
  const bool borrow_forbidden =
      policy.borrow_within_cohort.policy == model::PreemptionPolicy::kNever;
  // At or over nominal on some contested resource, with borrowing forbidden: any fit borrows
  // nothing more anyway, so only the borrowing variant is tried (trying "without borrowing"
  // first would take own-queue victims Kueue never touches).
  const bool under_nominal = std::all_of(contested.begin(), contested.end(), [&](int32_t fr) {
    return tree.Nominal(cq, fr) > tree.Usage(cq, fr);
  });
  if (!any_other || (borrow_forbidden && !under_nominal)) {
    attempts = {true};
  } else if (borrow_forbidden && no_hierarchy) {
    attempts = {false, true};
  } else {
    attempts = {true, false};
  }
  // Upper bounds on what each attempt could free, per contested FR: an attempt whose bound
  // cannot cover the request is skipped without reading a single candidate.
  // What the own queue's victims could free per contested FR: the holders the policy may
  // preempt form a prefix of its admitted set (ascending priority), read until the first
  // that no later one can beat; with equal priorities and LowerPriority that is nothing.
  std::vector<int64_t> own_freeable_by_fr(contested.size(), 0);
  if (policy.within_cluster_queue != model::PreemptionPolicy::kNever) {
    for (int32_t w : own) {
      const WorkloadInfo& cand = state_.info(w);
      if (policy.within_cluster_queue != model::PreemptionPolicy::kAny &&
          (cand.priority > wl.priority ||
           (cand.priority == wl.priority &&
            policy.within_cluster_queue == model::PreemptionPolicy::kLowerPriority))) {
        break;
      }
      for (size_t i = 0; i < contested.size(); ++i) {
        for (const auto& [fr, v] : state_.held(w)->usage) {
          if (fr == contested[i]) {
            own_freeable_by_fr[i] = model::SaturatingAdd(own_freeable_by_fr[i], v);
          }
        }
      }
    }
  }
  auto hopeless = [&](bool allow_borrowing) {
    for (size_t i = 0; i < contested.size(); ++i) {
      const int32_t fr = contested[i];
      const int64_t request = Request(usage, fr);
      const int64_t own_freeable = own_freeable_by_fr[i];
      // Only victims of its own queue lower the preemptor's own usage.
      if (!allow_borrowing &&
          model::SaturatingAdd(tree.Usage(cq, fr) - own_freeable, request) >
              tree.SubtreeQuota(cq, fr)) {
        return true;
      }
      int64_t freeable = own_freeable;
      for (const auto& src : streams[0].sources()) {
        freeable = model::SaturatingAdd(freeable, tree.Usage(src.cq, fr));
      }
      if (!allow_borrowing ||
          policy.borrow_within_cohort.policy != model::PreemptionPolicy::kNever) {
        for (const auto& src : streams[1].sources()) {
          freeable = model::SaturatingAdd(freeable, tree.Usage(src.cq, fr));
        }
      }
      if (model::SaturatingAdd(tree.Available(cq, fr), freeable) < request) return true;
    }
    return false;
  };
  std::vector<Candidate> chosen;
  for (bool allow_borrowing : attempts) {
    if (hopeless(allow_borrowing)) continue;
    std::vector<Candidate> removed;
    bool fits = false;
    for (auto& stream : streams) {
      stream.Reset();
      Candidate c;
      while (!fits && stream.Next(&c)) {
        if (allow_borrowing && c.variant == Variant::kWithoutBorrowing) continue;
        // Another queue stops being a source once it no longer borrows (earlier victims may
        // have brought it back within nominal).
        if (c.cq != cq && !IsBorrowingOnAny(c.cq, contested)) continue;
        state_.RemoveUsage(c.cq, state_.held(c.workload)->usage);
        removed.push_back(c);
        fits = Fits(cq, usage, allow_borrowing);
      }
      if (fits) break;
    }
    if (fits) {
      // Fill back: newest removal first (never the last, which made it fit), re-admit every
      // victim the preemptor does not need.
      for (int32_t k = static_cast<int32_t>(removed.size()) - 2; k >= 0; --k) {
        const Candidate& c = removed[static_cast<size_t>(k)];
        state_.AddUsage(c.cq, state_.held(c.workload)->usage);
        if (Fits(cq, usage, allow_borrowing)) {
          removed.erase(removed.begin() + k);
        } else {
          state_.RemoveUsage(c.cq, state_.held(c.workload)->usage);
        }
      }
    }
    for (const Candidate& c : removed) state_.AddUsage(c.cq, state_.held(c.workload)->usage);
    if (fits) {
      chosen = std::move(removed);
      break;
    }
  }
  for (const Candidate& c : chosen) {
    result.targets.push_back({c.workload, VariantReason(c.variant), c.cq == cq});
  }
  if (explain) {
    for (const auto& stream : streams) {
      for (const Candidate& c : stream.generated()) {
        const bool is_chosen = std::any_of(chosen.begin(), chosen.end(), [&](const Candidate& x) {
          return x.workload == c.workload;
        });
        result.candidates.push_back(
            {c.workload, state_.cq(c.cq).name, is_chosen,
             is_chosen ? VariantReason(c.variant) : "not needed for the minimal set"});
      }
    }
  }
  return result;
}

}  // namespace berth::queueing
