#include "binding/plugins/affinity_term.h"

#include <algorithm>

namespace berth::binding {

AffinityTerm::AffinityTerm(const model::PodAffinityTerm& term, int32_t weight,
                           const model::Pod& owner)
    : selector_(term.label_selector), topology_key_(term.topology_key), weight_(weight) {
  // The API server merges the label keys only into a present selector: a nil selector
  // selects nothing and stays that way.
  if (selector_.has_value()) {
    for (const std::string& key : term.match_label_keys) {
      auto it = owner.meta.labels.find(key);
      if (it == owner.meta.labels.end()) continue;
      selector_->match_expressions.push_back({key, core::SelectorOp::kIn, {it->second}});
    }
    for (const std::string& key : term.mismatch_label_keys) {
      auto it = owner.meta.labels.find(key);
      if (it == owner.meta.labels.end()) continue;
      selector_->match_expressions.push_back({key, core::SelectorOp::kNotIn, {it->second}});
    }
  }
  namespaces_ = term.namespaces;
  if (namespaces_.empty() && !term.namespace_selector.has_value()) {
    namespaces_.push_back(owner.meta.namespace_);
  }
  std::sort(namespaces_.begin(), namespaces_.end());
  if (term.namespace_selector.has_value()) {
    if (term.namespace_selector->Empty()) {
      ns_kind_ = NamespaceSelectorKind::kAll;
    } else {
      ns_kind_ = NamespaceSelectorKind::kLabels;
      ns_selector_ = *term.namespace_selector;
    }
  }
}

bool AffinityTerm::Matches(const std::string& ns, const core::Labels& labels,
                           const NamespaceTable& namespaces, TermOwner owner) const {
  bool ns_match = std::binary_search(namespaces_.begin(), namespaces_.end(), ns);
  if (!ns_match) {
    switch (ns_kind_) {
      case NamespaceSelectorKind::kNone:
        break;
      case NamespaceSelectorKind::kAll:
        ns_match = true;
        break;
      case NamespaceSelectorKind::kLabels: {
        const core::Labels* ns_labels = namespaces.Find(ns);
        if (ns_labels != nullptr) {
          ns_match = ns_selector_.Matches(*ns_labels);
        } else if (owner == TermOwner::kExisting) {
          ns_match = ns_selector_.Matches(core::Labels{});
        }
        break;
      }
    }
  }
  return ns_match && selector_.has_value() && selector_->Matches(labels);
}

}  // namespace berth::binding
