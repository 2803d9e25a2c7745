// Value keeps scalars inline and owned payloads behind one shared_ptr, so copying a borrowed
// value (the common case while evaluating a selector) is a few word copies.
#include "cel/value.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cel/internal/text.h"
#include "cel/internal/value_access.h"
#include "core/check.h"

namespace berth::cel {

namespace {

class VectorList final : public ListValue {
 public:
  explicit VectorList(std::vector<Value> items) : items_(std::move(items)) {}
  size_t Size() const override { return items_.size(); }
  Value At(size_t index) const override { return items_[index]; }

 private:
  std::vector<Value> items_;
};

// The int64 a numeric key stands for, when it stands for one: CEL map keys compare across
// int, uint and double by value (1 == 1u == 1.0).
std::optional<int64_t> NumericKeyAsInt(const Value& k) {
  switch (k.kind()) {
    case ValueKind::kInt:
      return k.int_value();
    case ValueKind::kUint:
      if (k.uint_value() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return static_cast<int64_t>(k.uint_value());
      }
      return std::nullopt;
    case ValueKind::kDouble: {
      double d = k.double_value();
      if (std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        return static_cast<int64_t>(d);
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> NumericKeyAsUint(const Value& k) {
  switch (k.kind()) {
    case ValueKind::kUint:
      return k.uint_value();
    case ValueKind::kDouble: {
      double d = k.double_value();
      if (std::trunc(d) == d && d >= 0 && d < 18446744073709551616.0) {
        return static_cast<uint64_t>(d);
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

bool IsNumeric(ValueKind k) {
  return k == ValueKind::kInt || k == ValueKind::kUint || k == ValueKind::kDouble;
}

bool KeyEquals(const Value& a, const Value& b) {
  if (IsNumeric(a.kind()) && IsNumeric(b.kind())) {
    std::optional<int64_t> ai = NumericKeyAsInt(a);
    std::optional<int64_t> bi = NumericKeyAsInt(b);
    if (ai.has_value() || bi.has_value()) return ai == bi;
    std::optional<uint64_t> au = NumericKeyAsUint(a);
    std::optional<uint64_t> bu = NumericKeyAsUint(b);
    return au.has_value() && au == bu;
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::kBool:
      return a.bool_value() == b.bool_value();
    case ValueKind::kString:
      return a.string_value() == b.string_value();
    default:
      return false;
  }
}

size_t KeyHash(const Value& k) {
  switch (k.kind()) {
    case ValueKind::kBool:
      return k.bool_value() ? 0x9e3779b9u : 0x85ebca6bu;
    case ValueKind::kString:
      return std::hash<std::string_view>()(k.string_value());
    case ValueKind::kInt:
    case ValueKind::kUint:
    case ValueKind::kDouble:
      if (std::optional<int64_t> i = NumericKeyAsInt(k)) return std::hash<int64_t>()(*i);
      if (std::optional<uint64_t> u = NumericKeyAsUint(k)) return std::hash<uint64_t>()(*u);
      return 0;
    default:
      return 0;
  }
}

bool IsValidKeyKind(ValueKind k) {
  return k == ValueKind::kBool || k == ValueKind::kInt || k == ValueKind::kUint ||
         k == ValueKind::kString;
}

// Small maps scan linearly; larger ones add a hash index from key hash to entry positions.
class VectorMap final : public MapValue {
 public:
  static constexpr size_t kIndexThreshold = 8;

  size_t Size() const override { return entries_.size(); }
  std::optional<Value> Find(const Value& key) const override {
    const std::pair<Value, Value>* e = FindEntry(key);
    if (e == nullptr) return std::nullopt;
    return e->second;
  }
  bool Contains(const Value& key) const override { return FindEntry(key) != nullptr; }
  Value KeyAt(size_t index) const override { return entries_[index].first; }

  // Returns false on a repeated key.
  bool Add(Value key, Value value) {
    if (FindEntry(key) != nullptr) return false;
    if (!index_.empty() || entries_.size() + 1 > kIndexThreshold) {
      if (index_.empty()) {
        for (size_t i = 0; i < entries_.size(); ++i) {
          index_.emplace(KeyHash(entries_[i].first), i);
        }
      }
      index_.emplace(KeyHash(key), entries_.size());
    }
    entries_.emplace_back(std::move(key), std::move(value));
    return true;
  }

 private:
  const std::pair<Value, Value>* FindEntry(const Value& key) const {
    if (index_.empty()) {
      for (const auto& e : entries_) {
        if (KeyEquals(e.first, key)) return &e;
      }
      return nullptr;
    }
    auto [lo, hi] = index_.equal_range(KeyHash(key));
    for (auto it = lo; it != hi; ++it) {
      if (KeyEquals(entries_[it->second].first, key)) return &entries_[it->second];
    }
    return nullptr;
  }

  std::vector<std::pair<Value, Value>> entries_;
  std::unordered_multimap<size_t, size_t> index_;
};

}  // namespace

bool MapValue::Contains(const Value& key) const { return Find(key).has_value(); }

const char* ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNull:
      return "null_type";
    case ValueKind::kBool:
      return "bool";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kUint:
      return "uint";
    case ValueKind::kDouble:
      return "double";
    case ValueKind::kString:
      return "string";
    case ValueKind::kBytes:
      return "bytes";
    case ValueKind::kList:
      return "list";
    case ValueKind::kMap:
      return "map";
    case ValueKind::kQuantity:
      return "kubernetes.Quantity";
    case ValueKind::kSemver:
      return "kubernetes.Semver";
    case ValueKind::kType:
      return "type";
    case ValueKind::kError:
      return "error";
  }
  return "unknown";
}

namespace {

// The text payload of strings, bytes and errors lives in a shared std::string.
std::shared_ptr<const std::string> OwnText(std::string text) {
  return std::make_shared<const std::string>(std::move(text));
}

}  // namespace

Value Value::String(std::string v) {
  auto owned = OwnText(std::move(v));
  Value out = StringView(*owned);
  out.owner_ = std::move(owned);
  return out;
}

Value Value::Bytes(std::string v) {
  auto owned = OwnText(std::move(v));
  Value out = BytesView(*owned);
  out.owner_ = std::move(owned);
  return out;
}

Value Value::List(std::vector<Value> items) {
  auto owned = std::make_shared<const VectorList>(std::move(items));
  Value out = ListView(owned.get());
  out.owner_ = std::move(owned);
  return out;
}

Value Value::Map(std::vector<std::pair<Value, Value>> entries) {
  auto map = std::make_shared<VectorMap>();
  for (auto& [key, value] : entries) {
    if (!IsValidKeyKind(key.kind())) return Error("unsupported key type");
    if (!map->Add(std::move(key), std::move(value))) return Error("Failed with repeated key");
  }
  Value out = MapView(map.get());
  out.owner_ = std::shared_ptr<const MapValue>(std::move(map));
  return out;
}

Value Value::Quantity(core::Quantity v) {
  auto owned = std::make_shared<const core::Quantity>(v);
  Value out = QuantityView(owned.get());
  out.owner_ = std::move(owned);
  return out;
}

Value Value::Semver(cel::Semver v) {
  auto owned = std::make_shared<const cel::Semver>(std::move(v));
  Value out = SemverView(owned.get());
  out.owner_ = std::move(owned);
  return out;
}

Value Value::Type(const char* name) {
  Value out;
  out.kind_ = ValueKind::kType;
  out.rep_.chars = name;
  out.size_ = std::strlen(name);
  return out;
}

Value Value::Error(std::string message) {
  auto owned = OwnText(std::move(message));
  Value out;
  out.kind_ = ValueKind::kError;
  out.rep_.chars = owned->data();
  out.size_ = owned->size();
  out.owner_ = std::move(owned);
  return out;
}

bool Value::owns_payload() const {
  switch (kind_) {
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kList:
    case ValueKind::kMap:
    case ValueKind::kQuantity:
    case ValueKind::kSemver:
    case ValueKind::kError:
      return owner_ != nullptr;
    default:
      return true;
  }
}

std::string Value::DebugString() const {
  switch (kind_) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kBool:
      return rep_.b ? "true" : "false";
    case ValueKind::kInt:
      return std::to_string(rep_.i);
    case ValueKind::kUint:
      return std::to_string(rep_.u) + "u";
    case ValueKind::kDouble:
      return internal::FormatDouble(rep_.d);
    case ValueKind::kString:
      return internal::QuoteString(string_value());
    case ValueKind::kBytes:
      return internal::QuoteBytes(bytes_value());
    case ValueKind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < rep_.list->Size(); ++i) {
        if (i > 0) out += ", ";
        out += rep_.list->At(i).DebugString();
      }
      return out + "]";
    }
    case ValueKind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < rep_.map->Size(); ++i) {
        if (i > 0) out += ", ";
        Value key = rep_.map->KeyAt(i);
        out += key.DebugString();
        out += ": ";
        std::optional<Value> v = rep_.map->Find(key);
        out += v.has_value() ? v->DebugString() : "?";
      }
      return out + "}";
    }
    case ValueKind::kQuantity:
      return "quantity(\"" + rep_.quantity->ToString() + "\")";
    case ValueKind::kSemver:
      return "semver(\"" + rep_.semver->ToString() + "\")";
    case ValueKind::kType:
      return std::string(type_name());
    case ValueKind::kError:
      return "error(" + internal::QuoteString(error_message()) + ")";
  }
  return "?";
}

bool ValueAccess::IsSelfContained(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kList: {
      if (v.owner_ == nullptr) return false;
      const ListValue& list = v.list_value();
      for (size_t i = 0; i < list.Size(); ++i) {
        if (!IsSelfContained(list.At(i))) return false;
      }
      return true;
    }
    case ValueKind::kMap: {
      if (v.owner_ == nullptr) return false;
      const MapValue& map = v.map_value();
      for (size_t i = 0; i < map.Size(); ++i) {
        Value key = map.KeyAt(i);
        std::optional<Value> value = map.Find(key);
        if (!IsSelfContained(key) || !value.has_value() || !IsSelfContained(*value)) {
          return false;
        }
      }
      return true;
    }
    default:
      return v.owns_payload();
  }
}

Value ValueAccess::MakeOwned(const Value& v) {
  if (IsSelfContained(v)) return v;
  switch (v.kind()) {
    case ValueKind::kString:
      return Value::String(std::string(v.string_value()));
    case ValueKind::kBytes:
      return Value::Bytes(std::string(v.bytes_value()));
    case ValueKind::kList: {
      std::vector<Value> items;
      const ListValue& list = v.list_value();
      items.reserve(list.Size());
      for (size_t i = 0; i < list.Size(); ++i) items.push_back(MakeOwned(list.At(i)));
      return Value::List(std::move(items));
    }
    case ValueKind::kMap: {
      std::vector<std::pair<Value, Value>> entries;
      const MapValue& map = v.map_value();
      entries.reserve(map.Size());
      for (size_t i = 0; i < map.Size(); ++i) {
        Value key = map.KeyAt(i);
        std::optional<Value> value = map.Find(key);
        entries.emplace_back(MakeOwned(key), value.has_value() ? MakeOwned(*value) : Value());
      }
      return Value::Map(std::move(entries));
    }
    case ValueKind::kQuantity:
      return Value::Quantity(v.quantity_value());
    case ValueKind::kSemver:
      return Value::Semver(v.semver_value());
    case ValueKind::kError:
      return Value::Error(std::string(v.error_message()));
    default:
      return v;
  }
}

}  // namespace berth::cel
