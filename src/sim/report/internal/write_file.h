// The report writers' file system steps. WriteFileAtomically: one report file written to PATH.tmp
// and renamed into place. Used by WriteReport and WriteModelLoadReport. Internal to sim/report.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.h"

namespace berth::sim::report::internal {

// Creates DIR and its parents when missing. kUnavailable naming DIR when it cannot, or when
// it is not a directory.
core::Status CreateReportDirectory(const std::string& dir);

// Errors: kUnavailable naming the path when the file cannot be created, written or renamed.
core::Status WriteFileAtomically(const std::filesystem::path& path, const std::string& bytes);

}  // namespace berth::sim::report::internal
