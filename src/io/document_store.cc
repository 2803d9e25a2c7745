#include "io/document_store.h"

#include <utility>

#include "core/check.h"

namespace berth::io {

model::SourceRef DocumentStore::Add(Document doc) {
  owned_.push_back(std::move(doc));
  docs_.push_back(&owned_.back());
  return model::SourceRef{static_cast<int32_t>(docs_.size() - 1)};
}

model::SourceRef DocumentStore::AddShared(std::shared_ptr<const void> owner, const Document* doc) {
  buffers_.push_back(std::move(owner));
  docs_.push_back(doc);
  return model::SourceRef{static_cast<int32_t>(docs_.size() - 1)};
}

const Document& DocumentStore::Get(model::SourceRef ref) const {
  // Refs are handed out by Add and AddShared only, and documents are never removed.
  BERTH_CHECK(ref.valid() && static_cast<size_t>(ref.document) < docs_.size(),
              "DocumentStore::Get with a ref this store did not hand out");
  return *docs_[static_cast<size_t>(ref.document)];
}

}  // namespace berth::io
