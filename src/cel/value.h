// Value: one CEL runtime value (null, bool, int, uint, double, string, bytes, list, map,
// kubernetes.Quantity, kubernetes.Semver, type, or an evaluation error), plus the ListValue
// and MapValue interfaces through which a host exposes its own data without copying it.
// Used by Program::Evaluate (results), Activation (inputs) and hosts such as DraDevice.
// Values are immutable and cheap to copy; thread-compatible (a Value may be read from many
// threads; owned payloads are reference counted with std::shared_ptr).
//
// Ownership: a Value either owns its payload (built with String(), List(), Quantity(), ...)
// or borrows it (StringView(), ListView(), QuantityView(), ...). A borrowed Value is valid
// only while the borrowed data lives; the evaluator never copies borrowed host data, which
// is what makes evaluating one compiled selector against thousands of devices cheap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/semver.h"
#include "core/check.h"
#include "core/quantity.h"

namespace berth::cel {

class Value;

enum class ValueKind : uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kQuantity,
  kSemver,
  kType,
  kError,
};

// The CEL type name of a kind as cel-go prints it: "null_type", "int", "list",
// "kubernetes.Quantity", ... ("error" for kError).
const char* ValueKindName(ValueKind kind);

// A list the host owns. Implementations must be immutable while any Value refers to them.
class ListValue {
 public:
  virtual ~ListValue() = default;
  virtual size_t Size() const = 0;
  // Precondition: index < Size().
  virtual Value At(size_t index) const = 0;
};

// A map the host owns (CEL keys are bool, int, uint or string). Implementations must be
// immutable while any Value refers to them. Find and Contains run on the hot path of every
// selector evaluation: keep them allocation-free.
class MapValue {
 public:
  virtual ~MapValue() = default;
  virtual size_t Size() const = 0;
  // The value under `key`, or nullopt when absent ("no such key" for the caller). A key of
  // a kind the map cannot hold is simply absent. A map may answer for keys it does not
  // list (DRA's attribute maps return an empty map for an unknown domain).
  virtual std::optional<Value> Find(const Value& key) const = 0;
  // Presence for `in` and has(); defaults to Find().has_value().
  virtual bool Contains(const Value& key) const;
  // The index-th key, 0 <= index < Size(), in a fixed order: iteration for the macros
  // (all, exists, map, ...) and for map equality.
  virtual Value KeyAt(size_t index) const = 0;
};

class Value {
 public:
  // null.
  Value() = default;

  static Value Null() { return {}; }
  static Value Bool(bool v);
  static Value Int(int64_t v);
  static Value Uint(uint64_t v);
  static Value Double(double v);
  // Owned copy / borrowed view of UTF-8 text.
  static Value String(std::string v);
  static Value StringView(std::string_view v);
  static Value Bytes(std::string v);
  static Value BytesView(std::string_view v);
  static Value List(std::vector<Value> items);
  static Value ListView(const ListValue* list);
  // An owned map. Keys must be bool, int, uint or string and distinct (int 1 and uint 1u
  // are the same key); otherwise the result is an error value ("unsupported key type",
  // "Failed with repeated key"). Lookup is O(1) expected; iteration keeps this order.
  static Value Map(std::vector<std::pair<Value, Value>> entries);
  static Value MapView(const MapValue* map);
  static Value Quantity(core::Quantity v);
  static Value QuantityView(const core::Quantity* v);
  static Value Semver(cel::Semver v);
  static Value SemverView(const cel::Semver* v);
  // A type value, as type(x) returns; `name` must have static storage ("int", "list", ...).
  static Value Type(const char* name);
  // An evaluation error: the message follows cel-go ("no such key: x", "division by zero").
  static Value Error(std::string message);

  ValueKind kind() const { return kind_; }
  bool is_error() const { return kind_ == ValueKind::kError; }
  bool is_null() const { return kind_ == ValueKind::kNull; }

  // Accessors; each has the precondition kind() == the matching kind.
  bool bool_value() const;
  int64_t int_value() const;
  uint64_t uint_value() const;
  double double_value() const;
  std::string_view string_value() const;
  std::string_view bytes_value() const;
  const ListValue& list_value() const;
  const MapValue& map_value() const;
  const core::Quantity& quantity_value() const;
  const cel::Semver& semver_value() const;
  std::string_view type_name() const;
  std::string_view error_message() const;

  // True when this Value keeps its payload alive by itself (scalars, null and owned
  // payloads), false when it borrows from host or program data.
  bool owns_payload() const;

  // A readable rendering for messages and tests: 1, 2u, 1.5, "text", b"\x00", [1, 2],
  // {"a": 1}, quantity("40Gi"), semver("1.2.3"), int (a type), error("...").
  std::string DebugString() const;

 private:
  friend class ValueAccess;

  union Rep {
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    const char* chars;
    const ListValue* list;
    const MapValue* map;
    const core::Quantity* quantity;
    const cel::Semver* semver;
  };

  // A value of `kind` that holds `v` in the Rep member `field` and owns nothing.
  template <typename T>
  static Value Make(ValueKind kind, T Rep::*field, T v) {
    Value out;
    out.kind_ = kind;
    out.rep_.*field = v;
    return out;
  }

  ValueKind kind_ = ValueKind::kNull;
  Rep rep_{.i = 0};
  size_t size_ = 0;  // length of chars for strings, bytes, types and errors
  std::shared_ptr<const void> owner_;
};

// Scalars, views and accessors are defined here so that the evaluator's hot path inlines
// them.

inline Value Value::Bool(bool v) { return Make(ValueKind::kBool, &Rep::b, v); }

inline Value Value::Int(int64_t v) { return Make(ValueKind::kInt, &Rep::i, v); }

inline Value Value::Uint(uint64_t v) { return Make(ValueKind::kUint, &Rep::u, v); }

inline Value Value::Double(double v) { return Make(ValueKind::kDouble, &Rep::d, v); }

inline Value Value::StringView(std::string_view v) {
  Value out = Make(ValueKind::kString, &Rep::chars, v.data());
  out.size_ = v.size();
  return out;
}

inline Value Value::BytesView(std::string_view v) {
  Value out = Make(ValueKind::kBytes, &Rep::chars, v.data());
  out.size_ = v.size();
  return out;
}

inline Value Value::ListView(const ListValue* list) {
  BERTH_CHECK(list != nullptr, "Value::ListView needs a list");
  return Make(ValueKind::kList, &Rep::list, list);
}

inline Value Value::MapView(const MapValue* map) {
  BERTH_CHECK(map != nullptr, "Value::MapView needs a map");
  return Make(ValueKind::kMap, &Rep::map, map);
}

inline Value Value::QuantityView(const core::Quantity* v) {
  BERTH_CHECK(v != nullptr, "Value::QuantityView needs a quantity");
  return Make(ValueKind::kQuantity, &Rep::quantity, v);
}

inline Value Value::SemverView(const cel::Semver* v) {
  BERTH_CHECK(v != nullptr, "Value::SemverView needs a semver");
  return Make(ValueKind::kSemver, &Rep::semver, v);
}

inline bool Value::bool_value() const {
  BERTH_DCHECK(kind_ == ValueKind::kBool, "not a bool");
  return rep_.b;
}

inline int64_t Value::int_value() const {
  BERTH_DCHECK(kind_ == ValueKind::kInt, "not an int");
  return rep_.i;
}

inline uint64_t Value::uint_value() const {
  BERTH_DCHECK(kind_ == ValueKind::kUint, "not a uint");
  return rep_.u;
}

inline double Value::double_value() const {
  BERTH_DCHECK(kind_ == ValueKind::kDouble, "not a double");
  return rep_.d;
}

inline std::string_view Value::string_value() const {
  BERTH_DCHECK(kind_ == ValueKind::kString, "not a string");
  return {rep_.chars, size_};
}

inline std::string_view Value::bytes_value() const {
  BERTH_DCHECK(kind_ == ValueKind::kBytes, "not bytes");
  return {rep_.chars, size_};
}

// The pointer accessors check the kind always: a wrong kind would dereference garbage.
inline const ListValue& Value::list_value() const {
  BERTH_CHECK(kind_ == ValueKind::kList, "not a list");
  return *rep_.list;
}

inline const MapValue& Value::map_value() const {
  BERTH_CHECK(kind_ == ValueKind::kMap, "not a map");
  return *rep_.map;
}

inline const core::Quantity& Value::quantity_value() const {
  BERTH_CHECK(kind_ == ValueKind::kQuantity, "not a quantity");
  return *rep_.quantity;
}

inline const cel::Semver& Value::semver_value() const {
  BERTH_CHECK(kind_ == ValueKind::kSemver, "not a semver");
  return *rep_.semver;
}

inline std::string_view Value::type_name() const {
  BERTH_DCHECK(kind_ == ValueKind::kType, "not a type");
  return {rep_.chars, size_};
}

inline std::string_view Value::error_message() const {
  BERTH_DCHECK(kind_ == ValueKind::kError, "not an error");
  return {rep_.chars, size_};
}

}  // namespace berth::cel
