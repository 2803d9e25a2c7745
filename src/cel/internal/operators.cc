// Operator semantics follow cel-go's common/types package: checked arithmetic
// (overflow.go), cross-type numeric ordering (compare.go), heterogeneous equality
// (util.go Equal), and the error texts users of cel-go see.
#include "cel/internal/operators.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace berth::cel::internal {

namespace {

constexpr const char* kIntOverflow = "integer overflow";
constexpr const char* kUintOverflow = "unsigned integer overflow";

bool IsNumeric(ValueKind k) {
  return k == ValueKind::kInt || k == ValueKind::kUint || k == ValueKind::kDouble;
}

// compare.go: -1, 0, 1 across int, uint and double (no NaN here).
int CompareIntUint(int64_t i, uint64_t u) {
  if (i < 0 || u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return -1;
  int64_t d = i - static_cast<int64_t>(u);
  return d < 0 ? -1 : (d > 0 ? 1 : 0);
}

int CompareDoubles(double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); }

int CompareDoubleInt(double d, int64_t i) {
  if (d < -9223372036854775808.0) return -1;
  if (d > 9223372036854775807.0) return 1;
  return CompareDoubles(d, static_cast<double>(i));
}

int CompareDoubleUint(double d, uint64_t u) {
  if (d < 0) return -1;
  if (d > 18446744073709551615.0) return 1;
  return CompareDoubles(d, static_cast<double>(u));
}

template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Numeric comparison; false when either side is NaN (not ordered).
bool CompareNumbers(const Value& a, const Value& b, int* out) {
  ValueKind ka = a.kind();
  ValueKind kb = b.kind();
  if ((ka == ValueKind::kDouble && std::isnan(a.double_value())) ||
      (kb == ValueKind::kDouble && std::isnan(b.double_value()))) {
    return false;
  }
  if (ka == ValueKind::kInt) {
    if (kb == ValueKind::kInt) *out = Cmp(a.int_value(), b.int_value());
    if (kb == ValueKind::kUint) *out = CompareIntUint(a.int_value(), b.uint_value());
    if (kb == ValueKind::kDouble) *out = -CompareDoubleInt(b.double_value(), a.int_value());
  } else if (ka == ValueKind::kUint) {
    if (kb == ValueKind::kInt) *out = -CompareIntUint(b.int_value(), a.uint_value());
    if (kb == ValueKind::kUint) *out = Cmp(a.uint_value(), b.uint_value());
    if (kb == ValueKind::kDouble) *out = -CompareDoubleUint(b.double_value(), a.uint_value());
  } else {
    if (kb == ValueKind::kInt) *out = CompareDoubleInt(a.double_value(), b.int_value());
    if (kb == ValueKind::kUint) *out = CompareDoubleUint(a.double_value(), b.uint_value());
    if (kb == ValueKind::kDouble) *out = CompareDoubles(a.double_value(), b.double_value());
  }
  return true;
}

// Ordering for the relational operators; an error Value when the kinds do not order.
Value Order(std::string_view op, const Value& a, const Value& b, int* out) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  ValueKind ka = a.kind();
  if (IsNumeric(ka) && IsNumeric(b.kind())) {
    if (!CompareNumbers(a, b, out)) return Value::Error("NaN values cannot be ordered");
    return {};
  }
  if (ka == b.kind()) {
    switch (ka) {
      case ValueKind::kString:
        *out = a.string_value().compare(b.string_value());
        *out = *out < 0 ? -1 : (*out > 0 ? 1 : 0);
        return {};
      case ValueKind::kBytes:
        *out = a.bytes_value().compare(b.bytes_value());
        *out = *out < 0 ? -1 : (*out > 0 ? 1 : 0);
        return {};
      case ValueKind::kBool:
        *out = Cmp(a.bool_value(), b.bool_value());
        return {};
      default:
        break;
    }
  }
  return NoMatchingOverload(op, a, b);
}

template <typename Pred>
Value Relational(std::string_view op, const Value& a, const Value& b, Pred pred) {
  int c = 0;
  Value err = Order(op, a, b, &c);
  if (!err.is_null()) return err;
  return Value::Bool(pred(c));
}

std::string Signature(const Value* args, size_t count, bool receiver) {
  std::string out;
  size_t first = 0;
  if (receiver && count > 0) {
    out += ValueKindName(args[0].kind());
    out += '.';
    first = 1;
  }
  out += '(';
  for (size_t i = first; i < count; ++i) {
    if (i > first) out += ", ";
    out += ValueKindName(args[i].kind());
  }
  out += ')';
  return out;
}

// Index of an integral int, uint or double; false otherwise.
bool IntegralIndex(const Value& v, int64_t* out) {
  switch (v.kind()) {
    case ValueKind::kInt:
      *out = v.int_value();
      return true;
    case ValueKind::kUint:
      if (v.uint_value() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        *out = std::numeric_limits<int64_t>::max();
      } else {
        *out = static_cast<int64_t>(v.uint_value());
      }
      return true;
    case ValueKind::kDouble: {
      double d = v.double_value();
      if (std::trunc(d) != d || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
        return false;
      }
      *out = static_cast<int64_t>(d);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

Value NoMatchingOverload(std::string_view function, const Value* args, size_t count,
                         bool receiver) {
  std::string message = "no matching overload for '";
  message += function;
  message += "' applied to '";
  message += Signature(args, count, receiver);
  message += "'";
  return Value::Error(std::move(message));
}

Value NoMatchingOverload(std::string_view function, const Value& a) {
  return NoMatchingOverload(function, &a, 1);
}

Value NoMatchingOverload(std::string_view function, const Value& a, const Value& b) {
  const std::array<Value, 2> args = {a, b};
  return NoMatchingOverload(function, args.data(), args.size());
}

bool ValuesEqual(const Value& a, const Value& b) {
  ValueKind ka = a.kind();
  if (IsNumeric(ka) && IsNumeric(b.kind())) {
    int c = 0;
    return CompareNumbers(a, b, &c) && c == 0;
  }
  if (ka != b.kind()) return false;
  switch (ka) {
    case ValueKind::kNull:
      return true;
    case ValueKind::kBool:
      return a.bool_value() == b.bool_value();
    case ValueKind::kString:
      return a.string_value() == b.string_value();
    case ValueKind::kBytes:
      return a.bytes_value() == b.bytes_value();
    case ValueKind::kList: {
      const ListValue& la = a.list_value();
      const ListValue& lb = b.list_value();
      if (la.Size() != lb.Size()) return false;
      for (size_t i = 0; i < la.Size(); ++i) {
        if (!ValuesEqual(la.At(i), lb.At(i))) return false;
      }
      return true;
    }
    case ValueKind::kMap: {
      const MapValue& ma = a.map_value();
      const MapValue& mb = b.map_value();
      if (ma.Size() != mb.Size()) return false;
      for (size_t i = 0; i < ma.Size(); ++i) {
        Value key = ma.KeyAt(i);
        std::optional<Value> va = ma.Find(key);
        std::optional<Value> vb = mb.Find(key);
        if (!va.has_value() || !vb.has_value() || !ValuesEqual(*va, *vb)) return false;
      }
      return true;
    }
    case ValueKind::kQuantity:
      return a.quantity_value() == b.quantity_value();
    case ValueKind::kSemver:
      return a.semver_value().Compare(b.semver_value()) == 0;
    case ValueKind::kType:
      return a.type_name() == b.type_name();
    default:  // errors equal nothing
      return false;
  }
}

Value Equal(const Value& a, const Value& b) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  return Value::Bool(ValuesEqual(a, b));
}

Value NotEqual(const Value& a, const Value& b) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  return Value::Bool(!ValuesEqual(a, b));
}

Value Less(const Value& a, const Value& b) {
  return Relational("_<_", a, b, [](int c) { return c < 0; });
}
Value LessEqual(const Value& a, const Value& b) {
  return Relational("_<=_", a, b, [](int c) { return c <= 0; });
}
Value Greater(const Value& a, const Value& b) {
  return Relational("_>_", a, b, [](int c) { return c > 0; });
}
Value GreaterEqual(const Value& a, const Value& b) {
  return Relational("_>=_", a, b, [](int c) { return c >= 0; });
}

namespace {

// _+_, _-_ and _*_ on two numbers of one kind (overflow.go): int and uint through `checked`,
// which stores the result and says whether it overflowed (a __builtin_*_overflow), double
// through `plain`. An error operand is the result, the left one first.
template <typename Checked, typename Plain>
Value Arithmetic(std::string_view op, const Value& a, const Value& b, Checked checked,
                 Plain plain) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  if (a.kind() == b.kind()) {
    switch (a.kind()) {
      case ValueKind::kInt: {
        int64_t r = 0;
        if (checked(a.int_value(), b.int_value(), &r)) return Value::Error(kIntOverflow);
        return Value::Int(r);
      }
      case ValueKind::kUint: {
        uint64_t r = 0;
        if (checked(a.uint_value(), b.uint_value(), &r)) return Value::Error(kUintOverflow);
        return Value::Uint(r);
      }
      case ValueKind::kDouble:
        return Value::Double(plain(a.double_value(), b.double_value()));
      default:
        break;
    }
  }
  return NoMatchingOverload(op, a, b);
}

// _/_ and _%_ on two ints or two uints: a zero divisor is the error `by_zero`, and
// INT64_MIN by -1 overflows (its quotient does not fit; C++ leaves both undefined).
template <typename Op>
Value IntegerDivision(std::string_view op, const char* by_zero, const Value& a, const Value& b,
                      Op apply) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  if (a.kind() == b.kind()) {
    switch (a.kind()) {
      case ValueKind::kInt: {
        int64_t x = a.int_value();
        int64_t y = b.int_value();
        if (y == 0) return Value::Error(by_zero);
        if (x == std::numeric_limits<int64_t>::min() && y == -1) {
          return Value::Error(kIntOverflow);
        }
        return Value::Int(apply(x, y));
      }
      case ValueKind::kUint:
        if (b.uint_value() == 0) return Value::Error(by_zero);
        return Value::Uint(apply(a.uint_value(), b.uint_value()));
      default:
        break;
    }
  }
  return NoMatchingOverload(op, a, b);
}

// The concatenation of two strings, or of two byte strings.
std::string Concat(std::string_view a, std::string_view b) {
  std::string s;
  s.reserve(a.size() + b.size());
  s.append(a).append(b);
  return s;
}

}  // namespace

Value Add(const Value& a, const Value& b) {
  if (a.kind() == b.kind()) {
    switch (a.kind()) {
      case ValueKind::kString:
        return Value::String(Concat(a.string_value(), b.string_value()));
      case ValueKind::kBytes:
        return Value::Bytes(Concat(a.bytes_value(), b.bytes_value()));
      case ValueKind::kList: {
        const ListValue& la = a.list_value();
        const ListValue& lb = b.list_value();
        std::vector<Value> items;
        items.reserve(la.Size() + lb.Size());
        for (size_t i = 0; i < la.Size(); ++i) items.push_back(la.At(i));
        for (size_t i = 0; i < lb.Size(); ++i) items.push_back(lb.At(i));
        return Value::List(std::move(items));
      }
      default:
        break;
    }
  }
  return Arithmetic(
      "_+_", a, b, [](auto x, auto y, auto* r) { return __builtin_add_overflow(x, y, r); },
      [](double x, double y) { return x + y; });
}

Value Subtract(const Value& a, const Value& b) {
  return Arithmetic(
      "_-_", a, b, [](auto x, auto y, auto* r) { return __builtin_sub_overflow(x, y, r); },
      [](double x, double y) { return x - y; });
}

Value Multiply(const Value& a, const Value& b) {
  return Arithmetic(
      "_*_", a, b, [](auto x, auto y, auto* r) { return __builtin_mul_overflow(x, y, r); },
      [](double x, double y) { return x * y; });
}

Value Divide(const Value& a, const Value& b) {
  if (a.kind() == ValueKind::kDouble && b.kind() == ValueKind::kDouble) {
    return Value::Double(a.double_value() / b.double_value());
  }
  return IntegerDivision("_/_", "division by zero", a, b, [](auto x, auto y) { return x / y; });
}

Value Modulo(const Value& a, const Value& b) {
  return IntegerDivision("_%_", "modulus by zero", a, b, [](auto x, auto y) { return x % y; });
}

Value Negate(const Value& a) {
  switch (a.kind()) {
    case ValueKind::kError:
      return a;
    case ValueKind::kInt:
      if (a.int_value() == std::numeric_limits<int64_t>::min()) {
        return Value::Error(kIntOverflow);
      }
      return Value::Int(-a.int_value());
    case ValueKind::kDouble:
      return Value::Double(-a.double_value());
    default:
      return NoMatchingOverload("-_", a);
  }
}

Value LogicalNot(const Value& a) {
  if (a.kind() == ValueKind::kBool) return Value::Bool(!a.bool_value());
  if (a.is_error()) return a;
  return NoMatchingOverload("!_", a);
}

Value In(const Value& a, const Value& b) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  if (b.kind() == ValueKind::kList) {
    const ListValue& list = b.list_value();
    for (size_t i = 0; i < list.Size(); ++i) {
      if (ValuesEqual(a, list.At(i))) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  if (b.kind() == ValueKind::kMap) return Value::Bool(b.map_value().Contains(a));
  return NoMatchingOverload("@in", a, b);
}

Value Index(const Value& a, const Value& b) {
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  if (a.kind() == ValueKind::kList) {
    int64_t i = 0;
    if (!IntegralIndex(b, &i)) {
      if (b.kind() == ValueKind::kDouble) {
        return Value::Error("unsupported index value " + b.DebugString() + " in list");
      }
      return Value::Error("unsupported index type '" + std::string(ValueKindName(b.kind())) +
                          "' in list");
    }
    const ListValue& list = a.list_value();
    if (i < 0 || static_cast<uint64_t>(i) >= list.Size()) {
      return Value::Error("index '" + std::to_string(i) + "' out of range in list size '" +
                          std::to_string(list.Size()) + "'");
    }
    return list.At(static_cast<size_t>(i));
  }
  if (a.kind() == ValueKind::kMap) {
    std::optional<Value> v = a.map_value().Find(b);
    if (!v.has_value()) return Value::Error("no such key: " + KeyText(b));
    return std::move(*v);
  }
  return NoMatchingOverload("_[_]", a, b);
}

Value SelectField(const Value& a, const Value& field) {
  if (a.kind() == ValueKind::kMap) {
    std::optional<Value> v = a.map_value().Find(field);
    if (!v.has_value()) return Value::Error("no such key: " + std::string(field.string_value()));
    return std::move(*v);
  }
  if (a.is_error()) return a;
  return Value::Error("type '" + std::string(ValueKindName(a.kind())) +
                      "' does not support field selection");
}

Value HasField(const Value& a, const Value& field) {
  if (a.kind() == ValueKind::kMap) return Value::Bool(a.map_value().Contains(field));
  if (a.is_error()) return a;
  return Value::Error("type '" + std::string(ValueKindName(a.kind())) +
                      "' does not support field selection");
}

std::string KeyText(const Value& key) {
  if (key.kind() == ValueKind::kString) return std::string(key.string_value());
  return key.DebugString();
}

}  // namespace berth::cel::internal
