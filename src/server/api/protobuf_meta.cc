// The wire format is read by hand (Debian's protobuf runtime would need k8s.io's generated
// messages, which are Go-only): varints and length-delimited fields, each read bounded by what
// is left of its enclosing message. Field numbers are generated.proto's:
//   runtime.Unknown {TypeMeta typeMeta = 1 {apiVersion = 1, kind = 2}; bytes raw = 2;
//                    string contentEncoding = 3; string contentType = 4}
//   Namespace {ObjectMeta metadata = 1; NamespaceSpec spec = 2 {repeated string finalizers = 1};
//              NamespaceStatus status = 3}
//   ObjectMeta {name = 1; generateName = 2; namespace = 3; ... labels = 11 and annotations = 12
//               (map<string,string>: entries {key = 1, value = 2}); finalizers = 14}
#include "server/api/protobuf_meta.h"

#include <cstdint>
#include <optional>
#include <string>

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kMagic("k8s\0", 4);
constexpr std::string_view kReadableTypes[] = {"application/json"};

struct Field {
  uint32_t number = 0;
  uint32_t wire = 0;
  uint64_t varint = 0;
  std::string_view bytes;
};

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool done() const { return pos_ >= data_.size(); }
  // The next field; nullopt when the bytes are not protobuf.
  std::optional<Field> Next() {
    auto key = Varint();
    if (!key) return std::nullopt;
    Field f;
    f.number = static_cast<uint32_t>(*key >> 3);
    f.wire = static_cast<uint32_t>(*key & 7);
    if (f.wire == 0) {
      auto v = Varint();
      if (!v) return std::nullopt;
      f.varint = *v;
    } else if (f.wire == 2) {
      auto len = Varint();
      if (!len || *len > data_.size() - pos_) return std::nullopt;
      f.bytes = data_.substr(pos_, static_cast<size_t>(*len));
      pos_ += static_cast<size_t>(*len);
    } else {
      return std::nullopt;  // fixed-width fields do not occur in what this reads
    }
    return f;
  }

 private:
  std::optional<uint64_t> Varint() {
    uint64_t out = 0;
    for (int shift = 0; shift < 64 && pos_ < data_.size(); shift += 7) {
      const auto b = static_cast<uint8_t>(data_[pos_++]);
      out |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return out;
    }
    return std::nullopt;
  }
  std::string_view data_;
  size_t pos_ = 0;
};

ApiError Unsupported() { return UnsupportedMediaTypeError(kReadableTypes); }

// Go writes every field of a message, zero values included (an empty string, 0, an empty
// message): a field or message of zero values says nothing and is skipped.
bool IsZero(const Field& f) { return f.wire == 0 ? f.varint == 0 : f.bytes.empty(); }

bool IsEmptyMessage(std::string_view bytes) {
  Reader r(bytes);
  while (!r.done()) {
    auto f = r.Next();
    if (!f || !IsZero(*f)) return false;
  }
  return true;
}
ApiError Malformed() { return BadRequestError("the protobuf body does not parse"); }

ApiResult<Json> StringMap(std::string_view entry, Json& map) {
  Reader r(entry);
  std::string key, value;
  while (!r.done()) {
    auto f = r.Next();
    if (!f || f->wire != 2) return Malformed();
    if (f->number == 1) key = std::string(f->bytes);
    if (f->number == 2) value = std::string(f->bytes);
  }
  map[key] = value;
  return map;
}

ApiResult<Json> ObjectMeta(std::string_view bytes) {
  Json meta = Json::object();
  Reader r(bytes);
  while (!r.done()) {
    auto f = r.Next();
    if (!f) return Malformed();
    if (IsZero(*f)) continue;
    if (f->wire != 2) return Unsupported();
    switch (f->number) {
      case 1:
        meta["name"] = std::string(f->bytes);
        break;
      case 2:
        meta["generateName"] = std::string(f->bytes);
        break;
      case 3:
        meta["namespace"] = std::string(f->bytes);
        break;
      case 11:
      case 12: {
        Json& map = meta[f->number == 11 ? "labels" : "annotations"];
        if (!map.is_object()) map = Json::object();
        auto ok = StringMap(f->bytes, map);
        if (!ok) return ok.error();
        break;
      }
      case 14:
        meta["finalizers"].push_back(std::string(f->bytes));
        break;
      default:
        if (!IsEmptyMessage(f->bytes)) return Unsupported();
        break;
    }
  }
  return meta;
}

}  // namespace

ApiResult<Json> MetadataObjectFromProtobuf(std::string_view body) {
  if (!body.starts_with(kMagic)) return Unsupported();
  Reader envelope(body.substr(kMagic.size()));
  std::string api_version, kind;
  std::string_view raw;
  while (!envelope.done()) {
    auto f = envelope.Next();
    if (!f) return Malformed();
    if (f->number == 1 && f->wire == 2) {
      Reader type_meta(f->bytes);
      while (!type_meta.done()) {
        auto t = type_meta.Next();
        if (!t || t->wire != 2) return Malformed();
        if (t->number == 1) api_version = std::string(t->bytes);
        if (t->number == 2) kind = std::string(t->bytes);
      }
    } else if (f->number == 2 && f->wire == 2) {
      raw = f->bytes;
    } else if ((f->number == 3 || f->number == 4) && f->wire == 2) {
      if (f->number == 3 && !f->bytes.empty()) return Unsupported();  // a content encoding
    } else {
      return Malformed();
    }
  }
  if (kind.empty()) return Unsupported();
  Json object = Json::object();
  object["apiVersion"] = api_version;
  object["kind"] = kind;
  Reader r(raw);
  while (!r.done()) {
    auto f = r.Next();
    if (!f) return Malformed();
    if (IsZero(*f)) continue;
    if (f->wire != 2) return Unsupported();
    if (f->number == 1) {
      auto meta = ObjectMeta(f->bytes);
      if (!meta) return meta.error();
      object["metadata"] = std::move(meta).value();
    } else if (IsEmptyMessage(f->bytes)) {
      continue;  // an empty spec or status
    } else if ((f->number == 2 || f->number == 3) && kind == "Namespace") {
      // A spec of finalizers only (what the API server defaults).
      Reader inner(f->bytes);
      while (!inner.done()) {
        auto g = inner.Next();
        if (!g) return Malformed();
        if (IsZero(*g)) continue;
        if (f->number == 3 || g->number != 1 || g->wire != 2) return Unsupported();
        object["spec"]["finalizers"].push_back(std::string(g->bytes));
      }
    } else {
      return Unsupported();
    }
  }
  return object;
}

}  // namespace berth::server
