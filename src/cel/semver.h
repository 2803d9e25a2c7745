// Semver: a semantic version (semver.org 2.0.0), the value behind the Kubernetes CEL
// `semver` type (library.SemverLib) and DRA `version` attributes. Parsing follows
// blang/semver v4 Parse, which upstream uses: exactly MAJOR.MINOR.PATCH, no "v" prefix, no
// leading zeros, optional -prerelease and +build. Immutable value type; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::cel {

class Semver {
 public:
  Semver() = default;

  // Strict parse (semver("1.2.3")). InvalidArgument with blang/semver's message otherwise,
  // e.g. "No Major.Minor.Patch elements found".
  static core::Result<Semver> Parse(std::string_view text);

  // Parse with Kubernetes normalization (semver("v1.2", true)): drops one leading "v",
  // strips leading zeros of each dotted part, and fills a missing minor or patch with 0.
  static core::Result<Semver> ParseNormalized(std::string_view text);

  uint64_t major() const { return major_; }
  uint64_t minor() const { return minor_; }
  uint64_t patch() const { return patch_; }
  const std::vector<std::string>& prerelease() const { return prerelease_; }
  const std::vector<std::string>& build() const { return build_; }

  // -1, 0 or 1 with semver 2.0.0 precedence: numeric core first; a version without
  // prerelease ranks above one with it; prerelease identifiers compare numerically when both
  // are numeric, numeric below alphanumeric, otherwise bytewise; a shorter list that is a
  // prefix ranks lower. Build metadata is ignored.
  int Compare(const Semver& other) const;
  bool operator==(const Semver& other) const { return Compare(other) == 0; }

  // "1.2.3-rc.1+build.5".
  std::string ToString() const;

 private:
  uint64_t major_ = 0;
  uint64_t minor_ = 0;
  uint64_t patch_ = 0;
  std::vector<std::string> prerelease_;
  std::vector<std::string> build_;
};

}  // namespace berth::cel
