// Type: the static type of a CEL expression, as the compiler checks it (cel-go's checker
// types, reduced to what berth's subset needs). An Environment declares variables with a
// Type; the compiler infers the rest, rejecting at compile time what cannot work for any
// input ("a" + 1, device.nosuchfield). kDyn stands for "known only at run time".
// Immutable value type; cheap to copy (shared, immutable detail); thread-compatible.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace berth::cel {

enum class TypeKind : uint8_t {
  kDyn,
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
  kObject,  // a host object with declared fields (e.g. kubernetes.DRADevice)
};

class Type {
 public:
  struct Field;

  // dyn.
  Type() = default;

  static Type Dyn() { return Type(TypeKind::kDyn); }
  static Type Null() { return Type(TypeKind::kNull); }
  static Type Bool() { return Type(TypeKind::kBool); }
  static Type Int() { return Type(TypeKind::kInt); }
  static Type Uint() { return Type(TypeKind::kUint); }
  static Type Double() { return Type(TypeKind::kDouble); }
  static Type String() { return Type(TypeKind::kString); }
  static Type Bytes() { return Type(TypeKind::kBytes); }
  static Type Quantity() { return Type(TypeKind::kQuantity); }
  static Type Semver() { return Type(TypeKind::kSemver); }
  static Type TypeOfTypes() { return Type(TypeKind::kType); }
  static Type List(Type elem);
  static Type Map(Type key, Type value);
  // An object whose runtime value is a map keyed by field name (a MapValue the host
  // provides). Selecting an undeclared field is a compile error.
  static Type Object(std::string name, std::vector<Field> fields);

  TypeKind kind() const { return kind_; }
  bool is_dyn() const { return kind_ == TypeKind::kDyn; }

  // List element type; dyn unless kind() == kList.
  Type elem() const;
  // Map key and value types; dyn unless kind() == kMap.
  Type key() const;
  Type value() const;
  // Object name and fields; empty unless kind() == kObject.
  std::string_view object_name() const;
  std::span<const Field> fields() const;
  // The declared field, or nullptr.
  const Field* FindField(std::string_view name) const;

  // cel-go's spelling: "int", "list(string)", "map(string, dyn)", "kubernetes.Quantity",
  // "null", "kubernetes.DRADevice".
  std::string ToString() const;

  // Structural equality (object types by name).
  bool operator==(const Type& other) const;

 private:
  struct Detail;
  explicit Type(TypeKind kind) : kind_(kind) {}

  TypeKind kind_ = TypeKind::kDyn;
  std::shared_ptr<const Detail> detail_;
};

struct Type::Field {
  std::string name;
  Type type;
};

}  // namespace berth::cel
