// RuntimeClassAdmission: what kube-apiserver's RuntimeClass admission plugin does to a pod
// at creation (plugin/pkg/admission/runtimeclass): the pod's overhead set from its class's
// overhead.podFixed, the class's scheduling.nodeSelector merged into the pod's nodeSelector
// and its scheduling.tolerations into the pod's tolerations. Reader::Finish applies it to
// given pods and to workloads' pod templates, beside the PriorityResolver. Internal to io;
// immutable after construction.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/result.h"
#include "core/taint.h"
#include "model/cluster_config.h"
#include "model/pod.h"

namespace berth::io::internal {

class RuntimeClassAdmission {
 public:
  // Indexes the classes read by (cluster, name). Borrows `classes`, which must outlive it.
  explicit RuntimeClassAdmission(const std::vector<model::RuntimeClass>& classes);

  // Applies the class pod->runtime_class_name names in pod->cluster. Nothing happens when
  // the pod names no class, or when the input gave no RuntimeClass for the pod's cluster (a
  // dump without them: there is nothing to look the name up in; docs/limits.md). Errors,
  // with upstream's texts, and the pod left as it was:
  //   NotFound, field spec.runtimeClassName: `pod rejected: RuntimeClass "X" not found`;
  //   InvalidArgument, field spec.overhead: the pod's given overhead differs from the class's;
  //   InvalidArgument, field spec.nodeSelector: a key of the class's nodeSelector has
  //   another value in the pod's.
  core::Status Admit(model::Pod* pod) const;

 private:
  std::unordered_map<std::string, const model::RuntimeClass*> by_key_;  // cluster \x1f name
  std::unordered_set<std::string> clusters_;                            // clusters with classes
};

// Upstream tolerations.MergeTolerations: `first` then `second`, dropping every toleration
// another one in the list already covers (isSuperset); of two equal ones the first stays.
std::vector<core::Toleration> MergeTolerations(const std::vector<core::Toleration>& first,
                                               const std::vector<core::Toleration>& second);

}  // namespace berth::io::internal
