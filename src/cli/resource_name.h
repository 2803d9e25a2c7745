// kubectl's resource naming for the targets berth's commands take (explain, rollout, why):
// `TYPE/NAME` or `TYPE/NAMESPACE/NAME`, TYPE case-insensitive as the kind's singular,
// plural or short name from model's table of kinds (`pod`, `pods`, `po`, `Pod`, `deploy`,
// `cq`, `mwrs`), optionally qualified by its group (`jobs.batch`, `workload.kueue.x-k8s.io`);
// and "did you mean" for an unknown type or a name that is not in the input.
// Pure functions over constant data and a snapshot; thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "model/kind_info.h"
#include "model/object_meta.h"
#include "model/snapshot.h"

namespace berth::cli {

struct ResourceName {
  const model::KindInfo* kind = nullptr;  // never null in a parsed name
  std::string namespace_;                 // empty: not given (cluster-scoped, or any)
  std::string name;

  // "NAMESPACE/NAME" when a namespace is known, else "NAME": what engine's Find* take.
  std::string Key() const { return namespace_.empty() ? name : namespace_ + "/" + name; }
};

// The kind TYPE names: the served row whose lower-case kind, plural or a short name equals
// TYPE case-insensitively (`TYPE.GROUP` narrows to that group), first in the table's order
// when several do (batch's Job before Volcano's), plus berth's alias `wl` for Kueue's
// Workload. InvalidArgument `the server doesn't have a resource type "podz"; did you mean
// "pods"?` otherwise (kubectl's words). O(kinds).
core::Result<const model::KindInfo*> ResolveResourceType(std::string_view type);

// Parses `TYPE/NAME` or `TYPE/NAMESPACE/NAME`. A name without a namespace of a namespaced
// kind takes `default_namespace` (-n; may be empty: any namespace). Errors (InvalidArgument):
// an unknown type (above), no `/`, an empty part, more than three parts, a namespace given
// for a cluster-scoped kind, or a namespace that differs from a non-empty -n.
core::Result<ResourceName> ParseResourceName(std::string_view text,
                                             std::string_view default_namespace = "");

// kubectl's two-word form as well: {"TYPE/NAME"} or {"TYPE", "NAME"} (NAME may then be
// NAMESPACE/NAME too). InvalidArgument for zero or more than two words.
core::Result<ResourceName> ParseResourceWords(const std::vector<std::string>& words,
                                              std::string_view default_namespace = "");

// Calls `visit` with the metadata of every object of `kind` in `snapshot` (pods include
// those expanded from workloads; workload kinds are the given workload objects). Returns
// false, visiting nothing, for a kind berth does not keep in a snapshot. O(objects of kind).
bool ForEachObjectOfKind(const model::Snapshot& snapshot, const model::KindInfo& kind,
                         const std::function<void(const model::ObjectMeta&)>& visit);

// The NotFound error for `target`, worded as kubectl's (`pods "train-O" not found`, with
// ` in namespace "ml"` when the target has one) with the closest existing object of its kind
// suggested (`; did you mean "train-0"?`): first among the names in the target's namespace,
// then among NAMESPACE/NAME of every namespace. suggest.h's Closest decides what is close.
core::Error NotFoundError(const model::Snapshot& snapshot, const ResourceName& target);

// OK when an object of target's kind with its name (and namespace, when given) is in
// `snapshot`, or when berth does not keep that kind; else NotFoundError.
core::Status CheckExists(const model::Snapshot& snapshot, const ResourceName& target);

// kubectl -o name's type word for `kind`: the lower-case kind, then `.GROUP` outside the
// core group ("pod", "job.batch", "workload.kueue.x-k8s.io"). ParseResourceName reads it back.
std::string NameOutputType(const model::KindInfo& kind);

}  // namespace berth::cli
