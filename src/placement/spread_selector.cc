// Clusters that share a value for every constraint key (a topology tuple) are
// interchangeable for spreading: their skew and spread score are the same, so among them
// only the best total (then name) can be picked next. The step therefore looks at one
// head per tuple, not at every cluster, which keeps a 10,000-cluster fleet with a few
// regions cheap.
//
// The spread score follows the enhancement's design: per constraint a level score in
// [0, 63] (63 for the least-used topology, 0 for the most used, 63 for all when they are
// even), levels combined as level0 << 6(K-1) + level1 << 6(K-2) + ... so an earlier
// constraint always dominates a later one, then min-max normalised over the heads still
// pickable to [-100, 100]. A cluster lacking a ScheduleAnyway key scores the middle level
// (31): neither favoured nor held back.
#include "placement/spread_selector.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <string_view>

namespace berth::placement {

namespace {

constexpr int64_t kLevelMax = 63;
constexpr int64_t kLevelNeutral = 31;
constexpr int kLevelBits = 6;

const std::string* TopologyValue(const model::SpreadConstraint& c,
                                 const model::ManagedCluster& cluster) {
  if (c.topology_key_type == model::TopologyKeyType::kLabel) {
    auto it = cluster.meta.labels.find(c.topology_key);
    return it == cluster.meta.labels.end() ? nullptr : &it->second;
  }
  const std::string* found = nullptr;  // the last claim listed wins, as in a claim map
  for (const model::NamedValue& nv : cluster.cluster_claims) {
    if (nv.name == c.topology_key) found = &nv.value;
  }
  return found;
}

std::string KeyText(const model::SpreadConstraint& c) {
  return std::string(c.topology_key_type == model::TopologyKeyType::kLabel ? "label " : "claim ") +
         c.topology_key;
}

model::Rejection Skip(std::string reason, std::string message) {
  return model::Rejection{"placement", kSpreadPolicyPlugin, std::move(reason), std::move(message)};
}

// One constraint's topologies and how many clusters each got so far.
struct Topologies {
  std::vector<std::string_view> values;
  std::vector<int64_t> counts;
  // Refreshed before each step.
  int64_t min = 0;
  int64_t min_multiplicity = 0;
  int64_t second_min = std::numeric_limits<int64_t>::max();
  int64_t max = 0;

  void Refresh() {
    min = std::numeric_limits<int64_t>::max();
    max = 0;
    min_multiplicity = 0;
    second_min = std::numeric_limits<int64_t>::max();
    for (int64_t n : counts) {
      max = std::max(max, n);
      if (n < min) {
        second_min = min;
        min = n;
        min_multiplicity = 1;
      } else if (n == min) {
        ++min_multiplicity;
      } else {
        second_min = std::min(second_min, n);
      }
    }
    if (min_multiplicity > 1) second_min = min;
  }

  // The skew of topology t if one more cluster there were picked.
  int64_t SkewAfterPick(size_t t) const {
    int64_t picked = counts[t] + 1;
    int64_t others = counts[t] == min && min_multiplicity == 1 ? second_min : min;
    return picked - std::min(picked, others);
  }

  // 63 for the least used topology down to 0 for the most used; 63 each when even.
  int64_t Level(size_t t) const {
    if (max == min) return kLevelMax;
    return kLevelMax * (max - counts[t]) / (max - min);
  }
};

struct Group {
  std::vector<int32_t> tuple;   // topology index per constraint, -1 when the key is missing
  std::vector<size_t> members;  // candidate indexes, best first
  size_t next = 0;              // members before it are selected
  // The step's view of the head: blocked (why), or its spread score.
  std::optional<model::Rejection> blocked;
  int64_t spread_level = 0;
  int64_t spread = 0;
  // The lowest winner the head lost to although it ranked above it, and why.
  std::optional<size_t> passed_by;
  std::optional<model::Rejection> passed_reason;
};

}  // namespace

SpreadResult SelectWithSpread(const std::vector<model::SpreadConstraint>& constraints,
                              const std::vector<const model::ManagedCluster*>& clusters,
                              const std::vector<int64_t>& totals, size_t want) {
  SpreadResult out;
  out.skipped.resize(clusters.size());
  const size_t k_count = constraints.size();

  // Topologies per constraint, and each cluster's tuple.
  std::vector<Topologies> topologies(k_count);
  std::vector<std::map<std::string_view, int32_t>> ids(k_count);
  std::map<std::vector<int32_t>, size_t> group_of;
  std::vector<Group> groups;
  std::vector<int32_t> tuple(k_count);
  for (size_t i = 0; i < clusters.size(); ++i) {
    std::optional<size_t> missing_hard;
    for (size_t k = 0; k < k_count; ++k) {
      const std::string* v = TopologyValue(constraints[k], *clusters[i]);
      if (v == nullptr) {
        tuple[k] = -1;
        bool hard = constraints[k].when_unsatisfiable == model::WhenUnsatisfiable::kDoNotSchedule;
        if (hard && !missing_hard) missing_hard = k;
        continue;
      }
      auto [it, added] = ids[k].try_emplace(*v, static_cast<int32_t>(topologies[k].values.size()));
      if (added) {
        topologies[k].values.push_back(*v);
        topologies[k].counts.push_back(0);
      }
      tuple[k] = it->second;
    }
    if (missing_hard) {
      out.skipped[i] = Skip("TopologyKeyMissing",
                            "spreadConstraints[" + std::to_string(*missing_hard) + "]: no " +
                                KeyText(constraints[*missing_hard]) + " (DoNotSchedule)");
      continue;
    }
    auto it = group_of.find(tuple);
    if (it == group_of.end()) {
      it = group_of.emplace(tuple, groups.size()).first;
      groups.push_back(Group{tuple, {}, 0, {}, 0, 0, {}, {}});
    }
    groups[it->second].members.push_back(i);
  }

  // `a` ranks above `b` without spread: higher total, then smaller name.
  auto ranks_above = [&](size_t a, size_t b) {
    if (totals[a] != totals[b]) return totals[a] > totals[b];
    return clusters[a]->meta.name < clusters[b]->meta.name;
  };

  bool stopped_blocked = false;
  while (out.selected.size() < want) {
    for (Topologies& t : topologies) t.Refresh();
    // (1) block, (2) spread levels of the heads.
    bool any_head = false;
    std::optional<int64_t> level_min;
    std::optional<int64_t> level_max;
    for (Group& g : groups) {
      if (g.next >= g.members.size()) continue;
      any_head = true;
      g.blocked.reset();
      int64_t level = 0;
      for (size_t k = 0; k < k_count; ++k) {
        const model::SpreadConstraint& c = constraints[k];
        const Topologies& t = topologies[k];
        int64_t l = kLevelNeutral;
        if (g.tuple[k] >= 0) {
          auto topology = static_cast<size_t>(g.tuple[k]);
          l = t.Level(topology);
          int64_t skew = t.SkewAfterPick(topology);
          if (c.when_unsatisfiable == model::WhenUnsatisfiable::kDoNotSchedule &&
              skew > c.max_skew && !g.blocked) {
            g.blocked = Skip("MaxSkewExceeded",
                             "spreadConstraints[" + std::to_string(k) + "]: selecting it would " +
                                 "make the skew of " + c.topology_key + "=" +
                                 std::string(t.values[topology]) + " " + std::to_string(skew) +
                                 ", over maxSkew " + std::to_string(c.max_skew));
          }
        }
        level = (level << kLevelBits) + l;
      }
      g.spread_level = level;
      if (g.blocked) continue;
      level_min = level_min ? std::min(*level_min, level) : level;
      level_max = level_max ? std::max(*level_max, level) : level;
    }
    if (!any_head) break;
    if (!level_min) {  // every cluster left would break a DoNotSchedule constraint
      stopped_blocked = true;
      break;
    }
    // (3) normalise, add to the total, pick the best (ties by name).
    std::optional<size_t> winner_group;
    int64_t winner_final = 0;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      Group& g = groups[gi];
      if (g.next >= g.members.size() || g.blocked) continue;
      g.spread = *level_max == *level_min
                     ? 0
                     : (g.spread_level - *level_min) * 200 / (*level_max - *level_min) - 100;
      size_t head = g.members[g.next];
      int64_t final_score = totals[head] + kSpreadWeight * g.spread;
      if (!winner_group || final_score > winner_final ||
          (final_score == winner_final &&
           clusters[head]->meta.name <
               clusters[groups[*winner_group].members[groups[*winner_group].next]]->meta.name)) {
        winner_group = gi;
        winner_final = final_score;
      }
    }
    Group& won = groups[*winner_group];
    size_t winner = won.members[won.next];
    // Heads that ranked above the winner were passed over by spreading: remember the
    // lowest winner each lost to, for explain.
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      Group& g = groups[gi];
      if (gi == *winner_group || g.next >= g.members.size()) continue;
      size_t head = g.members[g.next];
      if (!ranks_above(head, winner)) continue;
      if (g.passed_by && !ranks_above(*g.passed_by, winner)) continue;
      g.passed_by = winner;
      g.passed_reason =
          g.blocked ? *g.blocked
                    : Skip("SpreadScore",
                           "spreadConstraints: " + clusters[winner]->meta.name +
                               " in a less used topology was picked first (spread score " +
                               std::to_string(g.spread) + " against " + std::to_string(won.spread) +
                               ", weight " + std::to_string(kSpreadWeight) + ")");
    }
    for (size_t k = 0; k < k_count; ++k) {
      if (won.tuple[k] >= 0) ++topologies[k].counts[static_cast<size_t>(won.tuple[k])];
    }
    out.selected.push_back(winner);
    ++won.next;
  }

  for (Group& g : groups) {
    for (size_t m = g.next; m < g.members.size(); ++m) {
      size_t i = g.members[m];
      if (stopped_blocked && g.blocked) {
        out.skipped[i] = g.blocked;
      } else if (g.passed_by && ranks_above(i, *g.passed_by)) {
        out.skipped[i] = g.passed_reason;
      }
    }
  }
  return out;
}

}  // namespace berth::placement
