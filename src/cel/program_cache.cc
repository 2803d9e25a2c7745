#include "cel/program_cache.h"

#include <utility>

namespace berth::cel {

ProgramCache::ProgramCache(const Environment& env, CompileOptions options)
    : env_(env), options_(options) {}

core::Result<const Program*> ProgramCache::Get(std::string_view expression) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = programs_.find(expression);
  if (it == programs_.end()) {
    // Compiling under the lock keeps one compilation per expression; compiles are rare and
    // short next to the evaluations they serve.
    auto compiled = std::make_unique<core::Result<Program>>(Compile(expression, env_, options_));
    it = programs_.emplace(std::string(expression), std::move(compiled)).first;
  }
  const core::Result<Program>& entry = *it->second;
  if (!entry.has_value()) return entry.error();
  return &entry.value();
}

size_t ProgramCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return programs_.size();
}

}  // namespace berth::cel
