// What `berth doctor` reports: one Finding per (rule, object, field), with the severity, the
// object it is about, the field, the message in the operator's words and the fix. Plain data.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/object_meta.h"

namespace berth::diag {

// Ordered: a finding is "at or above" --fail-on when its severity compares >= it.
enum class Severity { kInfo = 0, kWarning = 1, kError = 2 };

std::string_view SeverityName(Severity s);  // "info", "warning", "error"
std::optional<Severity> ParseSeverity(std::string_view text);

// The object a finding is about, as kubectl names it, and where it was read.
struct ObjectRef {
  std::string api_version;  // "v1", "kueue.x-k8s.io/v1beta2"
  std::string kind;
  std::string namespace_;  // empty for cluster-scoped objects
  std::string name;
  std::string cluster;  // the member cluster ("default" without --cluster)
  model::SourceRef source;
  core::Labels labels;  // the object's, for -l

  bool operator==(const ObjectRef& o) const {
    return kind == o.kind && namespace_ == o.namespace_ && name == o.name && cluster == o.cluster;
  }
};

struct Finding {
  std::string rule;  // the rule's stable kebab-case id
  Severity severity = Severity::kWarning;
  ObjectRef object;
  std::string field;  // JSON path in the object ("spec.template.spec.tolerations"); may be empty
  std::string message;
  std::string fix;
};

}  // namespace berth::diag
