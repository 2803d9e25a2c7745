// Decoders of Fluid's kinds (data.fluid.io/v1alpha1, fluid_v1alpha1.cc): Dataset, the cache
// runtimes and DataLoad. Same contract as decoders.h: the decoded value or the first error
// with the field path relative to the object; a status Fluid writes in a form berth cannot
// read is left unset, not an error. Reached only through the table of kinds. Internal to
// io; stateless.
#pragma once

#include <simdjson.h>

#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "model/data_objects.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// spec.mounts[].mountPoint parsed (s3, gs, oss, hdfs, pvc, local, https, http), the cache's
// spec.nodeAffinity.required, status phase, ufsTotal and cacheStates.
core::Result<model::Dataset> DecodeDataset(simdjson::dom::object obj);
// AlluxioRuntime, JuiceFSRuntime or JindoRuntime (`kind`): replicas, tiered store levels
// (medium MEM|SSD|HDD, quota or quotaList, high/low watermarks), ready workers, cacheStates.
core::Result<model::DataRuntime> DecodeDataRuntime(simdjson::dom::object obj,
                                                   std::string_view kind);
// The dataset it loads (namespace defaulting to the DataLoad's), target paths, policy.
core::Result<model::DataLoad> DecodeDataLoad(simdjson::dom::object obj);

// Indices into snap.datasets of the datasets no cache runtime in the input serves (one of
// the same cluster, namespace and name): Fluid binds a Dataset only to its runtime, so such
// a one stays NotBound and caches nothing. With the error to report for each.
std::vector<std::pair<size_t, core::Error>> DatasetsWithoutRuntime(const model::Snapshot& snap);

}  // namespace berth::io::internal
