// DocumentStore: the original text of every object read, as compact JSON, so that writers
// can patch berth's decisions into the object as it was read and leave every other field
// (unknown fields, annotations, managedFields) unchanged (DESIGN.md, plan contract).
// Model objects point here with SourceRef. Append-only; not thread-safe while reading.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/object_meta.h"

namespace berth::io {

// A document's JSON text: either its own string, or a view of a buffer the DocumentStore
// keeps alive (the file a compact dump was read from: its items are stored compact already,
// so the store points into it instead of holding a second copy of the input).
class DocumentText {
 public:
  DocumentText() = default;
  DocumentText(std::string text) : owned_(std::move(text)) {}  // NOLINT: implicit, as a string
  DocumentText& operator=(std::string text) {
    owned_ = std::move(text);
    view_ = {};
    is_view_ = false;
    return *this;
  }
  // `text` must outlive the document: a buffer given to DocumentStore::KeepAlive.
  static DocumentText ViewOf(std::string_view text) {
    DocumentText t;
    t.view_ = text;
    t.is_view_ = true;
    return t;
  }

  std::string_view view() const { return is_view_ ? view_ : std::string_view(owned_); }
  operator std::string_view() const { return view(); }          // NOLINT: reads as a string
  operator std::string() const { return std::string(view()); }  // NOLINT
  const char* data() const { return view().data(); }
  size_t size() const { return view().size(); }
  bool empty() const { return view().empty(); }
  const char* begin() const { return data(); }
  const char* end() const { return data() + size(); }
  friend bool operator==(const DocumentText& a, std::string_view b) { return a.view() == b; }

 private:
  std::string owned_;
  std::string_view view_;  // when is_view_ (a moved std::string may move its bytes: no view)
  bool is_view_ = false;
};

struct Document {
  std::string file;  // where it was read ("<stdin>", "<demo>", a path)
  std::string api_version;
  std::string kind;
  std::string namespace_;
  std::string name;
  DocumentText json;  // the object as JSON text, key order as read
};

// Move-only: documents are held by address (a copy would point into the original).
class DocumentStore {
 public:
  DocumentStore() = default;
  DocumentStore(DocumentStore&&) noexcept = default;
  DocumentStore& operator=(DocumentStore&&) noexcept = default;
  DocumentStore(const DocumentStore&) = delete;
  DocumentStore& operator=(const DocumentStore&) = delete;

  model::SourceRef Add(Document doc);
  // A document `owner` holds (a cached decode, io::DecodeCache): referred to, not copied;
  // `owner` is kept alive as long as the store.
  model::SourceRef AddShared(std::shared_ptr<const void> owner, const Document* doc);
  // Valid as long as the store; Add never moves a document.
  const Document& Get(model::SourceRef ref) const;
  size_t size() const { return docs_.size(); }

  // Keeps `buffer` (whatever owns the bytes DocumentText::ViewOf views) as long as the store.
  void KeepAlive(std::shared_ptr<const void> buffer) { buffers_.push_back(std::move(buffer)); }

 private:
  std::deque<Document> owned_;  // a deque: elements never move as it grows
  std::vector<const Document*> docs_;
  std::vector<std::shared_ptr<const void>> buffers_;
};

}  // namespace berth::io
