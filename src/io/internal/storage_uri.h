// Storage URIs as KServe's storageUri and Fluid's mountPoint write them, parsed into
// model::StorageLocation: which scheme, which bucket, host, claim or registry, which path.
// Internal to io; pure functions.
#pragma once

#include <string_view>

#include "core/result.h"
#include "model/data_objects.h"

namespace berth::io::internal {

// Which schemes a caller accepts.
enum class UriSchemes {
  kKServe,  // s3, gs, hf, pvc, oci, https, http (KServe's storage initializer and ModelCar)
  kFluid,   // s3, gs, oss, hdfs, pvc, local, https, http (Fluid's UFS mount points)
};

// `uri` parsed; an error (no field: the caller adds it) says what is wrong with it: no
// "scheme://", a scheme the caller does not accept (the accepted ones listed), or a missing
// bucket, host, claim, repository or path where the scheme needs one.
core::Result<model::StorageLocation> ParseStorageUri(std::string_view uri, UriSchemes schemes);

}  // namespace berth::io::internal
