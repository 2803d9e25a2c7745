#include "binding/framework/indexed_path.h"

#include <algorithm>

#include "binding/framework/fit_error.h"
#include "binding/framework/normalize_score.h"
#include "binding/framework/plugin_names.h"
#include "binding/framework/plugin_registry.h"
#include "binding/plugins/gpu_share_score.h"
#include "binding/plugins/inter_pod_affinity.h"
#include "binding/plugins/model_locality.h"
#include "binding/plugins/node_affinity.h"
#include "core/taint.h"

namespace berth::binding {

namespace {

// Bounds on cached signatures; the least recently used is dropped beyond them. A fit index
// costs O(nodes) memory, a static entry O(classes).
constexpr size_t kMaxFitIndexes = 256;
constexpr size_t kMaxStaticEntries = 4096;

void Put(std::string* key, std::string_view s) {
  *key += std::to_string(s.size());
  *key += ':';
  *key += s;
}

void Put(std::string* key, int64_t v) {
  *key += std::to_string(v);
  *key += ',';
}

void PutRequirements(std::string* key, const std::vector<core::SelectorRequirement>& reqs) {
  Put(key, static_cast<int64_t>(reqs.size()));
  for (const auto& r : reqs) {
    Put(key, r.key);
    Put(key, static_cast<int64_t>(r.op));
    Put(key, static_cast<int64_t>(r.values.size()));
    for (const auto& v : r.values) Put(key, v);
  }
}

void PutTerm(std::string* key, const core::NodeSelectorTerm& t) {
  PutRequirements(key, t.match_expressions);
  PutRequirements(key, t.match_fields);
}

bool TermIndexable(const core::NodeSelectorTerm& t, const NodeClasses& classes) {
  if (!t.match_fields.empty()) return false;
  return std::none_of(
      t.match_expressions.begin(), t.match_expressions.end(),
      [&](const core::SelectorRequirement& r) { return classes.IsPerNodeKey(r.key); });
}

}  // namespace

IndexedPath::IndexedPath(const ClusterState& state, const ResourceTable& resources)
    : state_(state), resources_(resources), classes_(state, resources) {}

IndexedPath::~IndexedPath() = default;

bool IndexedPath::SelectedByPlacedTerms(const CycleContext& ctx) {
  // Only InterPodAffinity reads placed pods' terms; a profile without it has nothing to check.
  if (!ctx.profile.FilterEnabled(kInterPodAffinity) && ctx.profile.Weight(kInterPodAffinity) == 0) {
    return false;
  }
  auto sig = static_cast<size_t>(ctx.info.label_sig.v);
  if (placed_checks_.size() <= sig) placed_checks_.resize(sig + 1);
  PlacedTermCheck& check = placed_checks_[sig];
  const auto& placed = state_.affinity_pods();
  // Between removals placed pods only accumulate, so a signature is checked against each
  // of them once; a removal (unbind, gang rollback) shifts positions and may take away the
  // pod that selected the signature, so the check starts over.
  if (check.removals != state_.affinity_removals()) {
    check = PlacedTermCheck{0, false, state_.affinity_removals()};
  }
  while (!check.selected && check.checked < placed.size()) {
    const PlacedPod& p = placed[check.checked++];
    check.selected = PlacedTermSelects(ctx, ctx.pod_infos.Get(p.pod), ctx.pod);
  }
  return check.selected;
}

bool IndexedPath::Eligible(const CycleContext& ctx) {
  const model::Pod& pod = ctx.pod;
  if (!pod.node_name.empty() || !ctx.info.hard_spread.empty() || !ctx.info.soft_spread.empty() ||
      ctx.info.HasAffinityTerms()) {
    return false;
  }
  // A fractional GPU pod is filtered by GpuSharing on per-GPU state no class captures.
  if (ctx.info.RequestsGpuFraction()) return false;
  // The GPU-sharing score plugins score on per-GPU and per-pod-kind state too.
  if (GpuShareScoresPod(ctx)) return false;
  // ModelLocality reads per-node cache labels no class captures.
  if (ModelLocalityScoresPod(ctx)) return false;
  for (const auto& [k, v] : pod.node_selector) {
    if (classes_.IsPerNodeKey(k)) return false;
  }
  if (pod.node_affinity.required.has_value()) {
    for (const auto& t : pod.node_affinity.required->terms) {
      if (!TermIndexable(t, classes_)) return false;
    }
  }
  for (const auto& p : pod.node_affinity.preferred) {
    if (!TermIndexable(p.preference, classes_)) return false;
  }
  if (ctx.resources.size() > 62) return false;  // failure bits must fit in 64
  return !SelectedByPlacedTerms(ctx);
}

template <typename T>
void IndexedPath::EvictOldest(std::unordered_map<std::string, std::unique_ptr<T>>* cache,
                              size_t limit) {
  if (cache->size() < limit) return;
  auto oldest = std::min_element(cache->begin(), cache->end(), [](const auto& a, const auto& b) {
    return a.second->last_use < b.second->last_use;
  });
  cache->erase(oldest);
}

const std::vector<std::optional<ReasonId>>* IndexedPath::StaticRejections(const CycleContext& ctx) {
  if (!Eligible(ctx)) return nullptr;
  return &Static(ctx).rejection;
}

IndexedPath::StaticClasses& IndexedPath::Static(const CycleContext& ctx) {
  const model::Pod& pod = ctx.pod;
  key_.clear();
  Put(&key_, ctx.profile.index());
  Put(&key_, static_cast<int64_t>(pod.tolerations.size()));
  for (const auto& t : pod.tolerations) {
    Put(&key_, t.key);
    Put(&key_, static_cast<int64_t>(t.op));
    Put(&key_, t.value);
    Put(&key_, t.effect.has_value() ? static_cast<int64_t>(*t.effect) : -1);
  }
  Put(&key_, static_cast<int64_t>(pod.node_selector.size()));
  for (const auto& [k, v] : pod.node_selector) {
    Put(&key_, k);
    Put(&key_, v);
  }
  const auto& required = pod.node_affinity.required;
  Put(&key_, required.has_value() ? static_cast<int64_t>(required->terms.size()) : -1);
  if (required.has_value()) {
    for (const auto& t : required->terms) PutTerm(&key_, t);
  }
  Put(&key_, static_cast<int64_t>(pod.node_affinity.preferred.size()));
  for (const auto& p : pod.node_affinity.preferred) {
    Put(&key_, p.weight);
    PutTerm(&key_, p.preference);
  }
  auto it = statics_.find(key_);
  if (it != statics_.end()) {
    it->second->last_use = ++clock_;
    return *it->second;
  }
  EvictOldest(&statics_, kMaxStaticEntries);
  auto entry = std::make_unique<StaticClasses>();
  entry->last_use = ++clock_;
  // The filters that read only the node object and the pod's static fields, in profile
  // order; the first failure is the class's reason, as for each of its nodes.
  std::vector<std::unique_ptr<FilterPlugin>> statics;
  for (auto& f : MakeFilterPlugins(ctx.profile)) {
    std::string_view n = f->Name();
    if (n == kNodeUnschedulable || n == kNodeName || n == kTaintToleration || n == kNodeAffinity) {
      statics.push_back(std::move(f));
    }
  }
  int32_t num = classes_.num_classes();
  entry->rejection.assign(static_cast<size_t>(num), std::nullopt);
  entry->taint_raw.assign(static_cast<size_t>(num), 0);
  entry->affinity_raw.assign(static_cast<size_t>(num), 0);
  std::vector<ReasonId> reasons;
  for (int32_t c = 0; c < num; ++c) {
    model::NodeIndex rep = classes_.representative(c);
    for (const auto& f : statics) {
      reasons.clear();
      f->Filter(ctx, rep, &reasons);
      if (!reasons.empty()) {
        entry->rejection[static_cast<size_t>(c)] = reasons.front();
        break;
      }
    }
    if (entry->rejection[static_cast<size_t>(c)].has_value()) continue;
    entry->passing.push_back(c);
    const model::Node& node = state_.node(rep);
    entry->taint_raw[static_cast<size_t>(c)] =
        core::CountIntolerablePreferNoSchedule(node.taints, pod.tolerations);
    entry->affinity_raw[static_cast<size_t>(c)] = PreferredNodeAffinityScore(pod, node);
  }
  StaticClasses& ref = *entry;
  statics_.emplace(key_, std::move(entry));
  return ref;
}

FitIndex& IndexedPath::Fit(const CycleContext& ctx, int32_t min_devices) {
  const PodResources& r = ctx.info.resources;
  bool check_fit = ctx.profile.FilterEnabled(kNodeResourcesFit);
  key_.clear();
  Put(&key_, ctx.profile.index());
  Put(&key_, check_fit ? 1 : 0);
  Put(&key_, r.nonzero_cpu);
  Put(&key_, r.nonzero_memory);
  for (int64_t v : r.requests) Put(&key_, v);
  if (min_devices > 0) Put(&key_, -static_cast<int64_t>(min_devices));  // after the requests
  auto it = fits_.find(key_);
  if (it == fits_.end()) {
    EvictOldest(&fits_, kMaxFitIndexes);
    it = fits_
             .emplace(key_, std::make_unique<FitIndex>(r, ctx.profile, resources_, classes_,
                                                       check_fit, min_devices))
             .first;
  }
  it->second->last_use = ++clock_;
  return *it->second;
}

void IndexedPath::GatherCandidates(const CycleContext& ctx, const StaticClasses& statics,
                                   FitIndex& fit) {
  candidates_.clear();
  for (int32_t c : statics.passing) {
    const FitIndex::Entry* e = fit.Best(c, state_);
    if (e == nullptr) continue;
    candidates_.push_back(Candidate{c, *e, 0});
  }
  SetOffsets(ctx, statics);
}

void IndexedPath::SetOffsets(const CycleContext& ctx, const StaticClasses& statics) {
  int64_t max_taint = 0;
  int64_t max_affinity = 0;
  for (const Candidate& k : candidates_) {
    max_taint = std::max(max_taint, statics.taint_raw[static_cast<size_t>(k.c)]);
    max_affinity = std::max(max_affinity, statics.affinity_raw[static_cast<size_t>(k.c)]);
  }
  // NodeAffinity's score skips pods without preferred terms; every raw score is 0 then and
  // so is every normalized one, which is what skipping adds.
  const int64_t taint_weight = ctx.profile.Weight(kTaintToleration);
  const int64_t affinity_weight = ctx.profile.Weight(kNodeAffinity);
  for (Candidate& k : candidates_) {
    const auto c = static_cast<size_t>(k.c);
    k.offset = taint_weight * NormalizeOne(statics.taint_raw[c], max_taint, /*reverse=*/true) +
               affinity_weight * NormalizeOne(statics.affinity_raw[c], max_affinity, false);
  }
}

std::vector<IndexedPath::Candidate>::iterator IndexedPath::BestCandidate() {
  auto best = candidates_.begin();
  for (auto it = std::next(candidates_.begin()); it != candidates_.end(); ++it) {
    const int64_t a = it->entry.score + it->offset;
    const int64_t b = best->entry.score + best->offset;
    if (a > b || (a == b && it->entry.rank < best->entry.rank)) best = it;
  }
  return best;
}

std::optional<model::PodDecision> IndexedPath::TryDecide(const CycleContext& ctx) {
  if (!Eligible(ctx)) return std::nullopt;
  StaticClasses& statics = Static(ctx);
  FitIndex& fit = Fit(ctx);
  fit.Refresh(state_);
  GatherCandidates(ctx, statics, fit);

  model::PodDecision decision;
  if (candidates_.empty()) {
    ReasonHistogram histogram;
    std::vector<ReasonId> bit_reasons;
    bit_reasons.push_back(ctx.reasons.Intern(kNodeResourcesFit, kReasonTooManyPods));
    for (const auto& [id, amount] : fit.request().items) {
      bit_reasons.push_back(InsufficientReason(ctx.reasons, resources_.name(id)));
    }
    for (int32_t c = 0; c < classes_.num_classes(); ++c) {
      const auto& rejection = statics.rejection[static_cast<size_t>(c)];
      if (rejection.has_value()) {
        histogram.Add(*rejection, classes_.size(c));
        continue;
      }
      for (int b = 0; b < fit.num_bits(); ++b)
        histogram.Add(bit_reasons[static_cast<size_t>(b)], fit.FailureCount(c, b));
    }
    histogram.Render(ctx.reasons, state_.num_nodes(), &decision);
    return decision;
  }
  decision.node = model::NodeIndex{BestCandidate()->entry.node};
  return decision;
}

IndexedPath::ProbeOutcome IndexedPath::FirstAccepting(
    const CycleContext& ctx, int32_t min_devices,
    const std::function<bool(model::NodeIndex)>& accepts) {
  ProbeOutcome out;
  if (!Eligible(ctx)) return out;
  out.covered = true;
  StaticClasses& statics = Static(ctx);
  FitIndex& fit = Fit(ctx, min_devices);
  fit.Refresh(state_);

  // The candidates: each class's best node with enough free devices, and its total as
  // TryDecide computes it. The caller guarantees that the normalized static scores do not
  // depend on the feasible set, so a class's static part is one constant throughout.
  GatherCandidates(ctx, statics, fit);
  // Best first, as ReferenceEvaluator::DecideLastFilterLazily asks the passing nodes: the
  // highest total, ties to the first name. A node that says no is set aside, so its class's
  // next node becomes the class's candidate; nodes skipped for too few free devices would
  // have said no as well (devices::Allocator::FreeDeviceBound), so the first yes is the
  // best node that accepts.
  while (!candidates_.empty()) {
    const auto best = BestCandidate();
    const model::NodeIndex node{best->entry.node};
    if (accepts(node)) {
      out.node = node;
      break;
    }
    fit.SetAsideBest(best->c);
    const FitIndex::Entry* next = fit.Best(best->c, state_);
    if (next == nullptr) {
      candidates_.erase(best);
    } else {
      best->entry = *next;
    }
  }
  fit.RestoreSetAside();
  return out;
}

IndexedPath::ProbeOutcome IndexedPath::BestAccepting(
    const CycleContext& ctx, const std::function<bool(model::NodeIndex)>& accepts) {
  ProbeOutcome out;
  if (!Eligible(ctx)) return out;
  out.covered = true;
  StaticClasses& statics = Static(ctx);
  FitIndex& fit = Fit(ctx);
  fit.Refresh(state_);
  candidates_.clear();
  for (int32_t c : statics.passing) {
    const FitIndex::Entry* e = fit.Best(c, state_);
    while (e != nullptr && !accepts(model::NodeIndex{e->node})) {
      fit.SetAsideBest(c);
      e = fit.Best(c, state_);
    }
    if (e != nullptr) candidates_.push_back(Candidate{c, *e, 0});
  }
  fit.RestoreSetAside();
  SetOffsets(ctx, statics);
  if (!candidates_.empty()) out.node = model::NodeIndex{BestCandidate()->entry.node};
  return out;
}

}  // namespace berth::binding
