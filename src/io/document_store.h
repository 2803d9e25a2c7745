// DocumentStore: the original text of every object read, as compact JSON, so that writers
// can patch berth's decisions into the object as it was read and leave every other field
// (unknown fields, annotations, managedFields) unchanged (DESIGN.md, plan contract).
// Model objects point here with SourceRef. Append-only; not thread-safe while reading.
#pragma once

#include <string>
#include <vector>

#include "model/object_meta.h"

namespace berth::io {

struct Document {
  std::string file;  // where it was read ("<stdin>", "<demo>", a path)
  std::string api_version;
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string json;  // the object as JSON text, key order as read
};

class DocumentStore {
 public:
  model::SourceRef Add(Document doc);
  const Document& Get(model::SourceRef ref) const;
  size_t size() const { return docs_.size(); }

 private:
  std::vector<Document> docs_;
};

}  // namespace berth::io
