// Why group by verdict first and class second: the verdict is what the reader acts on (a
// toleration, a smaller request), the class says which kind of node it is about and carries
// the numbers; two nodes of one class can differ in verdict only through what is bound on
// them, which the free column then shows.
#include "cli/explain_groups.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "engine/explain_types.h"

namespace berth::cli {

namespace {

// The first filter that said no: the reason kube-scheduler counts for the node.
const engine::NodeFilterVerdict* FirstFailingFilter(const engine::NodeVerdict& verdict) {
  for (const auto& filter : verdict.filters) {
    if (!filter.passed) return &filter;
  }
  return nullptr;
}

// The node's verdict as (feasible, plugin, reason), and its position in name order.
struct Keyed {
  size_t index = 0;
  bool feasible = false;
  std::string plugin;
  std::string reason;
  int32_t node_class = -1;
};

std::vector<Keyed> KeyedByName(const model::Snapshot& snapshot,
                               const engine::Explanation& explanation) {
  std::vector<Keyed> out;
  const auto& verdicts = explanation.pod.nodes;
  for (size_t i = 0; i < verdicts.size(); ++i) {
    Keyed k;
    k.index = i;
    k.feasible = verdicts[i].feasible;
    if (!k.feasible) {
      if (const engine::NodeFilterVerdict* failure = FirstFailingFilter(verdicts[i])) {
        k.plugin = failure->plugin;
        k.reason = failure->reason;
      }
    }
    if (i < explanation.nodes.size()) k.node_class = explanation.nodes[i].node_class;
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), [&](const Keyed& a, const Keyed& b) {
    return snapshot.node(verdicts[a.index].node).meta.name <
           snapshot.node(verdicts[b.index].node).meta.name;
  });
  return out;
}

}  // namespace

std::vector<NodeGroup> GroupNodesByClass(const model::Snapshot& snapshot,
                                         const engine::Explanation& explanation) {
  const bool numbers = !explanation.nodes.empty();
  std::vector<NodeGroup> groups;
  // (feasible, plugin, reason, class or -1, node position when classless) -> group
  std::map<std::tuple<bool, std::string, std::string, int32_t, size_t>, size_t> by_key;
  for (const Keyed& k : KeyedByName(snapshot, explanation)) {
    // Without an index every node is its own class; without numbers a verdict is one group.
    const size_t own = numbers && k.node_class < 0 ? k.index + 1 : 0;
    const auto key = std::make_tuple(k.feasible, k.plugin, k.reason, k.node_class, own);
    auto [it, inserted] = by_key.emplace(key, groups.size());
    if (inserted) {
      groups.push_back(NodeGroup{k.feasible, k.plugin, k.reason, k.node_class, {}});
    }
    groups[it->second].members.push_back(k.index);
  }
  return groups;
}

std::vector<NodeGroup> GroupNodesByVerdict(const model::Snapshot& snapshot,
                                           const engine::Explanation& explanation) {
  std::vector<NodeGroup> groups;
  std::map<std::tuple<bool, std::string, std::string>, size_t> by_key;
  for (const Keyed& k : KeyedByName(snapshot, explanation)) {
    auto [it, inserted] = by_key.emplace(std::make_tuple(k.feasible, k.plugin, k.reason),
                                         groups.size());
    if (inserted) groups.push_back(NodeGroup{k.feasible, k.plugin, k.reason, -1, {}});
    groups[it->second].members.push_back(k.index);
  }
  std::stable_sort(groups.begin(), groups.end(), [](const NodeGroup& a, const NodeGroup& b) {
    if (a.members.size() != b.members.size()) return a.members.size() > b.members.size();
    return std::tie(a.plugin, a.reason) < std::tie(b.plugin, b.reason);
  });
  return groups;
}

std::string NameSample(const std::vector<std::string>& names, size_t shown) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < shown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > shown) out += ", +" + std::to_string(names.size() - shown) + " more";
  return out;
}

std::string RangeText(int64_t min, int64_t max, const std::string& min_text,
                      const std::string& max_text) {
  return min == max ? min_text : min_text + ".." + max_text;
}

}  // namespace berth::cli
