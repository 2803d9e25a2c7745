#include "io/decode_cache.h"

#include "io/internal/decoded_object.h"

namespace berth::io {

DecodeCache::DecodeCache() : state_(std::make_unique<internal::DecodeCacheState>()) {}
DecodeCache::~DecodeCache() = default;
DecodeCache::DecodeCache(DecodeCache&&) noexcept = default;
DecodeCache& DecodeCache::operator=(DecodeCache&&) noexcept = default;

size_t DecodeCache::size() const { return state_->entries.size(); }
size_t DecodeCache::last_decoded() const { return state_->last_decoded; }

}  // namespace berth::io
