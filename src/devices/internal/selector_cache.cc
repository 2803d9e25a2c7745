#include "devices/internal/selector_cache.h"

#include <tuple>

namespace berth::devices::internal {

SelectorCache::SelectorCache(SelectorMatcher& matcher, const PoolIndex& pools)
    : matcher_(matcher), pools_(pools) {}

core::Result<std::vector<int32_t>> SelectorCache::CompileAll(
    const std::vector<model::DeviceSelector>& selectors, int32_t* failed) {
  std::vector<int32_t> out;
  out.reserve(selectors.size());
  for (size_t i = 0; i < selectors.size(); ++i) {
    const std::string& expr = selectors[i].cel_expression;
    auto it = programs_.find(expr);
    if (it == programs_.end()) it = programs_.emplace(expr, matcher_.Compile(expr)).first;
    if (!it->second.has_value()) {
      *failed = static_cast<int32_t>(i);
      return it->second.error();
    }
    out.push_back(*it->second);
  }
  return out;
}

SelectorSetId SelectorCache::Intern(int32_t class_index, const std::vector<int32_t>& class_programs,
                                    const std::vector<int32_t>& request_programs) {
  auto key = std::make_tuple(class_index, class_programs, request_programs);
  auto [it, fresh] = set_ids_.try_emplace(key, static_cast<int32_t>(sets_.size()));
  if (fresh) sets_.push_back(Set{class_index, class_programs, request_programs, {}});
  return SelectorSetId{it->second};
}

SelectorMatch SelectorCache::Evaluate(SelectorSetId set_id, DeviceRecordId device) {
  const Set& set = sets_[set_id.v];
  const model::ResourceSlice& slice = pools_.slice_of(device);
  const model::Device& dev = pools_.device(device);
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<int32_t>& programs = pass == 0 ? set.class_programs : set.request_programs;
    for (size_t i = 0; i < programs.size(); ++i) {
      ++evaluations_;
      core::Result<bool> r = matcher_.Matches(programs[i], slice.driver, dev);
      if (!r.has_value()) {
        errors_[{set_id.v, device.v}] =
            SelectorError{pass == 0, static_cast<int32_t>(i), r.error().message()};
        return SelectorMatch::kError;
      }
      if (!*r) return SelectorMatch::kNo;
    }
  }
  return SelectorMatch::kYes;
}

const SelectorError& SelectorCache::ErrorOf(SelectorSetId set, DeviceRecordId device) const {
  return errors_.at({set.v, device.v});
}

size_t SelectorCache::MemoryBytes() const {
  size_t bytes = sets_.capacity() * sizeof(Set);
  for (const Set& s : sets_) bytes += s.memo.capacity();
  return bytes;
}

}  // namespace berth::devices::internal
