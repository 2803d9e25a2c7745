// Why the admission lives in io: the API server applies it when a pod is created, before
// any scheduler sees the pod, so every stage must read the admitted pod. Reader::Finish is
// where berth's pods come into being (given ones and the ones it expands from workloads).
// Given pods already bound keep what they have: they exist, whatever happened to their
// class since (the caller skips them).
#include "io/internal/runtime_class_admission.h"

#include <utility>

namespace berth::io::internal {

namespace {

std::string ClassKey(const std::string& cluster, const std::string& name) {
  std::string key = cluster;
  key += '\x1f';
  key += name;
  return key;
}

// Upstream isSuperset: whether `ss` tolerates everything `t` tolerates.
bool ToleratesSuperset(const core::Toleration& ss, const core::Toleration& t) {
  if (ss == t) return true;
  // An empty key with Exists matches every key.
  if (t.key != ss.key && (!ss.key.empty() || ss.op != core::TolerationOp::kExists)) return false;
  // An empty effect matches every effect.
  if (t.effect != ss.effect && ss.effect.has_value()) return false;
  if (ss.effect == core::TaintEffect::kNoExecute && ss.toleration_seconds.has_value()) {
    if (!t.toleration_seconds.has_value() || *t.toleration_seconds > *ss.toleration_seconds) {
      return false;
    }
  }
  if (ss.op == core::TolerationOp::kExists) return true;
  return t.op == core::TolerationOp::kEqual && t.value == ss.value;
}

}  // namespace

std::vector<core::Toleration> MergeTolerations(const std::vector<core::Toleration>& first,
                                               const std::vector<core::Toleration>& second) {
  std::vector<core::Toleration> all = first;
  all.insert(all.end(), second.begin(), second.end());
  std::vector<core::Toleration> merged;
  for (size_t i = 0; i < all.size(); ++i) {
    const core::Toleration& t = all[i];
    bool redundant = false;
    for (const core::Toleration& kept : merged) {
      if (ToleratesSuperset(kept, t)) redundant = true;
    }
    for (size_t j = i + 1; j < all.size() && !redundant; ++j) {
      // Of two equal tolerations the first stays.
      if (!(all[j] == t) && ToleratesSuperset(all[j], t)) redundant = true;
    }
    if (!redundant) merged.push_back(t);
  }
  return merged;
}

RuntimeClassAdmission::RuntimeClassAdmission(const std::vector<model::RuntimeClass>& classes) {
  for (const model::RuntimeClass& rc : classes) {
    by_key_.emplace(ClassKey(rc.cluster, rc.meta.name), &rc);
    clusters_.insert(rc.cluster);
  }
}

core::Status RuntimeClassAdmission::Admit(model::Pod* pod) const {
  if (pod->runtime_class_name.empty() || !clusters_.contains(pod->cluster)) {
    return core::OkStatus();
  }
  auto it = by_key_.find(ClassKey(pod->cluster, pod->runtime_class_name));
  if (it == by_key_.end()) {
    return core::NotFound("pod rejected: RuntimeClass \"" + pod->runtime_class_name +
                              "\" not found",
                          core::Location{"", "", "spec.runtimeClassName"});
  }
  const model::RuntimeClass& rc = *it->second;
  // setOverhead: a pod whose overhead is already set must carry the class's exactly.
  if (rc.overhead.has_value() && pod->overhead_given && !(pod->overhead == *rc.overhead)) {
    return core::InvalidArgument(
        "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
        core::Location{"", "", "spec.overhead"});
  }
  // setScheduling: every key of the class's selector must agree with the pod's.
  for (const auto& [key, value] : rc.node_selector) {
    auto found = pod->node_selector.find(key);
    if (found != pod->node_selector.end() && found->second != value) {
      return core::InvalidArgument("conflict: runtimeClass.scheduling.nodeSelector[" + key +
                                       "] = " + value + "; pod.spec.nodeSelector[" + key +
                                       "] = " + found->second,
                                   core::Location{"", "", "spec.nodeSelector"});
    }
  }
  if (rc.overhead.has_value()) {
    pod->overhead = *rc.overhead;
    pod->overhead_given = true;
  }
  for (const auto& [key, value] : rc.node_selector) pod->node_selector[key] = value;
  if (!rc.tolerations.empty()) pod->tolerations = MergeTolerations(pod->tolerations, rc.tolerations);
  return core::OkStatus();
}

}  // namespace berth::io::internal
