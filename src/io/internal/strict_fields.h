// Strict decoding of component configuration files, as kube-scheduler and Kueue load theirs
// (apimachinery's strict serializer, sigs.k8s.io/json): a field the type does not declare
// is an error, and the component refuses to start. Used by the KubeSchedulerConfiguration
// and Kueue Configuration decoders only; API objects stay lenient (the API server drops
// unknown fields of those with a warning). Internal to io; stateless.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

// Appends the path of every key of `obj` that is not in `known` to `unknown`, in document
// order: `prefix` + "." + key, or the key alone when `prefix` is empty.
void CollectUnknownFields(dom::object obj, std::initializer_list<std::string_view> known,
                          std::string_view prefix, std::vector<std::string>* unknown);

// The error the strict decoder returns for `unknown` (not empty), worded as upstream's
// runtime.NewStrictDecodingError prints it:
//   strict decoding error: unknown field "a.b", unknown field "c"
core::Error StrictDecodingError(const std::vector<std::string>& unknown);

}  // namespace berth::io::internal
