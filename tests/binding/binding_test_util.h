// Helpers for binding's tests: look up verdicts and scores by node name, and make profiles
// that score with a single plugin so a test can read that plugin's values alone.
#pragma once

#include <string>
#include <string_view>

#include "binding/scheduler.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"

namespace berth::binding {

inline const NodeVerdict* FindVerdict(const PodExplanation& e, const model::Snapshot& s,
                                      std::string_view node) {
  for (const NodeVerdict& v : e.nodes) {
    if (s.node(v.node).meta.name == node) return &v;
  }
  return nullptr;
}

inline const FilterVerdict* FindFilter(const NodeVerdict& v, std::string_view plugin) {
  for (const FilterVerdict& f : v.filters) {
    if (f.plugin == plugin) return &f;
  }
  return nullptr;
}

inline const PluginScore* FindScore(const NodeVerdict& v, std::string_view plugin) {
  for (const PluginScore& p : v.scores) {
    if (p.plugin == plugin) return &p;
  }
  return nullptr;
}

// The raw score `plugin` gave `node`, or -1 when it gave none.
inline int64_t RawScore(const PodExplanation& e, const model::Snapshot& s, std::string_view node,
                        std::string_view plugin) {
  const NodeVerdict* v = FindVerdict(e, s, node);
  if (v == nullptr) return -1;
  const PluginScore* p = FindScore(*v, plugin);
  return p == nullptr ? -1 : p->raw;
}

inline int64_t NormalizedScore(const PodExplanation& e, const model::Snapshot& s,
                               std::string_view node, std::string_view plugin) {
  const NodeVerdict* v = FindVerdict(e, s, node);
  if (v == nullptr) return -1;
  const PluginScore* p = FindScore(*v, plugin);
  return p == nullptr ? -1 : p->normalized;
}

// The reason the named filter gave, "" when it passed.
inline std::string FilterReason(const PodExplanation& e, const model::Snapshot& s,
                                std::string_view node, std::string_view plugin) {
  const NodeVerdict* v = FindVerdict(e, s, node);
  if (v == nullptr) return "<no node>";
  const FilterVerdict* f = FindFilter(*v, plugin);
  return f == nullptr ? "<no filter>" : f->reason;
}

inline std::string BoundTo(const model::Snapshot& s, const model::PodDecision& d) {
  return d.node.has_value() ? s.node(*d.node).meta.name : "";
}

// The default profile with only `plugin` scoring, at weight 1.
inline model::SchedulerConfig OnlyScore(const std::string& plugin) {
  model::SchedulerConfig config;
  config.profiles[0].score_weights = {{plugin, 1}};
  return config;
}

}  // namespace berth::binding
