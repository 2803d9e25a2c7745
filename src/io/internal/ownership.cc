// Why ownership is settled before expansion: a dump of a running cluster holds the pods the
// controllers already made; expanding every template again would plan each of them twice
// (once running, once as a phantom pending copy). The rules follow the controllers: the Job
// controller counts active pods toward parallelism and succeeded ones toward completions
// (an Indexed Job by completion index), the ReplicaSet controller counts live pods toward
// replicas, the StatefulSet controller fills missing ordinals.
#include "io/internal/ownership.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "io/internal/kind_table.h"
#include "model/data_objects.h"
#include "model/kind_info.h"

namespace berth::io::internal {

namespace {

constexpr std::string_view kCompletionIndexKey = "batch.kubernetes.io/job-completion-index";
constexpr std::string_view kLwsNameLabel = "leaderworkerset.sigs.k8s.io/name";

// A non-negative decimal index; -1 otherwise.
int32_t ParseIndex(std::string_view s) {
  int32_t v = -1;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0) return -1;
  return v;
}

int32_t LabelIndex(const core::Labels& labels, std::string_view key) {
  auto it = labels.find(key);
  return it == labels.end() ? -1 : ParseIndex(it->second);
}

std::string_view LabelValue(const core::Labels& labels, std::string_view key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string_view() : std::string_view(it->second);
}

// The slots of a workload's pod sets: which are held, and how many live pods hold a slot
// their labels do not name (they take the first free ones, as the controller would see
// them as replacing the missing ones).
class Slots {
 public:
  Slots(const model::WorkloadObject& w, ExistingPods* out) : out_(*out) {
    const size_t n = w.pod_sets.size();
    out_.live.assign(n, {});
    out_.missing.assign(n, {});
    filled_.resize(n);
    unplaced_.assign(n, 0);
    for (size_t s = 0; s < n; ++s) {
      filled_[s].assign(static_cast<size_t>(std::max(w.pod_sets[s].count, 0)), false);
    }
  }
  size_t sets() const { return filled_.size(); }
  void Live(size_t s, int32_t pod) { out_.live[s].push_back(pod); }
  // Marks `slot` of set `s` held; a slot outside the set counts as unplaced.
  void Hold(size_t s, int32_t slot) {
    if (slot >= 0 && static_cast<size_t>(slot) < filled_[s].size() &&
        !filled_[s][static_cast<size_t>(slot)]) {
      filled_[s][static_cast<size_t>(slot)] = true;
    } else {
      ++unplaced_[s];
    }
  }
  void HoldAny(size_t s) { ++unplaced_[s]; }
  // The free slots, less one per unplaced pod, become the missing ones.
  void Finish() {
    for (size_t s = 0; s < filled_.size(); ++s) {
      int32_t skip = unplaced_[s];
      for (size_t slot = 0; slot < filled_[s].size(); ++slot) {
        if (filled_[s][slot]) continue;
        if (skip > 0) {
          --skip;
          continue;
        }
        out_.missing[s].push_back(static_cast<int32_t>(slot));
      }
    }
  }

 private:
  ExistingPods& out_;
  std::vector<std::vector<bool>> filled_;
  std::vector<int32_t> unplaced_;
};

size_t SetNamed(const model::WorkloadObject& w, std::string_view name) {
  for (size_t s = 0; s < w.pod_sets.size(); ++s) {
    if (w.pod_sets[s].name == name) return s;
  }
  return w.pod_sets.size();
}

// status.completedIndexes ("1,3-5") into `done` (sized to the completions); bad parts
// are skipped (the Job controller writes it; a hand-written one is a hint only).
void MarkCompletedIndexes(std::string_view text, std::vector<bool>* done) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    size_t dash = part.find('-');
    int32_t first = ParseIndex(part.substr(0, dash));
    int32_t last = dash == std::string_view::npos ? first : ParseIndex(part.substr(dash + 1));
    if (first < 0 || last < first) continue;
    for (int32_t i = first; i <= last && static_cast<size_t>(i) < done->size(); ++i) {
      (*done)[static_cast<size_t>(i)] = true;
    }
  }
}

// Key of a workload by identity: cluster, namespace, API group, kind, name.
std::string NameKey(std::string_view cluster, std::string_view ns, std::string_view group,
                    std::string_view kind, std::string_view name) {
  std::string key;
  key.reserve(cluster.size() + ns.size() + group.size() + kind.size() + name.size() + 4);
  key.append(cluster).append(1, '\x1f').append(ns).append(1, '\x1f').append(group);
  key.append(1, '\x1f').append(kind).append(1, '\x1f').append(name);
  return key;
}

}  // namespace

int32_t CompletionIndexOf(const model::Pod& pod) {
  int32_t index = LabelIndex(pod.meta.annotations, kCompletionIndexKey);
  return index >= 0 ? index : LabelIndex(pod.meta.labels, kCompletionIndexKey);
}

void ReplicaOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>&,
                      std::span<const int32_t> owned, const model::Snapshot& snap,
                      ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  for (int32_t i : owned) {
    if (snap.pods[static_cast<size_t>(i)].IsTerminal()) continue;
    slots.Live(0, i);
    slots.HoldAny(0);
  }
  slots.Finish();
}

namespace {

constexpr std::string_view kRevisionAnnotation = "deployment.kubernetes.io/revision";

// A ReplicaSet of the Deployment being expanded: its place in snapshot.workloads, its
// revision and spec.replicas.
struct RolloutSet {
  const model::WorkloadObject* rs = nullptr;
  int64_t revision = 0;
  int32_t replicas = 0;
};

bool Owns(const model::OwnerRef& ref, const model::WorkloadObject& owner) {
  if (!ref.uid.empty() && !owner.meta.uid.empty()) return ref.uid == owner.meta.uid;
  return ref.name == owner.meta.name;
}

int64_t RevisionOf(const model::WorkloadObject& rs) {
  auto it = rs.meta.annotations.find(kRevisionAnnotation);
  if (it == rs.meta.annotations.end()) return 0;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return ec == std::errc() && end == it->second.data() + it->second.size() ? v : 0;
}

}  // namespace

void DeploymentOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>& sources,
                         std::span<const int32_t> owned, const model::Snapshot& snap,
                         ExistingPods* out) {
  // The Deployment's ReplicaSets read (same cluster and namespace, controlled by it), the
  // newest by revision first among equals in input order.
  std::vector<RolloutSet> sets;
  size_t newest = 0;
  for (const model::WorkloadObject& x : snap.workloads) {
    if (x.kind != "ReplicaSet" || model::ApiGroupOf(x.api_version) != "apps" ||
        x.cluster != w.cluster || x.meta.namespace_ != w.meta.namespace_ || !x.owner.has_value() ||
        x.owner->kind != "Deployment" || !Owns(*x.owner, w)) {
      continue;
    }
    RolloutSet set{&x, RevisionOf(x), x.pod_sets.empty() ? 0 : std::max(x.pod_sets[0].count, 0)};
    if (sets.empty() || set.revision > sets[newest].revision) newest = sets.size();
    sets.push_back(set);
  }
  // Which live pods the newest ReplicaSet holds, and whether an older one still runs pods.
  int32_t live_new = 0;
  bool old_live = false;
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    if (pod.IsTerminal()) continue;
    const bool in_new = !sets.empty() && pod.owner.has_value() && pod.owner->kind == "ReplicaSet" &&
                        Owns(*pod.owner, *sets[newest].rs);
    if (in_new) {
      ++live_new;
    } else {
      old_live = true;
    }
  }
  // Not in a rollout (one ReplicaSet, or the old ones drained): replicas minus live pods.
  if (sets.empty() || !old_live || w.pod_sets.empty() || sources.empty()) {
    ReplicaOwnership(w, sources, owned, snap, out);
    return;
  }
  const int32_t desired = std::max(w.pod_sets[0].count, 0);
  const int32_t new_replicas = sets[newest].replicas;
  // deployment_util NewRSNewReplicas: Recreate scales the new ReplicaSet up only once the old
  // pods are gone (rolloutRecreate waits); RollingUpdate up to replicas + maxSurge over the
  // ReplicaSets' spec.replicas, never beyond the Deployment's replicas.
  int64_t target = new_replicas;
  if (!sources[0].recreate) {
    int64_t current = 0;
    for (const RolloutSet& set : sets) current += set.replicas;
    const int64_t max_total = static_cast<int64_t>(desired) + sources[0].max_surge;
    if (current < max_total) {
      target = new_replicas +
               std::min<int64_t>(max_total - current, static_cast<int64_t>(desired) - new_replicas);
    }
  }
  out->live.assign(w.pod_sets.size(), {});
  out->missing.assign(w.pod_sets.size(), {});
  for (int32_t i : owned) {
    if (!snap.pods[static_cast<size_t>(i)].IsTerminal()) out->live[0].push_back(i);
  }
  // The new ReplicaSet's controller creates what its (new) replicas lack; the old pods stay
  // where they run until a later sync scales their ReplicaSets down.
  for (int64_t slot = live_new; slot < target && slot < desired; ++slot) {
    out->missing[0].push_back(static_cast<int32_t>(slot));
  }
}

void JobOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>& sources,
                  std::span<const int32_t> owned, const model::Snapshot& snap, ExistingPods* out) {
  out->live.assign(w.pod_sets.size(), {});
  out->missing.assign(w.pod_sets.size(), {});
  if (w.pod_sets.empty() || sources.empty()) return;
  const PodSetSource& src = sources[0];
  std::vector<int32_t>& live = out->live[0];
  int32_t succeeded_pods = 0;
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    if (pod.phase == model::PodPhase::kSucceeded) ++succeeded_pods;
    if (!pod.IsTerminal()) live.push_back(i);
  }
  const int32_t active = static_cast<int32_t>(live.size());
  if (!src.indexed) {
    // The Job controller: wanted active = min(parallelism, completions - succeeded); a
    // work queue (no completions) starts no new pod once one has succeeded.
    const int32_t succeeded = std::max(src.succeeded, succeeded_pods);
    int32_t wanted = src.completions < 0
                         ? (succeeded > 0 ? 0 : src.parallelism)
                         : std::min(src.parallelism, std::max(src.completions - succeeded, 0));
    for (int32_t slot = active; slot < wanted; ++slot) out->missing[0].push_back(slot);
    return;
  }
  // Indexed: the completion indexes neither succeeded nor held by a live pod, lowest
  // first, as many as parallelism leaves room for.
  const int32_t completions = src.completions < 0 ? src.parallelism : src.completions;
  std::vector<bool> taken(static_cast<size_t>(std::max(completions, 0)), false);
  MarkCompletedIndexes(src.completed_indexes, &taken);
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    if (pod.phase == model::PodPhase::kFailed) continue;
    int32_t index = CompletionIndexOf(pod);
    if (index >= 0 && index < completions) taken[static_cast<size_t>(index)] = true;
  }
  int32_t room = src.parallelism - active;
  for (size_t index = 0; index < taken.size() && room > 0; ++index) {
    if (taken[index]) continue;
    out->missing[0].push_back(static_cast<int32_t>(index));
    --room;
  }
}

void StatefulSetOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>&,
                          std::span<const int32_t> owned, const model::Snapshot& snap,
                          ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  const std::string prefix = w.meta.name + "-";
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    if (pod.IsTerminal()) continue;
    int32_t ordinal = LabelIndex(pod.meta.labels, "apps.kubernetes.io/pod-index");
    if (ordinal < 0 && pod.meta.name.starts_with(prefix)) {
      ordinal = ParseIndex(std::string_view(pod.meta.name).substr(prefix.size()));
    }
    slots.Live(0, i);
    slots.Hold(0, ordinal);
  }
  slots.Finish();
}

void JobSetOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>& sources,
                     std::span<const int32_t> owned, const model::Snapshot& snap,
                     ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    size_t s = SetNamed(w, LabelValue(pod.meta.labels, "jobset.sigs.k8s.io/replicatedjob-name"));
    const bool known = s < slots.sets();
    if (!known) s = 0;
    const int32_t per_job = std::max(sources[s].pods_per_group, 1);
    const int32_t job = LabelIndex(pod.meta.labels, "jobset.sigs.k8s.io/job-index");
    const int32_t index = CompletionIndexOf(pod);
    const bool placed = known && job >= 0 && index >= 0 && index < per_job;
    const int32_t slot = placed ? job * per_job + index : -1;
    if (pod.IsTerminal()) {
      // A succeeded index of an Indexed child Job is done; nothing replaces it.
      if (pod.phase == model::PodPhase::kSucceeded && placed) slots.Hold(s, slot);
      continue;
    }
    slots.Live(s, i);
    slots.Hold(s, slot);
  }
  slots.Finish();
}

void PyTorchJobOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>&,
                         std::span<const int32_t> owned, const model::Snapshot& snap,
                         ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    if (pod.IsTerminal()) continue;
    size_t s = SetNamed(w, LabelValue(pod.meta.labels, "training.kubeflow.org/replica-type"));
    const bool known = s < slots.sets();
    if (!known) s = 0;
    slots.Live(s, i);
    slots.Hold(s, known ? LabelIndex(pod.meta.labels, "training.kubeflow.org/replica-index") : -1);
  }
  slots.Finish();
}

void LeaderWorkerSetOwnership(const model::WorkloadObject& w,
                              const std::vector<PodSetSource>& sources,
                              std::span<const int32_t> owned, const model::Snapshot& snap,
                              ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  const size_t workers = SetNamed(w, "worker");
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    if (pod.IsTerminal()) continue;
    const int32_t group = LabelIndex(pod.meta.labels, "leaderworkerset.sigs.k8s.io/group-index");
    const int32_t worker = LabelIndex(pod.meta.labels, "leaderworkerset.sigs.k8s.io/worker-index");
    if (worker <= 0 || workers >= slots.sets()) {
      slots.Live(0, i);
      slots.Hold(0, worker == 0 ? group : -1);
      continue;
    }
    const int32_t per_group = std::max(sources[workers].pods_per_group, 1);
    slots.Live(workers, i);
    slots.Hold(workers, group >= 0 && worker <= per_group ? group * per_group + worker - 1 : -1);
  }
  slots.Finish();
}

void MPIJobOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>&,
                     std::span<const int32_t> owned, const model::Snapshot& snap,
                     ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  const size_t launcher = SetNamed(w, "launcher");
  const size_t workers = SetNamed(w, "worker");
  const std::string prefix = w.meta.name + "-worker-";
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    // The launcher's Job is done once its pod succeeded; a failed worker is recreated.
    if (pod.phase == model::PodPhase::kFailed) continue;
    const std::string_view role = LabelValue(pod.meta.labels, "training.kubeflow.org/job-role");
    const bool worker = role == "worker" || (role.empty() && pod.meta.name.starts_with(prefix));
    const size_t s = worker && workers < slots.sets() ? workers
                     : launcher < slots.sets()        ? launcher
                                                      : 0;
    int32_t slot = 0;
    if (s == workers) {
      // mpi-operator names workers by index; its replica-index label is one higher when the
      // launcher also runs as a worker, so the name decides.
      slot = pod.meta.name.starts_with(prefix)
                 ? ParseIndex(std::string_view(pod.meta.name).substr(prefix.size()))
                 : LabelIndex(pod.meta.labels, "training.kubeflow.org/replica-index");
    }
    if (pod.phase == model::PodPhase::kSucceeded) {
      if (s == launcher) slots.Hold(s, slot);
      continue;
    }
    slots.Live(s, i);
    slots.Hold(s, slot);
  }
  slots.Finish();
}

void RayOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>&,
                  std::span<const int32_t> owned, const model::Snapshot& snap, ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  const size_t submitter = SetNamed(w, "submitter");
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    const std::string_view type = LabelValue(pod.meta.labels, "ray.io/node-type");
    size_t s = slots.sets();
    if (type == "head") {
      s = SetNamed(w, "head");
    } else if (type == "worker") {
      const std::string_view group = LabelValue(pod.meta.labels, "ray.io/group");
      for (size_t k = 0; k < slots.sets(); ++k) {
        const core::Labels& labels = w.pod_sets[k].pod_template.meta.labels;
        auto it = labels.find("ray.io/group");
        if (it != labels.end() && it->second == group && w.pod_sets[k].name != "head") s = k;
      }
    } else if (submitter < slots.sets()) {
      s = submitter;  // the submitter Job's pod (the only other pod a RayJob has)
    }
    if (s >= slots.sets()) s = 0;
    if (pod.IsTerminal()) {
      // A submitter that finished has submitted; head and workers are recreated.
      if (s == submitter && pod.phase == model::PodPhase::kSucceeded) slots.Hold(s, 0);
      continue;
    }
    slots.Live(s, i);
    if (s == submitter || w.pod_sets[s].name == "head") {
      slots.Hold(s, 0);
    } else {
      slots.HoldAny(s);
    }
  }
  slots.Finish();
}

void VolcanoJobOwnership(const model::WorkloadObject& w, const std::vector<PodSetSource>&,
                         std::span<const int32_t> owned, const model::Snapshot& snap,
                         ExistingPods* out) {
  Slots slots(w, out);
  if (slots.sets() == 0) return;
  for (int32_t i : owned) {
    const model::Pod& pod = snap.pods[static_cast<size_t>(i)];
    size_t s = SetNamed(w, LabelValue(pod.meta.labels, "volcano.sh/task-spec"));
    const bool known = s < slots.sets();
    if (!known) s = 0;
    int32_t index = LabelIndex(pod.meta.labels, "volcano.sh/task-index");
    const std::string prefix = w.meta.name + "-" + w.pod_sets[s].name + "-";
    if (index < 0 && pod.meta.name.starts_with(prefix)) {
      index = ParseIndex(std::string_view(pod.meta.name).substr(prefix.size()));
    }
    // Volcano creates the pods whose names are missing: a finished pod keeps its name, so
    // it is not made again (it holds no resources).
    if (!pod.IsTerminal()) slots.Live(s, i);
    slots.Hold(s, known ? index : -1);
  }
  slots.Finish();
}

Ownership::Ownership(const model::Snapshot& snap)
    : parent_(snap.workloads.size(), -1), owned_(snap.workloads.size()) {
  const std::vector<model::WorkloadObject>& ws = snap.workloads;
  if (ws.empty()) return;
  // Views into `snap`, used only here.
  std::unordered_map<std::string_view, int32_t> by_uid;
  std::unordered_map<std::string, int32_t> by_name;
  by_uid.reserve(ws.size());
  by_name.reserve(ws.size());
  for (size_t w = 0; w < ws.size(); ++w) {
    const model::WorkloadObject& x = ws[w];
    if (!x.meta.uid.empty()) by_uid.emplace(x.meta.uid, static_cast<int32_t>(w));
    by_name.emplace(NameKey(x.cluster, x.meta.namespace_, model::ApiGroupOf(x.api_version), x.kind,
                            x.meta.name),
                    static_cast<int32_t>(w));
  }
  // The workload an owner reference names (same cluster and namespace): by uid, else by
  // kind and name unless the named object is another incarnation (a different uid).
  auto find = [&](const std::string& cluster, const std::string& ns, std::string_view group,
                  std::string_view kind, std::string_view name, std::string_view uid) -> int32_t {
    if (!uid.empty()) {
      auto it = by_uid.find(uid);
      if (it != by_uid.end()) {
        const model::WorkloadObject& x = ws[static_cast<size_t>(it->second)];
        return x.cluster == cluster && x.meta.namespace_ == ns && x.kind == kind ? it->second : -1;
      }
    }
    if (name.empty()) return -1;
    auto it = by_name.find(NameKey(cluster, ns, group, kind, name));
    if (it == by_name.end()) return -1;
    const std::string& found_uid = ws[static_cast<size_t>(it->second)].meta.uid;
    return uid.empty() || found_uid.empty() || found_uid == uid ? it->second : -1;
  };

  std::vector<int32_t> direct(ws.size(), -1);
  for (size_t w = 0; w < ws.size(); ++w) {
    const model::WorkloadObject& x = ws[w];
    int32_t p = -1;
    if (x.owner.has_value()) {
      p = find(x.cluster, x.meta.namespace_, model::ApiGroupOf(x.owner->api_version), x.owner->kind,
               x.owner->name, x.owner->uid);
    }
    if (p < 0 && x.kind != "LeaderWorkerSet") {
      std::string_view lws = LabelValue(x.meta.labels, kLwsNameLabel);
      if (!lws.empty()) {
        p = find(x.cluster, x.meta.namespace_, "leaderworkerset.x-k8s.io", "LeaderWorkerSet", lws,
                 {});
      }
    }
    // KServe labels the Deployments it makes for an InferenceService; in serverless mode
    // their owner is a Knative Revision berth does not read, so the label is the link (the
    // predictor pods are then the InferenceService's, counted once).
    if (p < 0 && x.kind != "InferenceService") {
      std::string_view isvc = LabelValue(x.meta.labels, model::kInferenceServiceLabel);
      if (!isvc.empty()) {
        p = find(x.cluster, x.meta.namespace_, "serving.kserve.io", "InferenceService", isvc, {});
      }
    }
    if (p != static_cast<int32_t>(w)) direct[w] = p;
  }
  // The outermost owner; chains are short (ReplicaSet -> Deployment), a cycle ends it.
  for (size_t w = 0; w < ws.size(); ++w) {
    int32_t root = direct[w];
    for (int depth = 0; root >= 0 && depth < 8; ++depth) {
      const int32_t up = direct[static_cast<size_t>(root)];
      if (up < 0 || up == static_cast<int32_t>(w)) break;
      root = up;
    }
    parent_[w] = root;
  }

  for (size_t i = 0; i < snap.pods.size(); ++i) {
    const model::Pod& pod = snap.pods[i];
    int32_t w = -1;
    if (pod.owner.has_value()) {
      w = find(pod.cluster, pod.meta.namespace_, model::ApiGroupOf(pod.owner->api_version),
               pod.owner->kind, pod.owner->name, pod.owner->uid);
    } else if (!pod.meta.labels.empty()) {
      // A Job's pods without their owner reference (hand-written, or stripped by an
      // export): the labels the Job controller puts on them.
      std::string_view uid = LabelValue(pod.meta.labels, "batch.kubernetes.io/controller-uid");
      if (uid.empty()) uid = LabelValue(pod.meta.labels, "controller-uid");
      std::string_view job = LabelValue(pod.meta.labels, "batch.kubernetes.io/job-name");
      if (job.empty()) job = LabelValue(pod.meta.labels, "job-name");
      if (!uid.empty() || !job.empty()) {
        w = find(pod.cluster, pod.meta.namespace_, "batch", "Job", job, uid);
      } else if (auto vc = LabelValue(pod.meta.labels, "volcano.sh/job-name"); !vc.empty()) {
        w = find(pod.cluster, pod.meta.namespace_, "batch.volcano.sh", "Job", vc, {});
      } else if (auto ray = LabelValue(pod.meta.labels, "ray.io/cluster"); !ray.empty()) {
        w = find(pod.cluster, pod.meta.namespace_, "ray.io", "RayCluster", ray, {});
      } else if (LabelValue(pod.meta.labels, "training.kubeflow.org/operator-name") ==
                 "mpi-operator") {
        w = find(pod.cluster, pod.meta.namespace_, "kubeflow.org", "MPIJob",
                 LabelValue(pod.meta.labels, "training.kubeflow.org/job-name"), {});
      }
    }
    if (w < 0) continue;
    const int32_t root = parent_[static_cast<size_t>(w)] >= 0 ? parent_[static_cast<size_t>(w)] : w;
    owned_[static_cast<size_t>(root)].push_back(static_cast<int32_t>(i));
  }
}

bool Ownership::Existing(size_t w, const model::WorkloadObject& workload,
                         const std::vector<PodSetSource>& sources, const model::Snapshot& snapshot,
                         ExistingPods* out) const {
  if (owned_[w].empty()) return false;
  const KindRow* row = FindKindRow(model::ApiGroupOf(workload.api_version), workload.kind);
  const OwnershipFn rule =
      row != nullptr && row->ownership != nullptr ? row->ownership : ReplicaOwnership;
  rule(workload, sources, owned_[w], snapshot, out);
  return true;
}

}  // namespace berth::io::internal
