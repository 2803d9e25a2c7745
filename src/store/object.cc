#include "store/object.h"

#include <utility>

namespace berth::store {

std::string ObjectKey::ToString() const {
  std::string out = kind;
  if (!group.empty()) {
    out += "." + group;
  }
  out += "/";
  if (!ns.empty()) {
    out += ns + "/";
  }
  return out + name;
}

Mutation Mutation::Create(ObjectKey key, std::string json,
                          std::map<std::string, std::string> labels) {
  Mutation m;
  m.type = MutationType::kCreate;
  m.key = std::move(key);
  m.json = std::move(json);
  m.labels = std::move(labels);
  return m;
}

Mutation Mutation::Update(ObjectKey key, std::string json, int64_t expected_rv,
                          std::map<std::string, std::string> labels) {
  Mutation m;
  m.type = MutationType::kUpdate;
  m.key = std::move(key);
  m.json = std::move(json);
  m.expected_rv = expected_rv;
  m.labels = std::move(labels);
  return m;
}

Mutation Mutation::Delete(ObjectKey key, int64_t expected_rv) {
  Mutation m;
  m.type = MutationType::kDelete;
  m.key = std::move(key);
  m.expected_rv = expected_rv;
  return m;
}

const char* EventTypeName(EventType type) {
  switch (type) {
    case EventType::kAdded:
      return "ADDED";
    case EventType::kModified:
      return "MODIFIED";
    case EventType::kDeleted:
      return "DELETED";
  }
  return "UNKNOWN";
}

}  // namespace berth::store
