// Function semantics and error texts follow cel-go (common/types conversions, the standard
// string functions) and Kubernetes' apiserver CEL libraries (library/quantity.go,
// library/semverlib.go). Quantities are core::Quantity, exact in milli-units.
#include "cel/internal/functions.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "cel/internal/regex.h"
#include "cel/internal/text.h"
#include "cel/semver.h"
#include "core/quantity.h"

namespace berth::cel::internal {

namespace {

using core::Int128;
using core::Quantity;

constexpr TypeKind kDyn = TypeKind::kDyn;
constexpr TypeKind kBool = TypeKind::kBool;
constexpr TypeKind kInt = TypeKind::kInt;
constexpr TypeKind kUint = TypeKind::kUint;
constexpr TypeKind kDouble = TypeKind::kDouble;
constexpr TypeKind kString = TypeKind::kString;
constexpr TypeKind kBytes = TypeKind::kBytes;
constexpr TypeKind kList = TypeKind::kList;
constexpr TypeKind kMap = TypeKind::kMap;
constexpr TypeKind kQuantity = TypeKind::kQuantity;
constexpr TypeKind kSemver = TypeKind::kSemver;
constexpr TypeKind kType = TypeKind::kType;

Value ConversionError(const char* from, const char* to) {
  return Value::Error(std::string("type conversion error from '") + from + "' to '" + to + "'");
}

// ---- size ----

Value SizeString(const Value* a) {
  return Value::Int(static_cast<int64_t>(CodePointCount(a[0].string_value())));
}
Value SizeBytes(const Value* a) {
  return Value::Int(static_cast<int64_t>(a[0].bytes_value().size()));
}
Value SizeList(const Value* a) {
  return Value::Int(static_cast<int64_t>(a[0].list_value().Size()));
}
Value SizeMap(const Value* a) { return Value::Int(static_cast<int64_t>(a[0].map_value().Size())); }

// ---- strings ----

Value Contains(const Value* a) {
  return Value::Bool(a[0].string_value().find(a[1].string_value()) != std::string_view::npos);
}
Value StartsWith(const Value* a) {
  return Value::Bool(a[0].string_value().starts_with(a[1].string_value()));
}
Value EndsWith(const Value* a) {
  return Value::Bool(a[0].string_value().ends_with(a[1].string_value()));
}
Value Matches(const Value* a) {
  core::Result<std::unique_ptr<Regex>> re = Regex::Compile(a[1].string_value());
  if (!re.has_value()) return Value::Error(re.error().message());
  return Value::Bool((*re)->PartialMatch(a[0].string_value()));
}
Value LowerAscii(const Value* a) {
  std::string s(a[0].string_value());
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value::String(std::move(s));
}
Value UpperAscii(const Value* a) {
  std::string s(a[0].string_value());
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return Value::String(std::move(s));
}

// ---- conversions ----

Value Identity(const Value* a) { return a[0]; }

Value IntFromUint(const Value* a) {
  if (a[0].uint_value() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Value::Error("integer overflow");
  }
  return Value::Int(static_cast<int64_t>(a[0].uint_value()));
}
Value IntFromDouble(const Value* a) {
  double d = a[0].double_value();
  // cel-go doubleToInt64Checked: both ends of the int64 range are refused.
  if (std::isnan(d) || std::isinf(d) || d <= -9223372036854775808.0 || d >= 9223372036854775807.0) {
    return Value::Error("integer overflow");
  }
  return Value::Int(static_cast<int64_t>(d));
}
// strconv.ParseInt(s, 10, 64).
Value IntFromString(const Value* a) {
  std::string_view s = a[0].string_value();
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude);
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() ||
      magnitude > kMax + (negative ? 1 : 0)) {
    return ConversionError("string", "int");
  }
  return Value::Int(negative ? static_cast<int64_t>(0 - magnitude)
                             : static_cast<int64_t>(magnitude));
}

Value UintFromInt(const Value* a) {
  if (a[0].int_value() < 0) return Value::Error("unsigned integer overflow");
  return Value::Uint(static_cast<uint64_t>(a[0].int_value()));
}
Value UintFromDouble(const Value* a) {
  double d = a[0].double_value();
  if (std::isnan(d) || std::isinf(d) || d < 0 || d >= 18446744073709551616.0) {
    return Value::Error("unsigned integer overflow");
  }
  return Value::Uint(static_cast<uint64_t>(d));
}
Value UintFromString(const Value* a) {
  std::string_view s = a[0].string_value();
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    return ConversionError("string", "uint");
  }
  return Value::Uint(v);
}

Value DoubleFromInt(const Value* a) { return Value::Double(static_cast<double>(a[0].int_value())); }
Value DoubleFromUint(const Value* a) {
  return Value::Double(static_cast<double>(a[0].uint_value()));
}
// strconv.ParseFloat(s, 64) for decimal forms, inf, infinity and nan.
Value DoubleFromString(const Value* a) {
  std::string_view s = a[0].string_value();
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || s[0] == '-' || ec != std::errc() || ptr != s.data() + s.size()) {
    return ConversionError("string", "double");
  }
  return Value::Double(negative ? -v : v);
}

Value StringFromInt(const Value* a) { return Value::String(std::to_string(a[0].int_value())); }
Value StringFromUint(const Value* a) { return Value::String(std::to_string(a[0].uint_value())); }
Value StringFromDouble(const Value* a) { return Value::String(FormatDouble(a[0].double_value())); }
Value StringFromBool(const Value* a) {
  return Value::StringView(a[0].bool_value() ? "true" : "false");
}
Value StringFromBytes(const Value* a) {
  std::string_view b = a[0].bytes_value();
  if (!IsValidUtf8(b)) return Value::Error("invalid UTF-8 in bytes, cannot convert to string");
  return Value::String(std::string(b));
}

// strconv.ParseBool.
Value BoolFromString(const Value* a) {
  std::string_view s = a[0].string_value();
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") {
    return Value::Bool(true);
  }
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return Value::Bool(false);
  }
  return ConversionError("string", "bool");
}

Value BytesFromString(const Value* a) { return Value::Bytes(std::string(a[0].string_value())); }

Value TypeOf(const Value* a) {
  ValueKind k = a[0].kind();
  if (k == ValueKind::kType) return Value::Type("type");
  return Value::Type(ValueKindName(k));
}

// ---- quantity ----

Value QuantityFromString(const Value* a) {
  core::Result<Quantity> q = Quantity::Parse(a[0].string_value());
  if (!q.has_value()) return Value::Error(q.error().message());
  return Value::Quantity(*q);
}
Value IsQuantity(const Value* a) {
  return Value::Bool(Quantity::Parse(a[0].string_value()).has_value());
}
int QuantityCmp(const Value* a) {
  const Quantity& x = a[0].quantity_value();
  const Quantity& y = a[1].quantity_value();
  return x < y ? -1 : (y < x ? 1 : 0);
}
Value QuantityCompareTo(const Value* a) { return Value::Int(QuantityCmp(a)); }
Value QuantityIsGreaterThan(const Value* a) { return Value::Bool(QuantityCmp(a) == 1); }
Value QuantityIsLessThan(const Value* a) { return Value::Bool(QuantityCmp(a) == -1); }
Value QuantityAdd(const Value* a) {
  return Value::Quantity(a[0].quantity_value() + a[1].quantity_value());
}
Value QuantityAddInt(const Value* a) {
  return Value::Quantity(a[0].quantity_value() + Quantity::FromUnits(a[1].int_value()));
}
Value QuantitySub(const Value* a) {
  return Value::Quantity(a[0].quantity_value() - a[1].quantity_value());
}
Value QuantitySubInt(const Value* a) {
  return Value::Quantity(a[0].quantity_value() - Quantity::FromUnits(a[1].int_value()));
}
Value QuantityMulInt(const Value* a) {
  Int128 milli = 0;
  if (__builtin_mul_overflow(a[0].quantity_value().milli(), static_cast<Int128>(a[1].int_value()),
                             &milli)) {
    return Value::Error("integer overflow");
  }
  return Value::Quantity(Quantity::FromMilli(milli, a[0].quantity_value().format()));
}
// resource.Quantity.AsInt64: whole units that fit in int64.
bool QuantityAsInt64(const Quantity& q, int64_t* out) {
  if (!q.IsInteger()) return false;
  Int128 units = q.milli() / 1000;
  if (units > std::numeric_limits<int64_t>::max() || units < std::numeric_limits<int64_t>::min()) {
    return false;
  }
  *out = static_cast<int64_t>(units);
  return true;
}
Value QuantityAsInteger(const Value* a) {
  int64_t v = 0;
  if (!QuantityAsInt64(a[0].quantity_value(), &v)) {
    return Value::Error("cannot convert value to integer");
  }
  return Value::Int(v);
}
Value QuantityIsInteger(const Value* a) {
  int64_t v = 0;
  return Value::Bool(QuantityAsInt64(a[0].quantity_value(), &v));
}
Value QuantityAsApproximateFloat(const Value* a) {
  return Value::Double(static_cast<double>(a[0].quantity_value().milli()) / 1000.0);
}
Value QuantitySign(const Value* a) {
  Int128 m = a[0].quantity_value().milli();
  return Value::Int(m < 0 ? -1 : (m > 0 ? 1 : 0));
}

// ---- semver ----

Value SemverFromString(const Value* a) {
  core::Result<Semver> v = Semver::Parse(a[0].string_value());
  if (!v.has_value()) return Value::Error(v.error().message());
  return Value::Semver(std::move(v).value());
}
Value SemverFromStringNormalize(const Value* a) {
  core::Result<Semver> v = a[1].bool_value() ? Semver::ParseNormalized(a[0].string_value())
                                             : Semver::Parse(a[0].string_value());
  if (!v.has_value()) return Value::Error(v.error().message());
  return Value::Semver(std::move(v).value());
}
Value IsSemver(const Value* a) {
  return Value::Bool(Semver::Parse(a[0].string_value()).has_value());
}
Value IsSemverNormalize(const Value* a) {
  return Value::Bool((a[1].bool_value() ? Semver::ParseNormalized(a[0].string_value())
                                        : Semver::Parse(a[0].string_value()))
                         .has_value());
}
Value SemverCompareTo(const Value* a) {
  return Value::Int(a[0].semver_value().Compare(a[1].semver_value()));
}
Value SemverIsGreaterThan(const Value* a) {
  return Value::Bool(a[0].semver_value().Compare(a[1].semver_value()) == 1);
}
Value SemverIsLessThan(const Value* a) {
  return Value::Bool(a[0].semver_value().Compare(a[1].semver_value()) == -1);
}
Value VersionPart(uint64_t v) {
  if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Value::Error("integer overflow");
  }
  return Value::Int(static_cast<int64_t>(v));
}
Value SemverMajor(const Value* a) { return VersionPart(a[0].semver_value().major()); }
Value SemverMinor(const Value* a) { return VersionPart(a[0].semver_value().minor()); }
Value SemverPatch(const Value* a) { return VersionPart(a[0].semver_value().patch()); }

constexpr bool kGlobal = false;
constexpr bool kMember = true;

// Grouped by function name; the planner keeps the table order when several overloads fit.
constexpr auto kOverloads = std::to_array<Overload>({
    {"size", "size_string", kGlobal, 1, {kString}, kInt, SizeString},
    {"size", "size_bytes", kGlobal, 1, {kBytes}, kInt, SizeBytes},
    {"size", "size_list", kGlobal, 1, {kList}, kInt, SizeList},
    {"size", "size_map", kGlobal, 1, {kMap}, kInt, SizeMap},
    {"size", "string_size", kMember, 1, {kString}, kInt, SizeString},
    {"size", "bytes_size", kMember, 1, {kBytes}, kInt, SizeBytes},
    {"size", "list_size", kMember, 1, {kList}, kInt, SizeList},
    {"size", "map_size", kMember, 1, {kMap}, kInt, SizeMap},

    {"contains", "contains_string", kMember, 2, {kString, kString}, kBool, Contains},
    {"startsWith", "starts_with_string", kMember, 2, {kString, kString}, kBool, StartsWith},
    {"endsWith", "ends_with_string", kMember, 2, {kString, kString}, kBool, EndsWith},
    {"matches", "matches", kGlobal, 2, {kString, kString}, kBool, Matches},
    {"matches", "matches_string", kMember, 2, {kString, kString}, kBool, Matches},
    {"lowerAscii", "string_lower_ascii", kMember, 1, {kString}, kString, LowerAscii},
    {"upperAscii", "string_upper_ascii", kMember, 1, {kString}, kString, UpperAscii},

    {"int", "int64_to_int64", kGlobal, 1, {kInt}, kInt, Identity},
    {"int", "uint64_to_int64", kGlobal, 1, {kUint}, kInt, IntFromUint},
    {"int", "double_to_int64", kGlobal, 1, {kDouble}, kInt, IntFromDouble},
    {"int", "string_to_int64", kGlobal, 1, {kString}, kInt, IntFromString},
    {"uint", "uint64_to_uint64", kGlobal, 1, {kUint}, kUint, Identity},
    {"uint", "int64_to_uint64", kGlobal, 1, {kInt}, kUint, UintFromInt},
    {"uint", "double_to_uint64", kGlobal, 1, {kDouble}, kUint, UintFromDouble},
    {"uint", "string_to_uint64", kGlobal, 1, {kString}, kUint, UintFromString},
    {"double", "double_to_double", kGlobal, 1, {kDouble}, kDouble, Identity},
    {"double", "int64_to_double", kGlobal, 1, {kInt}, kDouble, DoubleFromInt},
    {"double", "uint64_to_double", kGlobal, 1, {kUint}, kDouble, DoubleFromUint},
    {"double", "string_to_double", kGlobal, 1, {kString}, kDouble, DoubleFromString},
    {"string", "string_to_string", kGlobal, 1, {kString}, kString, Identity},
    {"string", "int64_to_string", kGlobal, 1, {kInt}, kString, StringFromInt},
    {"string", "uint64_to_string", kGlobal, 1, {kUint}, kString, StringFromUint},
    {"string", "double_to_string", kGlobal, 1, {kDouble}, kString, StringFromDouble},
    {"string", "bool_to_string", kGlobal, 1, {kBool}, kString, StringFromBool},
    {"string", "bytes_to_string", kGlobal, 1, {kBytes}, kString, StringFromBytes},
    {"bool", "bool_to_bool", kGlobal, 1, {kBool}, kBool, Identity},
    {"bool", "string_to_bool", kGlobal, 1, {kString}, kBool, BoolFromString},
    {"bytes", "bytes_to_bytes", kGlobal, 1, {kBytes}, kBytes, Identity},
    {"bytes", "string_to_bytes", kGlobal, 1, {kString}, kBytes, BytesFromString},
    {"dyn", "to_dyn", kGlobal, 1, {kDyn}, kDyn, Identity},
    {"type", "type", kGlobal, 1, {kDyn}, kType, TypeOf},

    {"quantity", "string_to_quantity", kGlobal, 1, {kString}, kQuantity, QuantityFromString},
    {"isQuantity", "is_quantity_string", kGlobal, 1, {kString}, kBool, IsQuantity},
    {"compareTo",
     "quantity_compare_to",
     kMember,
     2,
     {kQuantity, kQuantity},
     kInt,
     QuantityCompareTo},
    {"compareTo", "semver_compare_to", kMember, 2, {kSemver, kSemver}, kInt, SemverCompareTo},
    {"isGreaterThan",
     "quantity_is_greater_than",
     kMember,
     2,
     {kQuantity, kQuantity},
     kBool,
     QuantityIsGreaterThan},
    {"isGreaterThan",
     "semver_is_greater_than",
     kMember,
     2,
     {kSemver, kSemver},
     kBool,
     SemverIsGreaterThan},
    {"isLessThan",
     "quantity_is_less_than",
     kMember,
     2,
     {kQuantity, kQuantity},
     kBool,
     QuantityIsLessThan},
    {"isLessThan", "semver_is_less_than", kMember, 2, {kSemver, kSemver}, kBool, SemverIsLessThan},
    {"add", "quantity_add", kMember, 2, {kQuantity, kQuantity}, kQuantity, QuantityAdd},
    {"add", "quantity_add_int", kMember, 2, {kQuantity, kInt}, kQuantity, QuantityAddInt},
    {"sub", "quantity_sub", kMember, 2, {kQuantity, kQuantity}, kQuantity, QuantitySub},
    {"sub", "quantity_sub_int", kMember, 2, {kQuantity, kInt}, kQuantity, QuantitySubInt},
    {"mul", "quantity_multiply_int", kMember, 2, {kQuantity, kInt}, kQuantity, QuantityMulInt},
    {"asInteger", "quantity_get_int", kMember, 1, {kQuantity}, kInt, QuantityAsInteger},
    {"isInteger", "quantity_is_integer", kMember, 1, {kQuantity}, kBool, QuantityIsInteger},
    {"asApproximateFloat",
     "quantity_get_float",
     kMember,
     1,
     {kQuantity},
     kDouble,
     QuantityAsApproximateFloat},
    // Upstream declares sign() as a global overload although its docs show q.sign();
    // berth accepts both spellings.
    {"sign", "quantity_sign", kGlobal, 1, {kQuantity}, kInt, QuantitySign},
    {"sign", "quantity_sign_member", kMember, 1, {kQuantity}, kInt, QuantitySign},

    {"semver", "string_to_semver", kGlobal, 1, {kString}, kSemver, SemverFromString},
    {"semver",
     "string_bool_to_semver",
     kGlobal,
     2,
     {kString, kBool},
     kSemver,
     SemverFromStringNormalize},
    {"isSemver", "is_semver_string", kGlobal, 1, {kString}, kBool, IsSemver},
    {"isSemver", "is_semver_string_bool", kGlobal, 2, {kString, kBool}, kBool, IsSemverNormalize},
    {"major", "semver_major", kMember, 1, {kSemver}, kInt, SemverMajor},
    {"minor", "semver_minor", kMember, 1, {kSemver}, kInt, SemverMinor},
    {"patch", "semver_patch", kMember, 1, {kSemver}, kInt, SemverPatch},
});

}  // namespace

std::span<const Overload> BuiltinOverloads() { return kOverloads; }

TypeKind TypeKindOf(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNull:
      return TypeKind::kNull;
    case ValueKind::kBool:
      return kBool;
    case ValueKind::kInt:
      return kInt;
    case ValueKind::kUint:
      return kUint;
    case ValueKind::kDouble:
      return kDouble;
    case ValueKind::kString:
      return kString;
    case ValueKind::kBytes:
      return kBytes;
    case ValueKind::kList:
      return kList;
    case ValueKind::kMap:
      return kMap;
    case ValueKind::kQuantity:
      return kQuantity;
    case ValueKind::kSemver:
      return kSemver;
    case ValueKind::kType:
      return kType;
    case ValueKind::kError:
      return kDyn;
  }
  return kDyn;
}

bool KindAccepts(TypeKind param, ValueKind actual) {
  if (param == kDyn) return true;
  TypeKind k = TypeKindOf(actual);
  // Host objects are maps at run time.
  if (param == TypeKind::kObject) return k == kMap;
  return param == k;
}

}  // namespace berth::cel::internal
