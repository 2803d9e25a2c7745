// PriorityClass (scheduling.k8s.io/v1) and Namespace (v1): small cluster-scoped objects.
#pragma once

#include <cstdint>
#include <string>

#include "model/object_meta.h"

namespace berth::model {

struct PriorityClass {
  ObjectMeta meta;
  int32_t value = 0;
  bool global_default = false;
  std::string preemption_policy = "PreemptLowerPriority";
  SourceRef source;
};

struct Namespace {
  ObjectMeta meta;
  SourceRef source;
};

}  // namespace berth::model
