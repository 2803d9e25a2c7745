#include "devices/allocator.h"

#include <map>
#include <utility>

#include "core/check.h"
#include "devices/internal/allocated_state.h"
#include "devices/internal/attribute_index.h"
#include "devices/internal/claim_plan.h"
#include "devices/internal/pool_index.h"
#include "devices/internal/search.h"
#include "devices/internal/selector_cache.h"
#include "devices/internal/selector_matcher.h"

namespace berth::devices {

// The Allocator's state: indexes built once from the Snapshot (pools per node, compiled
// selectors, claim plans), what allocated claims hold, and the search's scratch space.
class Allocator::Impl {
 public:
  Impl(const model::Snapshot& snapshot, const std::string& cluster, core::Diagnostics& diags,
       std::unique_ptr<internal::SelectorMatcher> matcher)
      : snapshot_(snapshot),
        cluster_(cluster),
        diags_(diags),
        matcher_(std::move(matcher)),
        pools_(snapshot, cluster, diags),
        selectors_(*matcher_, pools_),
        attributes_(pools_),
        allocated_(pools_),
        plans_(snapshot.resource_claims.size()),
        committed_(snapshot.resource_claims.size()),
        released_(snapshot.resource_claims.size(), 0),
        search_({snapshot, pools_, selectors_, attributes_, allocated_}) {
    internal::ClaimPlanner planner(snapshot, cluster, selectors_, attributes_, diags);
    for (size_t i = 0; i < snapshot.resource_claims.size(); ++i) {
      const model::ResourceClaim& claim = snapshot.resource_claims[i];
      if (claim.cluster != cluster) continue;
      claim_ids_.try_emplace({claim.meta.namespace_, claim.meta.name}, static_cast<int32_t>(i));
      if (claim.allocation.has_value()) {
        allocated_.Add(*claim.allocation);
      } else {
        plans_[i] = planner.Plan(static_cast<int32_t>(i));
      }
    }
  }

  AllocationOutcome Allocate(const std::vector<ClaimIndex>& claims, model::NodeIndex node) {
    ++stats_.allocate_calls;
    AllocationOutcome out;
    if (node.v < 0 || static_cast<size_t>(node.v) >= snapshot_.nodes.size()) {
      Fail(&out, "node index " + std::to_string(node.v) + " is not in the snapshot", true, {});
      return out;
    }
    const model::Node& n = snapshot_.node(node);
    std::vector<const internal::ClaimPlan*> todo;
    std::vector<const model::AllocationResult*> existing(claims.size(), nullptr);
    for (size_t i = 0; i < claims.size(); ++i) {
      const ClaimIndex ci = claims[i];
      if (ci.v < 0 || static_cast<size_t>(ci.v) >= snapshot_.resource_claims.size()) {
        Fail(&out, "claim index " + std::to_string(ci.v) + " is not in the snapshot", true, {});
        return out;
      }
      const model::ResourceClaim& claim = snapshot_.resource_claims[static_cast<size_t>(ci.v)];
      const std::string display = claim.meta.namespace_.empty()
                                      ? claim.meta.name
                                      : claim.meta.namespace_ + "/" + claim.meta.name;
      if (claim.cluster != cluster_) {
        Fail(&out, "claim " + display + " is in cluster " + claim.cluster + ", not " + cluster_,
             true, ci);
        return out;
      }
      const model::AllocationResult* held = Held(ci);
      if (held != nullptr) {
        // Already allocated: usable only on the nodes its selector names.
        if (held->node_selector.has_value() &&
            !held->node_selector->Matches(n.meta.labels, n.meta.name)) {
          Fail(&out, "resourceclaim not available on the node", false, ci,
               "claim " + display + " is allocated to devices that node " + n.meta.name +
                   " cannot use");
          return out;
        }
        existing[i] = held;
        continue;
      }
      const internal::ClaimPlan& plan = *plans_[static_cast<size_t>(ci.v)];
      if (!plan.error.empty()) {
        Fail(&out, plan.error, true, ci);
        return out;
      }
      todo.push_back(&plan);
    }
    AllocationOutcome found;
    if (!todo.empty()) {
      search_.Run(todo, node, prune_, &found, &stats_);
      if (!found.ok()) return found;
    }
    out.allocations.reserve(claims.size());
    size_t next = 0;
    for (size_t i = 0; i < claims.size(); ++i) {
      if (existing[i] != nullptr) {
        out.allocations.push_back(*existing[i]);
      } else {
        out.allocations.push_back(std::move(found.allocations[next++]));
      }
    }
    return out;
  }

  void Commit(const std::vector<ClaimIndex>& claims, const AllocationOutcome& outcome) {
    // The caller commits what Allocate() returned for the same claims (a contract, so a
    // violation is a bug in the caller).
    BERTH_CHECK(outcome.ok() && outcome.allocations.size() == claims.size(),
                "Commit needs a successful outcome for the same claims");
    for (size_t i = 0; i < claims.size(); ++i) {
      if (Held(claims[i]) != nullptr) continue;
      committed_[static_cast<size_t>(claims[i].v)] = outcome.allocations[i];
      allocated_.Add(outcome.allocations[i]);
    }
  }

  void Release(const std::vector<ClaimIndex>& claims) {
    for (ClaimIndex ci : claims) {
      // An index outside the snapshot is a bug in the caller, which got it from FindClaim.
      BERTH_CHECK(ci.v >= 0 && static_cast<size_t>(ci.v) < snapshot_.resource_claims.size(),
                  "Release of a claim index outside the snapshot");
      // Another cluster's claim holds nothing here (the constructor skipped it).
      if (snapshot_.resource_claims[static_cast<size_t>(ci.v)].cluster != cluster_) continue;
      const model::AllocationResult* held = Held(ci);
      if (held == nullptr) continue;
      allocated_.Remove(*held);
      const auto i = static_cast<size_t>(ci.v);
      if (committed_[i].has_value()) {
        committed_[i].reset();
        continue;
      }
      // Allocated in the snapshot, so never planned: plan it now (reporting its problems
      // then), as the constructor does for unallocated claims.
      released_[i] = 1;
      if (!plans_[i].has_value()) {
        internal::ClaimPlanner planner(snapshot_, cluster_, selectors_, attributes_, diags_);
        plans_[i] = planner.Plan(ci.v);
      }
    }
  }

  const model::AllocationResult* Allocation(ClaimIndex ci) const {
    if (ci.v < 0 || static_cast<size_t>(ci.v) >= snapshot_.resource_claims.size()) return nullptr;
    return Held(ci);
  }

  std::optional<ClaimIndex> FindClaim(const std::string& ns, const std::string& name) const {
    auto it = claim_ids_.find({ns, name});
    if (it == claim_ids_.end()) return std::nullopt;
    return ClaimIndex{it->second};
  }

  AllocatorStats Stats() const {
    AllocatorStats s = stats_;
    s.selector_evaluations = selectors_.evaluations();
    s.node_views = pools_.views_built();
    return s;
  }

  size_t MemoryBytes() const {
    size_t bytes = sizeof(*this) + pools_.MemoryBytes() + selectors_.MemoryBytes() +
                   attributes_.MemoryBytes() + allocated_.MemoryBytes() +
                   plans_.capacity() * sizeof(plans_[0]) +
                   committed_.capacity() * sizeof(committed_[0]) + released_.capacity();
    for (const auto& p : plans_) {
      if (!p.has_value()) continue;
      for (const auto& g : p->requests)
        bytes += g.alternatives.capacity() * sizeof(internal::RequestPlan);
    }
    return bytes;
  }

  void SetPruning(bool enabled) { prune_ = enabled; }

 private:
  const model::AllocationResult* Held(ClaimIndex ci) const {
    const auto& committed = committed_[static_cast<size_t>(ci.v)];
    if (committed.has_value()) return &*committed;
    if (released_[static_cast<size_t>(ci.v)] != 0) return nullptr;
    const auto& claim = snapshot_.resource_claims[static_cast<size_t>(ci.v)];
    return claim.allocation.has_value() ? &*claim.allocation : nullptr;
  }

  static void Fail(AllocationOutcome* out, std::string reason, bool is_error,
                   std::optional<ClaimIndex> claim, std::string detail = "") {
    AllocationFailure f;
    f.detail = detail.empty() ? reason : std::move(detail);
    f.reason = std::move(reason);
    f.is_error = is_error;
    f.claim = claim;
    out->failure = std::move(f);
  }

  const model::Snapshot& snapshot_;
  std::string cluster_;
  core::Diagnostics& diags_;  // Release() plans claims the snapshot had allocated
  std::unique_ptr<internal::SelectorMatcher> matcher_;
  internal::PoolIndex pools_;
  internal::SelectorCache selectors_;
  internal::AttributeIndex attributes_;
  internal::AllocatedState allocated_;
  std::vector<std::optional<internal::ClaimPlan>> plans_;
  std::vector<std::optional<model::AllocationResult>> committed_;
  // Per claim: 1 when its snapshot allocation was released (it is unallocated now unless
  // committed_ holds a new one).
  std::vector<uint8_t> released_;
  std::map<std::pair<std::string, std::string>, int32_t> claim_ids_;
  internal::Search search_;
  AllocatorStats stats_;
  bool prune_ = true;
};

Allocator::Allocator(const model::Snapshot& snapshot, const std::string& cluster,
                     core::Diagnostics& diags)
    : impl_(std::make_unique<Impl>(snapshot, cluster, diags, internal::NewCelSelectorMatcher())) {}

Allocator::Allocator(const model::Snapshot& snapshot, const std::string& cluster,
                     core::Diagnostics& diags, std::unique_ptr<internal::SelectorMatcher> matcher,
                     ForTestTag)
    : impl_(std::make_unique<Impl>(snapshot, cluster, diags, std::move(matcher))) {}

Allocator::~Allocator() = default;

std::unique_ptr<Allocator> Allocator::CreateForTest(
    const model::Snapshot& snapshot, const std::string& cluster, core::Diagnostics& diags,
    std::unique_ptr<internal::SelectorMatcher> matcher) {
  return std::unique_ptr<Allocator>(
      new Allocator(snapshot, cluster, diags, std::move(matcher), ForTestTag{}));
}

AllocationOutcome Allocator::Allocate(const std::vector<ClaimIndex>& claims,
                                      model::NodeIndex node) const {
  return impl_->Allocate(claims, node);
}

void Allocator::Commit(const std::vector<ClaimIndex>& claims, const AllocationOutcome& outcome) {
  impl_->Commit(claims, outcome);
}

void Allocator::Release(const std::vector<ClaimIndex>& claims) { impl_->Release(claims); }

const model::AllocationResult* Allocator::Allocation(ClaimIndex claim) const {
  return impl_->Allocation(claim);
}

std::optional<ClaimIndex> Allocator::FindClaim(const std::string& namespace_,
                                               const std::string& name) const {
  return impl_->FindClaim(namespace_, name);
}

AllocatorStats Allocator::Stats() const { return impl_->Stats(); }

size_t Allocator::MemoryBytes() const { return impl_->MemoryBytes(); }

void Allocator::SetPruningForTest(bool enabled) { impl_->SetPruning(enabled); }

}  // namespace berth::devices
