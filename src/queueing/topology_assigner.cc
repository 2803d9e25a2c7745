#include "queueing/topology_assigner.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace berth::queueing {

namespace {

// Go's %q for the label-like strings Kueue quotes in its messages.
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

// corev1.Taint.ToString, the key Kueue counts excluded nodes under: "key=value:Effect".
std::string GoTaintString(const core::Taint& t) {
  std::string out = t.key;
  if (!t.value.empty()) {
    out += '=';
    out += t.value;
  }
  out += ':';
  out += core::TaintEffectName(t.effect);
  return out;
}

// Why leaves took no pods, for the failure message (Kueue's tasExclusionStats).
struct ExclusionStats {
  int64_t total_nodes = 0;
  int64_t node_selector = 0;
  int64_t affinity = 0;
  std::map<std::string, int64_t> taints;
  std::map<std::string, int64_t> resources;

  bool Any() const {
    return node_selector > 0 || affinity > 0 || !taints.empty() || !resources.empty();
  }
  // Every reason formatted, then sorted as strings, as upstream does.
  std::string Format() const {
    std::vector<std::string> reasons;
    if (node_selector > 0) reasons.push_back("nodeSelector: " + std::to_string(node_selector));
    if (affinity > 0) reasons.push_back("affinity: " + std::to_string(affinity));
    for (const auto& [taint, n] : taints) {
      reasons.push_back("taint " + Quote(taint) + ": " + std::to_string(n));
    }
    for (const auto& [resource, n] : resources) {
      reasons.push_back("resource " + Quote(resource) + ": " + std::to_string(n));
    }
    std::sort(reasons.begin(), reasons.end());
    std::string out;
    for (const std::string& r : reasons) {
      if (!out.empty()) out += ", ";
      out += r;
    }
    return out;
  }
};

// Per-domain scratch of one placement. Phase 1 writes capacities (pods and slices that fit);
// phase 2 overwrites the chosen domains' pod_count with the pods they receive.
struct DomainState {
  int64_t pod_count = 0;
  int64_t slice_count = 0;
};

struct ResourceRequest {
  model::ResourceId id;
  int64_t amount = 0;
  std::string name;
};

core::Error Exhausted(std::string message) {
  return core::Error(core::ErrorCode::kResourceExhausted, std::move(message));
}

// One run of Kueue's findTopologyAssignment for a pod set without a leader.
class Placement {
 public:
  Placement(const TopologySnapshot& s, const TopologyPodSetRequest& r) : s_(s), r_(r) {}

  core::Result<model::TopologyAssignment> Run() {
    BERTH_RETURN_IF_ERROR(ResolveParameters());
    model::TopologyAssignment out;
    out.levels = AssignmentLevels();
    if (r_.count <= 0) return out;
    FillInCounts();
    BERTH_ASSIGN_OR_RETURN(auto fit, FindLevelWithFitDomains(requested_level_));
    auto [fit_level, chosen] = std::move(fit);
    // Phase 2b: walk down to the leaves, keeping the number of domains used minimal at every
    // level. Above the slice level the chosen domains' children are pooled (slices may mix
    // parents); from the slice level on each parent splits its own pods among its children.
    const int32_t lowest = static_cast<int32_t>(s_.levels().size()) - 1;
    BERTH_ASSIGN_OR_RETURN(chosen, UpdateCountsToMinimum(chosen, r_.count, slice_size_, true));
    int32_t level = fit_level;
    for (; level < std::min(lowest, slice_level_); ++level) {
      std::vector<TopologyDomainId> lower;
      for (TopologyDomainId d : chosen) {
        const auto& children = s_.domain(d).children;
        lower.insert(lower.end(), children.begin(), children.end());
      }
      BERTH_ASSIGN_OR_RETURN(chosen,
                             UpdateCountsToMinimum(Sorted(lower), r_.count, slice_size_, true));
    }
    for (; level < lowest; ++level) {
      std::vector<TopologyDomainId> next;
      for (TopologyDomainId d : chosen) {
        BERTH_ASSIGN_OR_RETURN(auto part, UpdateCountsToMinimum(Sorted(s_.domain(d).children),
                                                                State(d).pod_count, 1, false));
        next.insert(next.end(), part.begin(), part.end());
      }
      chosen = std::move(next);
    }
    std::sort(chosen.begin(), chosen.end(), [this](TopologyDomainId a, TopologyDomainId b) {
      return s_.domain(a).rank < s_.domain(b).rank;  // all leaves: rank order is value order
    });
    const size_t first_level = s_.lowest_level_is_hostname() ? s_.levels().size() - 1 : 0;
    for (TopologyDomainId d : chosen) {
      if (State(d).pod_count == 0) continue;  // LeastFreeCapacity may list empty domains
      const auto& values = s_.domain(d).values;
      out.domains.push_back(model::TopologyDomainAssignment{
          std::vector<std::string>(values.begin() + static_cast<ptrdiff_t>(first_level),
                                   values.end()),
          static_cast<int32_t>(State(d).pod_count)});
    }
    return out;
  }

 private:
  DomainState& State(TopologyDomainId d) { return state_[static_cast<size_t>(d.v)]; }
  bool BestFit() const { return !unconstrained_; }  // LeastFreeCapacity otherwise (TASProfileMixed)

  std::vector<std::string> AssignmentLevels() const {
    if (s_.lowest_level_is_hostname()) return {s_.levels().back()};
    return s_.levels();
  }

  // Which level to search, which level slices live at, and how the request is read.
  core::Status ResolveParameters() {
    const model::TopologyRequest& tr = r_.request;
    const bool slices = !tr.slice_required_topology.empty();
    if (slices) {
      slice_size_ = tr.slice_size.value_or(0);
      if (slice_size_ <= 0) {
        return core::InvalidArgument("slice topology requested, but slice size not provided");
      }
    }
    const bool slice_only = slices && tr.required.empty() && tr.preferred.empty();
    required_ = !tr.required.empty();
    unconstrained_ = tr.unconstrained || tr.empty() || slice_only;
    if (s_.levels().empty()) return core::FailedPrecondition("topology has no levels");
    std::string key;
    if (!tr.required.empty()) {
      key = tr.required;
    } else if (!tr.preferred.empty()) {
      key = tr.preferred;
    } else if (slice_only) {
      key = s_.levels().front();
    } else {
      key = s_.levels().back();  // unconstrained, or implied by a TAS flavor
    }
    std::optional<int32_t> level = s_.LevelIndex(key);
    if (!level.has_value()) return core::InvalidArgument("no requested topology level: " + key);
    requested_level_ = *level;
    const std::string slice_key = slices ? tr.slice_required_topology : s_.levels().back();
    std::optional<int32_t> slice_level = s_.LevelIndex(slice_key);
    if (!slice_level.has_value()) {
      return core::InvalidArgument("no requested topology level for slices: " + slice_key);
    }
    slice_level_ = *slice_level;
    if (requested_level_ > slice_level_) {
      return core::InvalidArgument("podset slice topology " + slice_key +
                                   " is above the podset topology " + key);
    }
    // Kueue divides here and would place fewer pods than asked; berth refuses instead.
    if (r_.count % slice_size_ != 0) {
      return core::InvalidArgument("pod count " + std::to_string(r_.count) +
                                   " is not a multiple of slice size " +
                                   std::to_string(slice_size_));
    }
    return core::OkStatus();
  }

  // The pod's requests plus one pod, by resource name so ties name the same resource Kueue
  // names (alphabetical).
  std::vector<ResourceRequest> Requests() const {
    std::vector<ResourceRequest> out;
    bool pods_seen = false;
    const auto& amounts = r_.per_pod.amounts();
    for (size_t i = 0; i < amounts.size(); ++i) {
      model::ResourceId id{static_cast<uint16_t>(i)};
      int64_t amount = amounts[i];
      if (id == model::kPods) {
        amount += 1;
        pods_seen = true;
      }
      if (amount <= 0) continue;
      std::string name =
          i < s_.resource_names().size() ? s_.resource_names()[i] : "resource-" + std::to_string(i);
      out.push_back(ResourceRequest{id, amount, std::move(name)});
    }
    if (!pods_seen) out.push_back(ResourceRequest{model::kPods, 1, "pods"});
    std::sort(out.begin(), out.end(),
              [](const ResourceRequest& a, const ResourceRequest& b) { return a.name < b.name; });
    return out;
  }

  // The TAS simulator's node filter: untolerated NoSchedule/NoExecute taints, then the
  // nodeSelector, then required node affinity; the first failing check is recorded.
  bool Feasible(const TopologyLeaf& leaf, const std::vector<core::Toleration>& tolerations) {
    if (const core::Taint* t = core::FindUntoleratedHardTaint(leaf.taints, tolerations)) {
      ++stats_.taints[GoTaintString(*t)];
      return false;
    }
    const model::Pod* pod = r_.pod_template;
    if (pod == nullptr) return true;
    for (const auto& [key, value] : pod->node_selector) {
      auto it = leaf.labels.find(key);
      if (it == leaf.labels.end() || it->second != value) {
        ++stats_.node_selector;
        return false;
      }
    }
    if (pod->node_affinity.required.has_value() &&
        !pod->node_affinity.required->Matches(leaf.labels, leaf.node_name)) {
      ++stats_.affinity;
      return false;
    }
    return true;
  }

  // Phase 1: pods (and slices) that fit in every domain, bottom-up.
  void FillInCounts() {
    state_.assign(s_.num_domains(), DomainState{});
    const std::vector<ResourceRequest> requests = Requests();
    std::vector<core::Toleration> tolerations;
    if (r_.pod_template != nullptr) tolerations = r_.pod_template->tolerations;
    tolerations.insert(tolerations.end(), s_.flavor_tolerations().begin(),
                       s_.flavor_tolerations().end());
    tolerations.insert(tolerations.end(), r_.flavor_tolerations.begin(),
                       r_.flavor_tolerations.end());
    const auto& leaves = s_.leaves();
    for (size_t l = 0; l < leaves.size(); ++l) {
      ++stats_.total_nodes;
      if (s_.lowest_level_is_hostname() && !Feasible(leaves[l], tolerations)) continue;
      int64_t count = std::numeric_limits<int32_t>::max();
      const std::string* limiting = nullptr;
      for (const ResourceRequest& req : requests) {
        int64_t remaining = s_.Remaining(static_cast<int32_t>(l), req.id);
        int64_t fits = std::max<int64_t>(0, remaining / req.amount);
        fits = std::min<int64_t>(fits, std::numeric_limits<int32_t>::max());
        if (limiting == nullptr || fits < count) {
          count = fits;
          limiting = &req.name;
        }
      }
      State(leaves[l].domain).pod_count = count;
      if (count == 0 && limiting != nullptr) ++stats_.resources[*limiting];
    }
    for (int32_t level = static_cast<int32_t>(s_.levels().size()) - 1; level >= 0; --level) {
      for (TopologyDomainId d : s_.domains_at(level)) {
        DomainState& st = State(d);
        if (level == slice_level_) st.slice_count = st.pod_count / slice_size_;
        TopologyDomainId parent = s_.domain(d).parent;
        if (parent.v < 0) continue;
        State(parent).pod_count += st.pod_count;
        State(parent).slice_count += st.slice_count;
      }
    }
  }

  // BestFit: most slices first; LeastFreeCapacity: fewest first. Then fewest pods (the
  // tightest domain for those slices), then level values: a total order, so ties are stable.
  // Every list sorted here holds domains of one level, whose ranks order them by values.
  std::vector<TopologyDomainId> Sorted(std::vector<TopologyDomainId> domains) {
    // Sort flat keys rather than ids: the comparator then reads contiguous memory, which
    // matters when an unconstrained pod set sorts every leaf of a 10,000-node flavor.
    struct Key {
      int64_t slices;  // negated for BestFit, so ascending order serves both algorithms
      int64_t pods;
      int32_t rank;
      TopologyDomainId id;
    };
    const bool least_free = !BestFit();
    std::vector<Key> keys;
    keys.reserve(domains.size());
    for (TopologyDomainId d : domains) {
      const DomainState& st = State(d);
      keys.push_back(
          Key{least_free ? st.slice_count : -st.slice_count, st.pod_count, s_.domain(d).rank, d});
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
      if (a.slices != b.slices) return a.slices < b.slices;
      if (a.pods != b.pods) return a.pods < b.pods;
      return a.rank < b.rank;
    });
    for (size_t i = 0; i < keys.size(); ++i) domains[i] = keys[i].id;
    return domains;
  }

  // The first domain with the smallest count still >= needed; the first domain when none is.
  size_t BestFitIndex(const std::vector<TopologyDomainId>& domains, size_t from, int64_t needed,
                      bool slices) {
    size_t best = from;
    int64_t best_count = std::numeric_limits<int64_t>::max();
    bool found = false;
    for (size_t i = from; i < domains.size(); ++i) {
      const DomainState& st = State(domains[i]);
      int64_t c = slices ? st.slice_count : st.pod_count;
      if (c >= needed && c < best_count) {
        best = i;
        best_count = c;
        found = true;
      }
    }
    return found ? best : from;
  }

  std::string NotFitMessage(int64_t fit, int64_t total) const {
    const char* unit = slice_size_ == 1 ? "pod" : "slice";
    std::string msg = "topology " + Quote(s_.topology_name());
    if (fit == 0) {
      msg += " doesn't allow to fit any of " + std::to_string(total) + " " + unit + "(s)";
    } else {
      msg += " allows to fit only " + std::to_string(fit) + " out of " + std::to_string(total) +
             " " + unit + "(s)";
    }
    if (stats_.Any()) {
      msg +=
          ". Total nodes: " + std::to_string(stats_.total_nodes) + "; excluded: " + stats_.Format();
    }
    return msg;
  }

  // Phase 2a: the level and the domains there that take every slice.
  core::Result<std::pair<int32_t, std::vector<TopologyDomainId>>> FindLevelWithFitDomains(
      int32_t level) {
    const auto& at_level = s_.domains_at(level);
    if (at_level.empty()) {
      return core::FailedPrecondition("no topology domains at level: " +
                                      s_.levels()[static_cast<size_t>(level)]);
    }
    std::vector<TopologyDomainId> sorted = Sorted(at_level);
    const int64_t slices = r_.count / slice_size_;
    TopologyDomainId top = sorted.front();
    if (BestFit() && State(top).slice_count >= slices) {
      top = sorted[BestFitIndex(sorted, 0, slices, true)];
    }
    if (!BestFit()) {
      for (TopologyDomainId d : sorted) {
        if (State(d).slice_count >= slices) return std::make_pair(level, std::vector{d});
      }
      if (required_) {
        // Upstream reports the pod count of the largest domain here.
        return Exhausted(NotFitMessage(State(sorted.back()).pod_count, slices));
      }
    }
    if (State(top).slice_count >= slices) return std::make_pair(level, std::vector{top});
    if (required_) return Exhausted(NotFitMessage(State(top).slice_count, slices));
    if (level > 0 && !unconstrained_) return FindLevelWithFitDomains(level - 1);
    // Top level, or unconstrained: as few domains as the greedy order gives.
    std::vector<TopologyDomainId> result;
    int64_t remaining = slices;
    for (size_t i = 0; remaining > 0 && i < sorted.size(); ++i) {
      TopologyDomainId d = sorted[i];
      if (BestFit() && State(d).slice_count >= remaining) {
        d = sorted[BestFitIndex(sorted, i, remaining, true)];
      }
      result.push_back(d);
      remaining -= State(d).slice_count;
    }
    if (remaining > 0) return Exhausted(NotFitMessage(slices - remaining, slices));
    return std::make_pair(level, std::move(result));
  }

  // Hands `count` pods (whole slices of `slice_size` when `slices`) to the sorted domains in
  // order, best-fitting the last one, and records each domain's share in its pod_count.
  core::Result<std::vector<TopologyDomainId>> UpdateCountsToMinimum(
      const std::vector<TopologyDomainId>& domains, int64_t count, int64_t slice_size,
      bool slices) {
    std::vector<TopologyDomainId> result;
    int64_t remaining = slices ? count / slice_size : count;
    for (size_t i = 0; i < domains.size(); ++i) {
      TopologyDomainId d = domains[i];
      int64_t have = slices ? State(d).slice_count : State(d).pod_count;
      if (BestFit() && have >= remaining) {
        d = domains[BestFitIndex(domains, i, remaining, slices)];
        have = slices ? State(d).slice_count : State(d).pod_count;
      }
      DomainState& st = State(d);
      result.push_back(d);
      if (have >= remaining) {
        if (slices) st.slice_count = remaining;
        st.pod_count = slices ? remaining * slice_size : remaining;
        return result;
      }
      if (slices) st.pod_count = st.slice_count * slice_size;
      remaining -= have;
    }
    // Phase 1 counted enough capacity under these domains, so this cannot happen.
    return core::Internal("topology placement: " + std::to_string(remaining) +
                          " pods left after every domain of topology " + s_.topology_name());
  }

  const TopologySnapshot& s_;
  const TopologyPodSetRequest& r_;
  std::vector<DomainState> state_;
  ExclusionStats stats_;
  int32_t slice_size_ = 1;
  int32_t requested_level_ = 0;
  int32_t slice_level_ = 0;
  bool required_ = false;
  bool unconstrained_ = false;
};

}  // namespace

core::Result<model::TopologyAssignment> FindTopologyAssignment(
    const TopologySnapshot& snapshot, const TopologyPodSetRequest& request) {
  return Placement(snapshot, request).Run();
}

core::Result<std::vector<model::TopologyAssignment>> FindTopologyAssignments(
    TopologySnapshot& snapshot, const std::vector<TopologyPodSetRequest>& pod_sets) {
  std::vector<model::TopologyAssignment> out;
  out.reserve(pod_sets.size());
  std::optional<core::Error> failure;
  for (const TopologyPodSetRequest& ps : pod_sets) {
    core::Result<model::TopologyAssignment> a = FindTopologyAssignment(snapshot, ps);
    if (!a.has_value()) {
      failure = std::move(a).error();
      break;
    }
    snapshot.AddUsage(a.value(), ps.per_pod);
    out.push_back(std::move(a).value());
  }
  for (size_t i = 0; i < out.size(); ++i) snapshot.RemoveUsage(out[i], pod_sets[i].per_pod);
  if (failure.has_value()) return std::move(*failure);
  return out;
}

bool TopologySupportsRequest(const TopologySnapshot& snapshot,
                             const model::TopologyRequest& request) {
  if (snapshot.levels().empty()) return false;
  for (const std::string* level :
       {&request.required, &request.preferred, &request.slice_required_topology}) {
    if (!level->empty() && !snapshot.LevelIndex(*level).has_value()) return false;
  }
  return true;
}

}  // namespace berth::queueing
