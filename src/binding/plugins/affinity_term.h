// AffinityTerm: one inter-pod affinity or anti-affinity term, prepared the way kube-scheduler
// sees it: matchLabelKeys / mismatchLabelKeys already merged into the label selector (the
// API server does that when the pod is created), the namespace list defaulted to the owner's
// namespace, and the namespace selector kept for matching. Immutable value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "binding/framework/namespace_table.h"
#include "core/labels.h"
#include "core/selector.h"
#include "model/pod.h"

namespace berth::binding {

// Whose term it is decides how a namespaceSelector meets a namespace without an object:
// kIncoming terms are resolved by listing Namespace objects (upstream
// mergeAffinityTermNamespacesIfNotEmpty), so a missing namespace never matches; kExisting
// terms are matched against the incoming pod's namespace labels, empty when missing.
enum class TermOwner { kIncoming, kExisting };

class AffinityTerm {
 public:
  AffinityTerm(const model::PodAffinityTerm& term, int32_t weight, const model::Pod& owner);

  // True when the term selects a pod in namespace `ns` carrying `labels`.
  bool Matches(const std::string& ns, const core::Labels& labels, const NamespaceTable& namespaces,
               TermOwner owner) const;

  const std::string& topology_key() const { return topology_key_; }
  int32_t weight() const { return weight_; }

 private:
  enum class NamespaceSelectorKind { kNone, kAll, kLabels };

  std::optional<core::LabelSelector> selector_;  // nullopt selects no pod
  std::vector<std::string> namespaces_;          // sorted
  NamespaceSelectorKind ns_kind_ = NamespaceSelectorKind::kNone;
  core::LabelSelector ns_selector_;
  std::string topology_key_;
  int32_t weight_ = 0;
};

}  // namespace berth::binding
