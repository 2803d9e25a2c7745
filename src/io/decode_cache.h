// DecodeCache: what a Reader decoded from each object of a long-lived source (the hub's
// store), kept between reads so that Reader::ReadCached decodes only the objects whose
// version changed since the last read and copies what it decoded for the others. Owned by
// the caller across reads (the hub's scheduling loop keeps one for its life). Not
// thread-safe: one read at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace berth::io {

namespace internal {
struct DecodeCacheState;
}  // namespace internal

// One object of the source, as Reader::ReadCached reads it.
struct SourceObject {
  std::string_view key;   // unique among one read's objects (the store's group/kind/ns/name)
  int64_t version = 0;    // differs whenever the text does (the store's resourceVersion)
  std::string_view json;  // the object as JSON text
};

class DecodeCache {
 public:
  DecodeCache();
  ~DecodeCache();
  DecodeCache(DecodeCache&&) noexcept;
  DecodeCache& operator=(DecodeCache&&) noexcept;

  // Objects held: those the last ReadCached read.
  size_t size() const;
  // Objects the last ReadCached decoded (new or changed); the rest were copied.
  size_t last_decoded() const;

 private:
  friend class Reader;
  std::unique_ptr<internal::DecodeCacheState> state_;
};

}  // namespace berth::io
