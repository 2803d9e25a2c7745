// Quantity: a Kubernetes resource.Quantity ("500m", "16Gi", "1e3", "1.5").
// Parsed with the upstream rules (k8s.io/apimachinery/pkg/api/resource): decimal SI
// suffixes (n u m "" k M G T P E), binary SI suffixes (Ki Mi Gi Ti Pi Ei), decimal exponents
// (e/E), optional sign. Held exactly as a 128-bit count of milli-units; precision below a
// milli-unit is rounded up, as upstream's MilliValue() does. Values whose milli count does
// not fit are an OutOfRange error, never a silent wrap. Immutable value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace berth::core {

// 128-bit signed integer. __extension__ keeps -Wpedantic quiet; spell it core::Int128
// everywhere instead of __int128.
__extension__ using Int128 = __int128;

class Quantity {
 public:
  // The suffix family the quantity was written in; canonical printing keeps it
  // (upstream's Format: DecimalSI, BinarySI, DecimalExponent).
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };

  Quantity() = default;

  // Parses a quantity string. Errors (InvalidArgument) carry no location; callers add the
  // field with Error::WithFieldPrefix. Rejects empty strings, stray characters ("1.5.3"),
  // unknown suffixes, and values out of range (OutOfRange).
  static Result<Quantity> Parse(std::string_view text);

  static Quantity FromMilli(Int128 milli, Format format = Format::kDecimalSI);
  static Quantity FromUnits(int64_t units, Format format = Format::kDecimalSI);

  // Exact milli-units.
  Int128 milli() const { return milli_; }
  // Milli-units as int64; OutOfRange when they do not fit.
  Result<int64_t> MilliValue() const;
  // Whole units, rounded up (upstream Value()); OutOfRange when they do not fit in int64.
  Result<int64_t> Value() const;
  // True when the value is a whole number of units (extended resources must be).
  bool IsInteger() const { return milli_ % 1000 == 0; }
  bool IsNegative() const { return milli_ < 0; }
  bool IsZero() const { return milli_ == 0; }

  Format format() const { return format_; }

  // Canonical string as upstream's Quantity.String() prints it: "500m", "1", "16Gi", "1500M",
  // "1k". Binary format is used only when the value is a whole multiple of 1024^n (n >= 1) or
  // zero; otherwise the decimal form is printed.
  std::string ToString() const;

  // Keep this quantity's format (upstream Add/Sub do, unless this one is zero, when they take
  // o's). Results beyond the Int128 range saturate instead of wrapping; parsed values are
  // far below that bound, so only sums of absurd inputs reach it.
  Quantity operator+(const Quantity& o) const;
  Quantity operator-(const Quantity& o) const;
  auto operator<=>(const Quantity& o) const { return milli_ <=> o.milli_; }
  bool operator==(const Quantity& o) const { return milli_ == o.milli_; }

 private:
  Int128 milli_ = 0;
  Format format_ = Format::kDecimalSI;
};

}  // namespace berth::core
