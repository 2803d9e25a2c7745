#include "devices/allocator.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "core/check.h"
#include "devices/internal/allocated_state.h"
#include "devices/internal/attribute_index.h"
#include "devices/internal/claim_plan.h"
#include "devices/internal/device_taint_rules.h"
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
    // Before any search: taints from DeviceTaintRules count as if the slices listed them.
    pools_.SetRuleTaints(
        internal::MatchDeviceTaintRules(snapshot, cluster, pools_, *matcher_, diags));
    for (size_t n = 0; n < snapshot.nodes.size(); ++n) {
      node_ids_[snapshot.nodes[n].meta.name].push_back(static_cast<int32_t>(n));
    }
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
      NoteNodesOf(*held);
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

  int32_t FreeDeviceBound(model::NodeIndex node) const {
    if (node.v < 0 || static_cast<size_t>(node.v) >= snapshot_.nodes.size()) return 0;
    const internal::NodeView& view = pools_.ViewFor(node);
    int32_t free = 0;
    for (internal::DeviceRecordId rec : view.devices) {
      const internal::DeviceRecord& r = pools_.record(rec);
      // A shareable device may serve several requests of one Allocate(): no bound.
      if (r.multi) return Allocator::kUnboundedDevices;
      // Exclusive use is what the search's "in use" check reads (admin access aside, which
      // MinDevices leaves out). A device other nodes see counts as free whatever holds it,
      // so that a Commit on another node never changes this node's bound.
      if (!r.node_local || !allocated_.exclusive(r.key)) ++free;
    }
    return free;
  }

  int32_t MinDevices(const std::vector<ClaimIndex>& claims) const {
    int64_t need = 0;
    for (ClaimIndex ci : claims) {
      if (ci.v < 0 || static_cast<size_t>(ci.v) >= snapshot_.resource_claims.size()) return 0;
      if (snapshot_.resource_claims[static_cast<size_t>(ci.v)].cluster != cluster_) return 0;
      if (Held(ci) != nullptr) continue;  // allocated: checked only for its node selector
      const auto& plan = plans_[static_cast<size_t>(ci.v)];
      if (!plan.has_value() || !plan->error.empty()) return 0;
      // The pre-check's count (Search::Precheck, step 2): requests without admin access
      // hold distinct devices; a group with an admin or All alternative counts nothing.
      for (const internal::RequestGroup& group : plan->requests) {
        if (group.alternatives.empty()) continue;
        int64_t min_group = std::numeric_limits<int64_t>::max();
        for (const internal::RequestPlan& alt : group.alternatives) {
          if (alt.admin || alt.all) {
            min_group = 0;
            break;
          }
          min_group = std::min(min_group, std::max<int64_t>(alt.count, 0));
        }
        need += min_group;
        if (need >= std::numeric_limits<int32_t>::max()) return std::numeric_limits<int32_t>::max();
      }
    }
    return static_cast<int32_t>(need);
  }

  std::vector<model::NodeIndex> TakeChangedNodes() {
    std::vector<model::NodeIndex> out;
    out.swap(changed_nodes_);
    return out;
  }

 private:
  // Records the nodes whose FreeDeviceBound() a released allocation raises: the nodes of
  // its node-local devices (devices other nodes see are always counted as free).
  void NoteNodesOf(const model::AllocationResult& allocation) {
    for (const model::DeviceRequestAllocationResult& r : allocation.results) {
      const internal::DeviceKeyId key = pools_.FindKey(r.driver, r.pool, r.device);
      if (key.v < 0) continue;  // not published: in no node's view
      for (internal::DeviceRecordId rec : pools_.RecordsOfKey(key)) {
        const internal::DeviceRecord& record = pools_.record(rec);
        if (!record.node_local) continue;
        const model::ResourceSlice& slice = pools_.slice_of(rec);
        const std::string& name =
            slice.per_device_node_selection ? pools_.device(rec).node_name : slice.node_name;
        auto it = node_ids_.find(name);
        if (it == node_ids_.end()) continue;
        for (int32_t n : it->second) changed_nodes_.push_back(model::NodeIndex{n});
      }
    }
  }

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
  // Node name -> indexes (several only for invalid input; each sees the same devices).
  std::unordered_map<std::string, std::vector<int32_t>> node_ids_;
  std::vector<model::NodeIndex> changed_nodes_;  // by Release() since TakeChangedNodes()
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

int32_t Allocator::FreeDeviceBound(model::NodeIndex node) const {
  return impl_->FreeDeviceBound(node);
}

int32_t Allocator::MinDevices(const std::vector<ClaimIndex>& claims) const {
  return impl_->MinDevices(claims);
}

std::vector<model::NodeIndex> Allocator::TakeChangedNodes() { return impl_->TakeChangedNodes(); }

}  // namespace berth::devices
