// ProgramCache: compiled programs keyed by expression text, for one Environment and one set
// of CompileOptions, so that a selector repeated across claims, classes and cycles is
// compiled once. Compile errors are cached too. Thread-safe: lookups take a mutex; the
// returned Program pointers stay valid, and evaluable concurrently, for the cache's life.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "cel/environment.h"
#include "cel/program.h"
#include "core/result.h"

namespace berth::cel {

class ProgramCache {
 public:
  // `env` must outlive the cache.
  explicit ProgramCache(const Environment& env, CompileOptions options = {});
  ProgramCache(const ProgramCache&) = delete;
  ProgramCache& operator=(const ProgramCache&) = delete;

  // The program for `expression`, compiling it on first sight; the same compile error on
  // every lookup of a bad expression. O(length of expression) per hit (one hash).
  core::Result<const Program*> Get(std::string_view expression);

  // Distinct expressions seen (good and bad).
  size_t size() const;
  const Environment& environment() const { return env_; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  const Environment& env_;
  const CompileOptions options_;
  mutable std::mutex mu_;
  // Guarded by mu_. Entries are never erased, so pointers into them stay valid.
  std::unordered_map<std::string, std::unique_ptr<core::Result<Program>>, Hash, std::equal_to<>>
      programs_;
};

}  // namespace berth::cel
