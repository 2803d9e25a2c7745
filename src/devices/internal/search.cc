#include "devices/internal/search.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "core/check.h"
#include "devices/internal/share_id.h"

namespace berth::devices::internal {
namespace {

// resource.k8s.io AllocationResultsMaxSize.
constexpr int32_t kMaxResults = 32;

bool SameRequirement(const core::SelectorRequirement& a, const core::SelectorRequirement& b) {
  if (a.key != b.key || a.op != b.op) return false;
  std::set<std::string> va(a.values.begin(), a.values.end());
  std::set<std::string> vb(b.values.begin(), b.values.end());
  return va == vb;
}

void AddRequirements(const std::vector<core::SelectorRequirement>& from,
                     std::vector<core::SelectorRequirement>* to) {
  for (const core::SelectorRequirement& r : from) {
    if (std::none_of(to->begin(), to->end(),
                     [&](const core::SelectorRequirement& x) { return SameRequirement(x, r); })) {
      to->push_back(r);
    }
  }
}

}  // namespace

void Search::Reset(const std::vector<const ClaimPlan*>& claims, model::NodeIndex node) {
  for (DeviceKeyId k : touched_keys_) {
    marks_[static_cast<size_t>(k.v)] = 0;
    shares_[static_cast<size_t>(k.v)] = 0;
  }
  touched_keys_.clear();
  for (PoolGenId g : touched_gens_) gen_slot_[static_cast<size_t>(g.v)] = -1;
  touched_gens_.clear();
  const auto keys = static_cast<size_t>(t_.pools.key_count());
  if (marks_.size() < keys) {
    marks_.resize(keys, 0);
    shares_.resize(keys, 0);
  }
  const auto gens = static_cast<size_t>(t_.pools.gen_count());
  if (gen_slot_.size() < gens) gen_slot_.resize(gens, -1);

  claims_ = claims;
  node_ = &t_.snapshot.node(node);
  view_ = &t_.pools.ViewFor(node);
  error_.clear();
  req_data_.clear();
  all_devices_.clear();
  status_.clear();
  suffix_.clear();
  amounts_.clear();
  undo_.clear();
  allocating_capacity_.clear();
  has_error_candidates_ = false;
  all_with_constraints_ = false;
  const size_t n = claims.size();
  if (group_base_.size() < n) {
    group_base_.resize(n);
    selected_sub_.resize(n);
    results_.resize(n);
    constraints_.resize(n);
  }
  for (size_t c = 0; c < n; ++c) {
    const ClaimPlan& plan = *claims[c];
    group_base_[c].assign(plan.requests.size(), 0);
    selected_sub_[c].assign(plan.requests.size(), 0);
    results_[c].clear();
    constraints_[c].resize(plan.constraints.size());
    for (ConstraintState& s : constraints_[c]) {
      s.count = 0;
      s.value = -1;
      s.values.clear();
    }
    for (size_t g = 0; g < plan.requests.size(); ++g) {
      group_base_[c][g] = static_cast<int32_t>(req_data_.size());
      for (const RequestPlan& alt : plan.requests[g].alternatives) {
        ReqData rd;
        rd.plan = &alt;
        req_data_.push_back(rd);
      }
    }
  }
}

std::string Search::SelectorErrorMessage(const ClaimPlan& claim, const RequestPlan& plan,
                                         DeviceRecordId rec) const {
  // Upstream's text names the class or claim and the selector, not the device.
  const SelectorError& e = t_.selectors.ErrorOf(plan.selectors, rec);
  if (e.from_class) {
    return "class " + t_.snapshot.device_classes[static_cast<size_t>(plan.class_index)].meta.name +
           ": selector #" + std::to_string(e.index) + ": CEL runtime error: " + e.message;
  }
  return "claim " + claim.display + ": selector #" + std::to_string(e.index) +
         ": CEL runtime error: " + e.message;
}

bool Search::Validate(AllocationOutcome* out) {
  const auto n = static_cast<int32_t>(view_->devices.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const ClaimPlan& claim = *claims_[c];
    int64_t min_devices = 0;
    for (size_t g = 0; g < claim.requests.size(); ++g) {
      const RequestGroup& group = claim.requests[g];
      int64_t min_group = std::numeric_limits<int64_t>::max();
      for (size_t a = 0; a < group.alternatives.size(); ++a) {
        ReqData& rd =
            Data(static_cast<int32_t>(c), static_cast<int32_t>(g), static_cast<int32_t>(a));
        const RequestPlan& plan = *rd.plan;
        if (!plan.all) {
          if (plan.count > std::numeric_limits<int32_t>::max()) {
            Error(out, "claim " + claim.display + ", request " + plan.name + ": exact count " +
                           std::to_string(plan.count) + " is too large");
            return false;
          }
          rd.num_devices = static_cast<int32_t>(std::max<int64_t>(plan.count, 0));
        } else {
          if (plan.constraint_mask != 0) all_with_constraints_ = true;
          rd.all_begin = static_cast<int32_t>(all_devices_.size());
          for (const NodePool& np : view_->pools) {
            const Pool& pool = t_.pools.pool(np.pool);
            if (np.incomplete || np.invalid()) {
              Error(out,
                    "claim " + claim.display + ", request " + plan.name +
                        ": asks for all devices, but resource pool " + pool.driver + "/" +
                        pool.name +
                        (np.incomplete ? " is currently being updated" : " is currently invalid"));
              return false;
            }
            for (int32_t pos = np.first; pos < np.last; ++pos) {
              const DeviceRecordId rec = view_->devices[static_cast<size_t>(pos)];
              const SelectorMatch m = t_.selectors.Match(plan.selectors, rec);
              if (m == SelectorMatch::kError) {
                Error(out, SelectorErrorMessage(claim, plan, rec));
                return false;
              }
              if (m != SelectorMatch::kYes) continue;
              // A device that cannot serve the capacity request even unused is not part of
              // "all" (upstream filters it); one whose remaining capacity is too small stays
              // and makes the request fail.
              const model::Device& device = t_.pools.device(rec);
              if (!plan.spec->capacity_requests.empty() || device.allow_multiple_allocations) {
                auto demand =
                    ComputeDemand(plan.spec->capacity_requests, t_.pools.slice_of(rec).driver,
                                  t_.allocated.Capacities(rec));
                if (!demand.has_value() || demand->outcome != CapacityDemand::Outcome::kFits) {
                  continue;
                }
                const auto& entries = t_.allocated.Capacities(rec);
                bool fits = true;
                for (size_t i = 0; i < entries.size(); ++i) {
                  if (demand->amounts[i] > entries[i].capacity->value) fits = false;
                }
                if (!fits) continue;
              }
              all_devices_.push_back(rec);
            }
          }
          rd.all_end = static_cast<int32_t>(all_devices_.size());
          rd.num_devices = rd.all_end - rd.all_begin;
        }
        min_group = std::min<int64_t>(min_group, rd.num_devices);
      }
      if (!group.alternatives.empty()) min_devices += min_group;
    }
    if (min_devices > kMaxResults) {
      Error(out, "claim " + claim.display + ": number of requested devices " +
                     std::to_string(min_devices) + " exceeds the claim limit of " +
                     std::to_string(kMaxResults));
      return false;
    }
  }
  // Static status of every node device for every ExactCount (sub)request, device by device
  // so that a selector matcher converts each device once.
  exact_.clear();
  for (size_t i = 0; i < req_data_.size(); ++i) {
    ReqData& rd = req_data_[i];
    if (rd.plan->all) continue;
    rd.status_begin = static_cast<int32_t>(status_.size());
    status_.resize(status_.size() + static_cast<size_t>(n) + 1, kUnusable);
    exact_.push_back(static_cast<int32_t>(i));
  }
  suffix_.assign(status_.size(), 0);
  for (int32_t pos = 0; pos < n; ++pos) {
    const DeviceRecordId rec = view_->devices[static_cast<size_t>(pos)];
    for (int32_t i : exact_) {
      const ReqData& rd = req_data_[static_cast<size_t>(i)];
      const Status s = StaticStatus(*rd.plan, rec);
      if (s == kCandidateWithError) has_error_candidates_ = true;
      status_[(static_cast<size_t>(rd.status_begin) + static_cast<size_t>(pos))] = s;
    }
  }
  for (int32_t i : exact_) {
    const ReqData& rd = req_data_[static_cast<size_t>(i)];
    for (int32_t pos = n - 1; pos >= 0; --pos) {
      const size_t k = (static_cast<size_t>(rd.status_begin) + static_cast<size_t>(pos));
      suffix_[k] = suffix_[k + 1] + (status_[k] != kUnusable ? 1 : 0);
    }
  }
  return true;
}

Search::Status Search::StaticStatus(const RequestPlan& plan, DeviceRecordId rec) {
  const DeviceRecord& record = t_.pools.record(rec);
  // Same order as the search: "in use" first, then the selectors (whose runtime error the
  // search reports when it gets there), then taints, counters and capacity.
  if (!plan.admin && t_.allocated.exclusive(record.key)) return kUnusable;
  const SelectorMatch m = t_.selectors.Match(plan.selectors, rec);
  if (m == SelectorMatch::kNo) return kUnusable;
  if (m == SelectorMatch::kError) return kCandidateWithError;
  if (record.has_taints && !Tolerated(plan, rec)) return kUnusable;
  if (record.consumes_counters && !(record.multi && t_.allocated.shared(record.key))) {
    const std::vector<core::Int128>& available = t_.allocated.Available(record.gen);
    std::vector<core::Int128> need(available.size(), 0);
    for (const auto& [counter, amount] : record.counters)
      need[static_cast<size_t>(counter)] += amount;
    for (size_t i = 0; i < available.size(); ++i) {
      if (available[i] < need[i]) return kUnusable;
    }
  }
  CapacityDemand demand;
  if (!CapacityFits(plan, rec, record.key, &demand)) return kUnusable;
  return kCandidate;
}

bool Search::Tolerated(const RequestPlan& plan, DeviceRecordId rec) const {
  for (const std::vector<model::DeviceTaint>* taints :
       {&t_.pools.device(rec).taints, &t_.pools.RuleTaints(rec)}) {
    for (const model::DeviceTaint& taint : *taints) {
      core::TaintEffect effect;
      switch (taint.effect) {
        case model::DeviceTaintEffect::kNoSchedule:
          effect = core::TaintEffect::kNoSchedule;
          break;
        case model::DeviceTaintEffect::kNoExecute:
          effect = core::TaintEffect::kNoExecute;
          break;
        default:
          continue;  // None (and unknown effects) never block allocation
      }
      if (!core::TolerationsTolerate(plan.spec->tolerations,
                                     core::Taint{taint.key, taint.value, effect})) {
        return false;
      }
    }
  }
  return true;
}

bool Search::CapacityFits(const RequestPlan& plan, DeviceRecordId rec, DeviceKeyId key,
                          CapacityDemand* demand) {
  const DeviceRecord& record = t_.pools.record(rec);
  if (!record.multi && plan.spec->capacity_requests.empty()) {
    // A dedicated device without capacity requests and without earlier shares always fits:
    // it consumes each capacity whole, and request policies need allowMultipleAllocations.
    if (!record.has_capacity || t_.allocated.consumed(key) == nullptr) return true;
  }
  const auto* prior = t_.allocated.consumed(key);
  const std::vector<CapacityEntry>& entries = t_.allocated.Capacities(rec);
  auto computed =
      ComputeDemand(plan.spec->capacity_requests, t_.pools.slice_of(rec).driver, entries);
  if (!computed.has_value()) return false;
  if (computed->outcome != CapacityDemand::Outcome::kFits) return false;
  for (size_t i = 0; i < entries.size(); ++i) {
    core::Int128 total = computed->amounts[i].milli();
    if (prior != nullptr) {
      auto it = prior->find(entries[i].qualified);
      if (it != prior->end()) total += it->second;
    }
    for (const CapacityUse& use : allocating_capacity_) {
      if (use.key == key && *use.qualified == entries[i].qualified) total += use.milli;
    }
    if (total > entries[i].capacity->value.milli()) return false;
  }
  *demand = std::move(*computed);
  return true;
}

bool Search::AllocatingForClaim(int32_t claim, DeviceKeyId key) const {
  for (const Result& r : results_[static_cast<size_t>(claim)]) {
    if (!r.shared && t_.pools.record(r.record).key == key) return true;
  }
  return false;
}

bool Search::Precheck(AllocationOutcome* out) {
  const auto n = static_cast<int32_t>(view_->devices.size());
  // 1. Every request needs enough devices that are selectable, free, tolerated and fit
  //    counters and capacity on their own (for firstAvailable: one of the subrequests).
  for (size_t c = 0; c < claims_.size(); ++c) {
    const ClaimPlan& claim = *claims_[c];
    for (size_t g = 0; g < claim.requests.size(); ++g) {
      const RequestGroup& group = claim.requests[g];
      bool feasible = group.alternatives.empty();
      int32_t need = 0;
      int32_t have = 0;
      for (size_t a = 0; a < group.alternatives.size() && !feasible; ++a) {
        const ReqData& rd =
            Data(static_cast<int32_t>(c), static_cast<int32_t>(g), static_cast<int32_t>(a));
        if (rd.plan->all) {
          feasible = true;
          break;
        }
        const int32_t candidates = suffix_[static_cast<size_t>(rd.status_begin)];
        if (candidates >= rd.num_devices) feasible = true;
        if (a == 0) {
          need = rd.num_devices;
          have = candidates;
        }
      }
      if (!feasible) {
        NoFit(out,
              "claim " + claim.display + ", request " + group.name + ": " + std::to_string(need) +
                  (need == 1 ? " device" : " devices") + " needed, " + std::to_string(have) +
                  " selectable and free",
              &claim, group.name);
        return false;
      }
    }
  }
  // 2. Requests without admin access hold their devices exclusively, so together they need
  //    at least as many distinct devices as they ask for (unless shareable devices help).
  {
    std::vector<uint8_t>& used = precheck_used_;
    used.assign(static_cast<size_t>(n), 0);
    int64_t need = 0;
    for (size_t c = 0; c < claims_.size(); ++c) {
      const ClaimPlan& claim = *claims_[c];
      for (size_t g = 0; g < claim.requests.size(); ++g) {
        const RequestGroup& group = claim.requests[g];
        bool skip = group.alternatives.empty();
        int32_t min_need = std::numeric_limits<int32_t>::max();
        for (const RequestPlan& alt : group.alternatives) {
          if (alt.admin || alt.all) skip = true;
        }
        if (skip) continue;
        for (size_t a = 0; a < group.alternatives.size(); ++a) {
          const ReqData& rd =
              Data(static_cast<int32_t>(c), static_cast<int32_t>(g), static_cast<int32_t>(a));
          min_need = std::min(min_need, rd.num_devices);
          for (int32_t pos = 0; pos < n; ++pos) {
            if (status_[(static_cast<size_t>(rd.status_begin) + static_cast<size_t>(pos))] !=
                kUnusable) {
              used[static_cast<size_t>(pos)] = 1;
            }
          }
        }
        need += min_need;
      }
    }
    int64_t have = 0;
    bool shareable = false;
    for (int32_t pos = 0; pos < n; ++pos) {
      if (used[static_cast<size_t>(pos)] == 0) continue;
      ++have;
      if (t_.pools.record(view_->devices[static_cast<size_t>(pos)]).multi) {
        shareable = true;
      }
    }
    if (!shareable && need > have) {
      NoFit(out,
            std::to_string(need) + " devices needed by all requests together, " +
                std::to_string(have) + " selectable and free",
            nullptr, "");
      return false;
    }
  }
  // 3. matchAttribute: the requests a constraint covers must find enough candidates that
  //    share one value of the attribute.
  for (size_t c = 0; c < claims_.size(); ++c) {
    const ClaimPlan& claim = *claims_[c];
    for (size_t i = 0; i < claim.constraints.size(); ++i) {
      const ConstraintPlan& con = claim.constraints[i];
      if (con.distinct || con.column < 0) continue;
      bool restricted = false;
      std::set<int32_t> allowed;
      for (size_t g = 0; g < claim.requests.size(); ++g) {
        const RequestGroup& group = claim.requests[g];
        if (group.has_subrequests || group.alternatives.size() != 1) continue;
        const ReqData& rd = Data(static_cast<int32_t>(c), static_cast<int32_t>(g), 0);
        if (rd.plan->all || rd.num_devices == 0 ||
            (rd.plan->constraint_mask & (uint64_t{1} << i)) == 0) {
          continue;
        }
        std::map<int32_t, int32_t> counts;
        for (int32_t pos = 0; pos < n; ++pos) {
          if (status_[(static_cast<size_t>(rd.status_begin) + static_cast<size_t>(pos))] ==
              kUnusable)
            continue;
          const int32_t v =
              t_.attributes.ValueOf(con.column, view_->devices[static_cast<size_t>(pos)]);
          if (v != AttributeIndex::kMissing) ++counts[v];
        }
        std::set<int32_t> ok;
        for (const auto& [v, k] : counts) {
          if (k >= rd.num_devices && (!restricted || allowed.count(v) != 0)) ok.insert(v);
        }
        allowed = std::move(ok);
        restricted = true;
        if (allowed.empty()) {
          NoFit(out,
                "claim " + claim.display + ", request " + group.name + ": no " +
                    std::to_string(rd.num_devices) +
                    " selectable and free devices share one value of " +
                    t_.attributes.ColumnName(con.column),
                &claim, group.name);
          return false;
        }
      }
    }
  }
  return true;
}

Search::Step Search::AllocateOne(int32_t claim, int32_t request, int32_t sub, int32_t device,
                                 bool in_sub, int32_t start) {
  ++steps_;
  if (claim >= static_cast<int32_t>(claims_.size())) return Step::kTrue;
  const ClaimPlan& plan = *claims_[static_cast<size_t>(claim)];
  if (request >= static_cast<int32_t>(plan.requests.size())) {
    const Step s = AllocateOne(claim + 1, 0, 0, 0, false, 0);
    // Another claim may fit with fewer devices for this one: not a reason to stop.
    return s == Step::kMaxSize ? Step::kFalse : s;
  }
  const RequestGroup& group = plan.requests[static_cast<size_t>(request)];
  if (group.has_subrequests && !in_sub) {
    bool all_exceeded = true;
    for (int32_t s = 0; s < static_cast<int32_t>(group.alternatives.size()); ++s) {
      const Step r = AllocateOne(claim, request, s, 0, true, 0);
      if (r == Step::kMaxSize) continue;
      all_exceeded = false;
      if (r == Step::kError) return r;
      if (r == Step::kTrue) {
        selected_sub_[static_cast<size_t>(claim)][static_cast<size_t>(request)] = s;
        return Step::kTrue;
      }
    }
    return all_exceeded ? Step::kMaxSize : Step::kFalse;
  }
  const ReqData& rd = Data(claim, request, sub);
  const RequestPlan& req = *rd.plan;
  if (req.all && rd.num_devices == 0) return Step::kFalse;  // "All" needs at least one device
  if (device >= rd.num_devices) return AllocateOne(claim, request + 1, 0, 0, false, 0);
  const int32_t after =
      static_cast<int32_t>(results_[static_cast<size_t>(claim)].size()) + rd.num_devices - device;
  if (after > kMaxResults) return Step::kMaxSize;

  if (req.all) {
    const DeviceRecordId rec =
        all_devices_[(static_cast<size_t>(rd.all_begin) + static_cast<size_t>(device))];
    const Step s = AllocateDevice(claim, rd, rec, true);
    if (s != Step::kTrue) return s == Step::kError ? s : Step::kFalse;
    const Step next = AllocateOne(claim, request, sub, device + 1, in_sub, 0);
    if (next != Step::kTrue) Rollback();
    return next;
  }

  const auto n = static_cast<int32_t>(view_->devices.size());
  const auto base = static_cast<size_t>(rd.status_begin);
  if (prune_) {
    // Not enough candidates left after `start` for the rest of this request: no device
    // choice below can complete it. Exact because candidates only shrink as the search
    // goes deeper (see docs/dra_allocator.md).
    const int32_t need = rd.num_devices - device;
    if (suffix_[base + static_cast<size_t>(start)] < need) return Step::kFalse;
    if (device == 0) {
      int32_t free = 0;
      for (int32_t pos = start; pos < n && free < need; ++pos) {
        if (status_[base + static_cast<size_t>(pos)] == kUnusable) continue;
        const DeviceKeyId key = t_.pools.record(view_->devices[static_cast<size_t>(pos)]).key;
        if (req.admin ? !AllocatingForClaim(claim, key) : !DeviceInUse(key)) ++free;
      }
      if (free < need) return Step::kFalse;
    }
  }
  for (int32_t pos = start; pos < n; ++pos) {
    const DeviceRecordId rec = view_->devices[static_cast<size_t>(pos)];
    const DeviceKeyId key = t_.pools.record(rec).key;
    // "In use" first: it is cheap, and a device in use is never evaluated (upstream order).
    if (req.admin && AllocatingForClaim(claim, key)) continue;
    if (!req.admin && DeviceInUse(key)) continue;
    const SelectorMatch m = t_.selectors.Match(req.selectors, rec);
    if (m == SelectorMatch::kError) {
      error_ = SelectorErrorMessage(plan, req, rec);
      return Step::kError;
    }
    if (m != SelectorMatch::kYes) continue;
    if (prune_ && status_[base + static_cast<size_t>(pos)] == kUnusable) continue;
    const Step s = AllocateDevice(claim, rd, rec, false);
    if (s == Step::kError) return s;
    if (s != Step::kTrue) continue;
    const Step next = AllocateOne(claim, request, sub, device + 1, in_sub, pos + 1);
    if (next == Step::kTrue) return next;
    Rollback();
    if (next != Step::kFalse) return next;
  }
  return Step::kFalse;
}

Search::Step Search::AllocateDevice(int32_t claim, const ReqData& rd, DeviceRecordId rec,
                                    bool must) {
  const RequestPlan& req = *rd.plan;
  const DeviceRecord& record = t_.pools.record(rec);
  const DeviceKeyId key = record.key;
  const bool multi = record.multi;
  if (!multi && req.admin && AllocatingForClaim(claim, key)) return Step::kFalse;
  if (!req.admin && DeviceInUse(key)) return Step::kFalse;

  Undo u;
  u.claim = claim;
  u.key = key;
  u.record = rec;
  u.amounts_size = static_cast<int32_t>(amounts_.size());

  // Shared counters: a shareable device already in use has consumed them before.
  if (record.consumes_counters && !(multi && CapacityInUse(key))) {
    const auto g = static_cast<size_t>(record.gen.v);
    if (gen_slot_[g] < 0) {
      gen_slot_[g] = static_cast<int32_t>(touched_gens_.size());
      touched_gens_.push_back(record.gen);
      if (consumed_.size() < touched_gens_.size()) consumed_.resize(touched_gens_.size());
      consumed_[static_cast<size_t>(gen_slot_[g])].assign(
          t_.pools.gen(record.gen).counter_names.size(), 0);
    }
    std::vector<core::Int128>& used = consumed_[static_cast<size_t>(gen_slot_[g])];
    for (const auto& [counter, amount] : record.counters)
      used[static_cast<size_t>(counter)] += amount;
    const std::vector<core::Int128>& available = t_.allocated.Available(record.gen);
    bool fits = true;
    for (size_t i = 0; i < available.size(); ++i) {
      if (available[i] < used[i]) fits = false;
    }
    if (!fits) {
      for (const auto& [counter, amount] : record.counters)
        used[static_cast<size_t>(counter)] -= amount;
      return Step::kFalse;
    }
    u.counters_gen = record.gen;
  }
  auto undo_counters = [&]() {
    if (u.counters_gen.v < 0) return;
    std::vector<core::Int128>& used =
        consumed_[static_cast<size_t>(gen_slot_[static_cast<size_t>(u.counters_gen.v)])];
    for (const auto& [counter, amount] : record.counters)
      used[static_cast<size_t>(counter)] -= amount;
  };

  if (record.has_taints && !Tolerated(req, rec)) {
    undo_counters();
    return Step::kFalse;
  }

  std::vector<ConstraintState>& states = constraints_[static_cast<size_t>(claim)];
  const ClaimPlan& plan = *claims_[static_cast<size_t>(claim)];
  uint64_t added = 0;
  auto undo_constraints = [&](uint64_t mask) {
    for (size_t i = 0; i < states.size(); ++i) {
      if ((mask & (uint64_t{1} << i)) == 0) continue;
      ConstraintState& s = states[i];
      if (plan.constraints[i].distinct) {
        s.values.pop_back();
      } else if (--s.count == 0) {
        s.value = -1;
      }
    }
  };
  for (size_t i = 0; i < states.size(); ++i) {
    if ((req.constraint_mask & (uint64_t{1} << i)) == 0) continue;
    const ConstraintPlan& con = plan.constraints[i];
    ConstraintState& s = states[i];
    const int32_t value = t_.attributes.ValueOf(con.column, rec);
    bool ok = value != AttributeIndex::kMissing;
    if (ok && con.distinct) {
      ok = std::find(s.values.begin(), s.values.end(), value) == s.values.end();
      if (ok) s.values.push_back(value);
    } else if (ok) {
      ok = s.count == 0 || s.value == value;
      if (ok && s.count++ == 0) s.value = value;
    }
    if (!ok) {
      undo_constraints(added);
      undo_counters();
      if (must) {
        error_ = "claim " + plan.display + ", request " + req.name + ": cannot add device " +
                 t_.pools.KeyName(key) + " because a claim constraint would not be satisfied";
        return Step::kError;
      }
      return Step::kFalse;
    }
    added |= uint64_t{1} << i;
  }
  u.constraints = added;

  CapacityDemand demand;
  if (!CapacityFits(req, rec, key, &demand)) {
    undo_constraints(added);
    undo_counters();
    return Step::kFalse;
  }

  Result res;
  res.record = rec;
  res.plan = &req;
  res.shared = multi;
  res.amounts_begin = static_cast<int32_t>(amounts_.size());
  if (marks_[static_cast<size_t>(key.v)] == 0 && shares_[static_cast<size_t>(key.v)] == 0) {
    touched_keys_.push_back(key);
  }
  if (!multi) {
    ++marks_[static_cast<size_t>(key.v)];
    u.exclusive_mark = true;
  } else {
    ++shares_[static_cast<size_t>(key.v)];
    u.share_mark = true;
    const std::vector<CapacityEntry>& entries = t_.allocated.Capacities(rec);
    for (size_t i = 0; i < entries.size() && i < demand.amounts.size(); ++i) {
      allocating_capacity_.push_back(
          CapacityUse{key, &entries[i].qualified, demand.amounts[i].milli()});
      amounts_.push_back(demand.amounts[i]);
    }
    u.capacity_entries = static_cast<int32_t>(amounts_.size()) - res.amounts_begin;
    res.amounts_count = u.capacity_entries;
  }
  results_[static_cast<size_t>(claim)].push_back(res);
  undo_.push_back(u);
  return Step::kTrue;
}

void Search::Rollback() {
  BERTH_CHECK(!undo_.empty(), "rollback without a tentative step");
  const Undo u = undo_.back();
  undo_.pop_back();
  results_[static_cast<size_t>(u.claim)].pop_back();
  allocating_capacity_.resize(allocating_capacity_.size() -
                              static_cast<size_t>(u.capacity_entries));
  amounts_.resize(static_cast<size_t>(u.amounts_size));
  if (u.share_mark) --shares_[static_cast<size_t>(u.key.v)];
  if (u.exclusive_mark) --marks_[static_cast<size_t>(u.key.v)];
  std::vector<ConstraintState>& states = constraints_[static_cast<size_t>(u.claim)];
  const ClaimPlan& plan = *claims_[static_cast<size_t>(u.claim)];
  for (size_t i = 0; i < states.size(); ++i) {
    if ((u.constraints & (uint64_t{1} << i)) == 0) continue;
    ConstraintState& s = states[i];
    if (plan.constraints[i].distinct) {
      s.values.pop_back();
    } else if (--s.count == 0) {
      s.value = -1;
    }
  }
  if (u.counters_gen.v >= 0) {
    std::vector<core::Int128>& used =
        consumed_[static_cast<size_t>(gen_slot_[static_cast<size_t>(u.counters_gen.v)])];
    for (const auto& [counter, amount] : t_.pools.record(u.record).counters) {
      used[static_cast<size_t>(counter)] -= amount;
    }
  }
}

void Search::BuildResults(AllocationOutcome* out) {
  out->allocations.resize(claims_.size());
  for (size_t c = 0; c < claims_.size(); ++c) {
    const ClaimPlan& plan = *claims_[c];
    const model::ResourceClaim& claim =
        t_.snapshot.resource_claims[static_cast<size_t>(plan.claim)];
    model::AllocationResult& ar = out->allocations[c];
    ar = model::AllocationResult{};
    const std::vector<Result>& results = results_[c];
    const std::string& share_base = claim.meta.uid.empty() ? plan.display : claim.meta.uid;
    for (size_t i = 0; i < results.size(); ++i) {
      const Result& r = results[i];
      const model::ResourceSlice& slice = t_.pools.slice_of(r.record);
      const model::Device& device = t_.pools.device(r.record);
      model::DeviceRequestAllocationResult dr;
      dr.request = r.plan->full_name;
      dr.driver = slice.driver;
      dr.pool = slice.pool_name;
      dr.device = device.name;
      dr.admin_access = r.plan->admin;
      dr.tolerations = r.plan->spec->tolerations;
      if (r.shared) {
        dr.share_id = MakeShareId(share_base, t_.pools.KeyName(t_.pools.record(r.record).key),
                                  static_cast<int32_t>(i));
        const std::vector<CapacityEntry>& entries = t_.allocated.Capacities(r.record);
        for (int32_t k = 0; k < r.amounts_count; ++k) {
          dr.consumed_capacity[entries[static_cast<size_t>(k)].published] =
              amounts_[(static_cast<size_t>(r.amounts_begin) + static_cast<size_t>(k))];
        }
      }
      ar.results.push_back(std::move(dr));
    }

    // Config: each used class's config once, naming the requests that use the class; then
    // the claim's configs that apply to an allocated (sub)request.
    auto selected = [&](size_t g) -> const RequestPlan& {
      const RequestGroup& group = plan.requests[g];
      return group.alternatives[static_cast<size_t>(selected_sub_[c][g])];
    };
    std::map<int32_t, std::pair<size_t, size_t>> class_ranges;
    for (size_t g = 0; g < plan.requests.size(); ++g) {
      const RequestPlan& req = selected(g);
      if (req.class_index < 0) continue;
      auto it = class_ranges.find(req.class_index);
      if (it != class_ranges.end()) {
        for (size_t k = it->second.first; k < it->second.second; ++k) {
          ar.config[k].requests.push_back(req.full_name);
        }
        continue;
      }
      const size_t begin = ar.config.size();
      for (const model::OpaqueDeviceConfig& cfg :
           t_.snapshot.device_classes[static_cast<size_t>(req.class_index)].config) {
        ar.config.push_back(model::DeviceAllocationConfiguration{
            model::AllocationConfigSource::kFromClass, {req.full_name}, cfg});
      }
      class_ranges[req.class_index] = {begin, ar.config.size()};
    }
    auto names_group = [&](const std::vector<std::string>& names, size_t g) {
      const RequestGroup& group = plan.requests[g];
      if (std::find(names.begin(), names.end(), group.name) != names.end()) return true;
      return group.has_subrequests &&
             std::find(names.begin(), names.end(), selected(g).full_name) != names.end();
    };
    for (const model::DeviceClaimConfig& cfg : claim.spec.config) {
      bool applies = cfg.requests.empty();
      for (size_t g = 0; g < plan.requests.size() && !applies; ++g) {
        applies = names_group(cfg.requests, g);
      }
      if (applies) {
        ar.config.push_back(model::DeviceAllocationConfiguration{
            model::AllocationConfigSource::kFromClaim, cfg.requests, cfg.opaque});
      }
    }
    // A config that covers every request says so with an empty list ("all").
    for (model::DeviceAllocationConfiguration& cfg : ar.config) {
      if (cfg.requests.empty()) continue;
      bool all = true;
      for (size_t g = 0; g < plan.requests.size() && all; ++g) all = names_group(cfg.requests, g);
      if (all) cfg.requests.clear();
    }

    // Node selector: one node when any device is node-local, else the merged single terms
    // of the network-attached devices' selectors; none when all devices are everywhere.
    core::NodeSelectorTerm term;
    bool local = false;
    for (const Result& r : results) {
      const model::ResourceSlice& slice = t_.pools.slice_of(r.record);
      const model::Device& device = t_.pools.device(r.record);
      if (t_.pools.record(r.record).node_local) {
        local = true;
        break;
      }
      const std::optional<core::NodeSelector>& sel =
          slice.per_device_node_selection ? device.node_selector : slice.node_selector;
      if (!sel.has_value() || sel->terms.empty()) continue;
      if (sel->terms.size() > 1) {
        Error(out, "create NodeSelector for claim " + claim.meta.name +
                       ": unsupported ResourceSlice.NodeSelector with " +
                       std::to_string(sel->terms.size()) + " terms");
        out->allocations.clear();
        return;
      }
      AddRequirements(sel->terms[0].match_fields, &term.match_fields);
      AddRequirements(sel->terms[0].match_expressions, &term.match_expressions);
    }
    if (local) {
      core::NodeSelectorTerm one;
      one.match_fields.push_back(
          core::SelectorRequirement{"metadata.name", core::SelectorOp::kIn, {node_->meta.name}});
      ar.node_selector = core::NodeSelector{{std::move(one)}};
    } else if (!term.match_fields.empty() || !term.match_expressions.empty()) {
      ar.node_selector = core::NodeSelector{{std::move(term)}};
    }
  }
}

void Search::NoFit(AllocationOutcome* out, std::string detail, const ClaimPlan* claim,
                   const std::string& request) {
  AllocationFailure f;
  if (view_->has_invalid) {
    // Upstream surfaces invalid pools only when nothing else fits.
    f.reason = "invalid resource pools were encountered";
    f.is_error = true;
  } else {
    f.reason = "cannot allocate all claims";
  }
  f.detail = std::move(detail);
  if (claim != nullptr) f.claim = ClaimIndex{claim->claim};
  f.request = request;
  out->failure = std::move(f);
}

void Search::Error(AllocationOutcome* out, std::string message) {
  AllocationFailure f;
  f.reason = message;
  f.detail = std::move(message);
  f.is_error = true;
  out->failure = std::move(f);
}

void Search::Run(const std::vector<const ClaimPlan*>& claims, model::NodeIndex node, bool prune,
                 AllocationOutcome* out, AllocatorStats* stats) {
  Reset(claims, node);
  if (!Validate(out)) return;
  // The pre-check and the pruning never change the answer, but they could skip the one
  // place where upstream meets a selector's runtime error or an "All" request's constraint
  // error; with either possible here, the search runs unpruned.
  prune_ = prune && !has_error_candidates_ && !all_with_constraints_;
  if (prune_ && !Precheck(out)) {
    ++stats->precheck_rejections;
    return;
  }
  steps_ = 0;
  const Step s = AllocateOne(0, 0, 0, 0, false, 0);
  stats->search_steps += steps_;
  if (s == Step::kTrue) {
    BuildResults(out);
  } else if (s == Step::kError) {
    Error(out, error_);
  } else {
    const ClaimPlan* first = claims_.empty() ? nullptr : claims_.front();
    NoFit(out,
          claims_.size() == 1
              ? "claim " + first->display +
                    ": no set of devices on the node satisfies all requests and constraints"
              : "no set of devices on the node satisfies all requests and constraints of the "
                "claims together",
          claims_.size() == 1 ? first : nullptr, "");
  }
  while (!undo_.empty()) Rollback();
}

}  // namespace berth::devices::internal
