// ObjectFilter: kubectl's -n/--namespace, -A/--all-namespaces and -l/--selector as one value
// the commands apply to what they PRINT (plan's items, inventory's pods and nodes, doctor's
// findings), never to what they plan: the engine still sees every object, so a filtered plan
// decides exactly as the whole one. Plain value; thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/labels.h"
#include "core/result.h"
#include "core/selector.h"

namespace berth::cli {

// The flags as given (main.cc binds them to strings).
struct ObjectFilterFlags {
  std::string namespace_;       // -n; empty: not given
  bool all_namespaces = false;  // -A
  std::string selector;         // -l, kubectl's syntax (core/selector_text.h)
};

class ObjectFilter {
 public:
  // Everything passes.
  ObjectFilter() = default;

  // Parses -l (InvalidArgument naming the flag: `-l: unable to parse requirement: ...`).
  // -A wins over -n, as in kubectl. Without either, every namespace passes: berth prints a
  // whole input, which is not one namespace of a live cluster.
  static core::Result<ObjectFilter> FromFlags(const ObjectFilterFlags& flags);

  // Whether an object in `object_namespace` ("" for cluster-scoped) with `labels` is printed:
  // its namespace is the filter's (cluster-scoped objects always pass the namespace test, as
  // `kubectl get nodes -n x` lists nodes) and its labels match every requirement of -l.
  bool Matches(std::string_view object_namespace, const core::Labels& labels) const;
  bool MatchesNamespace(std::string_view object_namespace) const;
  bool MatchesLabels(const core::Labels& labels) const;

  // The namespace -n named, unless -A: the default namespace of a target without one.
  const std::string& default_namespace() const { return namespace_; }
  bool has_selector() const { return !selector_.empty(); }
  // Whether something is filtered out at all.
  bool active() const { return !namespace_.empty() || !selector_.empty(); }

 private:
  std::string namespace_;
  std::vector<core::SelectorRequirement> selector_;
};

}  // namespace berth::cli
