// The names dispatch gives: a planned ManifestWork's metadata.name and the value of its
// berth.dev/workload label (model::kWorkloadLabel), both cut to Kubernetes' limits with a
// stable hash suffix. Called by BuildManifestWork and StaleManifestWorks (which must find
// the works an earlier plan made, so these rules are part of berth's output contract).
// Pure functions; thread-safe; linear in the length of the names.
#pragma once

#include <cstddef>
#include <string>

#include "model/kueue.h"

namespace berth::dispatch {

inline constexpr size_t kMaxObjectNameLength = 253;  // a DNS-1123 subdomain
inline constexpr size_t kMaxLabelValueLength = 63;

// `text` itself when it has at most `max_length` characters; otherwise its first
// max_length - 17 characters with trailing '.', '-' and '_' dropped, then '-' and the 16
// lower-case hex digits of the 64-bit FNV-1a hash of the whole `text`. The same text always
// gives the same result; two texts that share the kept prefix differ in the suffix.
// Precondition: max_length > 17.
std::string BoundedName(const std::string& text, size_t max_length);

// "<namespace>.<name>" of the hub Workload, bounded to kMaxObjectNameLength. A namespace
// holds no dots, so the first dot splits the two unambiguously ("a-b"/"c" and "a"/"b-c"
// would collide with '-'), and the result is a DNS-1123 subdomain when both parts are.
std::string ManifestWorkName(const model::Workload& workload);

// "<namespace>.<name>" bounded to kMaxLabelValueLength: the berth.dev/workload label value
// of every ManifestWork planned for `workload`.
std::string WorkloadLabelValue(const model::Workload& workload);

}  // namespace berth::dispatch
