#include "core/quantity.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <string>

namespace berth::core {

namespace {

__extension__ using UInt128 = unsigned __int128;

constexpr Int128 kInt128Max = static_cast<Int128>((static_cast<UInt128>(1) << 127) - 1);
constexpr Int128 kInt128Min = -kInt128Max - 1;

// Decimal digits of the largest Int128 (170141183460469231731687303715884105727).
constexpr int64_t kInt128MaxDigits = 39;

// Exponents beyond this are saturated while parsing: any non-zero mantissa scaled by
// 10^kExponentCap is out of range, and scaled by 10^-kExponentCap rounds to one milli-unit.
// Capping keeps the exponent arithmetic below far away from int64 overflow.
constexpr int64_t kExponentCap = 1'000'000'000;

constexpr std::string_view kFormatHint =
    "must match '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Error BadQuantity(std::string_view text, std::string_view why) {
  std::string message = "invalid quantity \"";
  message += text;
  message += "\": ";
  message += why;
  return InvalidArgument(std::move(message));
}

Error QuantityOutOfRange(std::string_view text) {
  std::string message = "quantity \"";
  message += text;
  message += "\" is out of range";
  return OutOfRange(std::move(message));
}

// What a suffix means: value = mantissa * 10^decimal_exponent * 1024^binary_power.
struct Suffix {
  int64_t decimal_exponent = 0;
  int binary_power = 0;
  Quantity::Format format = Quantity::Format::kDecimalSI;
};

// Interprets the text after the number the way upstream's suffixer does. Returns false for
// an unknown suffix.
bool InterpretSuffix(std::string_view s, Suffix* out) {
  if (s.empty()) return true;
  if (s.size() == 1) {
    static constexpr std::string_view kDecimal = "num_kMGTPE";  // '_' stands for no suffix
    size_t i = kDecimal.find(s[0]);
    if (i == std::string_view::npos || s[0] == '_') return false;
    out->decimal_exponent = (static_cast<int64_t>(i) - 3) * 3;
    return true;
  }
  if (s.size() == 2 && s[1] == 'i') {
    static constexpr std::string_view kBinary = "KMGTPE";
    size_t i = kBinary.find(s[0]);
    if (i == std::string_view::npos) return false;
    out->binary_power = static_cast<int>(i) + 1;
    out->format = Quantity::Format::kBinarySI;
    return true;
  }
  // Decimal exponent: [eE][+-]?[0-9]+ (upstream: strconv.ParseInt of the rest).
  if (s[0] != 'e' && s[0] != 'E') return false;
  size_t pos = 1;
  bool negative = false;
  if (s[pos] == '+' || s[pos] == '-') {
    negative = s[pos] == '-';
    ++pos;
  }
  if (pos == s.size()) return false;
  int64_t exponent = 0;
  for (; pos < s.size(); ++pos) {
    if (!IsDigit(s[pos])) return false;
    exponent = std::min(exponent * 10 + (s[pos] - '0'), kExponentCap);
  }
  out->decimal_exponent = negative ? -exponent : exponent;
  out->format = Quantity::Format::kDecimalExponent;
  return true;
}

// Multiplies a big-endian decimal digit string in place by a small factor.
void MultiplyDigits(std::string& digits, int factor) {
  int carry = 0;
  for (size_t i = digits.size(); i-- > 0;) {
    int d = (digits[i] - '0') * factor + carry;
    digits[i] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  while (carry > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
}

// Parses decimal digits into a non-negative Int128; false on overflow.
bool DigitsToInt128(std::string_view digits, Int128* out) {
  Int128 v = 0;
  for (char c : digits) {
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v)) return false;
  }
  *out = v;
  return true;
}

std::string Int128ToString(Int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  // Through the unsigned type so that the most negative value has a magnitude too.
  UInt128 magnitude =
      negative ? static_cast<UInt128>(0) - static_cast<UInt128>(v) : static_cast<UInt128>(v);
  std::string out;
  while (magnitude > 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

// Upstream's AsCanonicalBytes plus the decimal suffix: the mantissa with its trailing zeros
// moved into an exponent that is a multiple of 3. milli must be non-zero.
std::string DecimalString(Int128 milli, Quantity::Format format) {
  Int128 mantissa = milli;
  int exponent = -3;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  // Never grows past |milli|: each factor of 10 put back was removed above (the exponent
  // started at -3, a multiple of 3), so no overflow.
  while (exponent % 3 != 0) {
    mantissa *= 10;
    --exponent;
  }
  std::string out = Int128ToString(mantissa);
  if (format == Quantity::Format::kDecimalSI && exponent <= 18) {
    static constexpr std::array<const char*, 8> kSuffixes = {"m", "", "k", "M", "G", "T", "P", "E"};
    out += kSuffixes[static_cast<size_t>((exponent + 3) / 3)];
    return out;
  }
  // DecimalExponent, and DecimalSI beyond "E" (upstream falls back to "e21" rather than
  // dropping the magnitude).
  if (exponent != 0) {
    out += 'e';
    out += std::to_string(exponent);
  }
  return out;
}

}  // namespace

Result<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return BadQuantity(text, "empty string");

  // [+-]? digits* ( '.' digits* )? suffix, as upstream's parseQuantityString splits it.
  size_t pos = 0;
  bool negative = false;
  if (text[pos] == '+' || text[pos] == '-') {
    negative = text[pos] == '-';
    ++pos;
  }
  size_t int_begin = pos;
  while (pos < text.size() && IsDigit(text[pos])) ++pos;
  std::string_view int_digits = text.substr(int_begin, pos - int_begin);
  std::string_view frac_digits;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t frac_begin = pos;
    while (pos < text.size() && IsDigit(text[pos])) ++pos;
    frac_digits = text.substr(frac_begin, pos - frac_begin);
  }
  // Upstream reads "", ".", "-" and a bare suffix ("Ki") as zero; a quantity with no digit
  // at all is almost certainly a typo, so it is rejected here.
  if (int_digits.empty() && frac_digits.empty()) return BadQuantity(text, kFormatHint);

  std::string_view suffix_text = text.substr(pos);
  Suffix suffix;
  if (!InterpretSuffix(suffix_text, &suffix)) {
    // A second '.' or a stray sign is a malformed number rather than an unknown suffix.
    if (suffix_text.find_first_not_of("eEinumkKMGTP+-0123456789") != std::string_view::npos ||
        suffix_text.find('.') != std::string_view::npos) {
      return BadQuantity(text, kFormatHint);
    }
    return BadQuantity(text, "unable to parse the suffix \"" + std::string(suffix_text) + "\"");
  }
  Format format = suffix.format;

  // value = digits * 10^exponent, in milli-units, times 1024^binary_power.
  std::string digits;
  digits.reserve(int_digits.size() + frac_digits.size() + 20);
  digits.append(int_digits);
  digits.append(frac_digits);
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty()) return FromMilli(0, format);
  for (int i = 0; i < suffix.binary_power; ++i) MultiplyDigits(digits, 1024);
  int64_t exponent = suffix.decimal_exponent - static_cast<int64_t>(frac_digits.size()) + 3;
  size_t last = digits.find_last_not_of('0');
  exponent += static_cast<int64_t>(digits.size() - last - 1);
  digits.resize(last + 1);
  const auto length = static_cast<int64_t>(digits.size());

  Int128 magnitude = 0;
  bool below_one_unit = false;
  if (exponent >= 0) {
    // An integer number of milli-units: digits followed by `exponent` zeros.
    if (length + exponent > kInt128MaxDigits) return QuantityOutOfRange(text);
    if (!DigitsToInt128(digits, &magnitude)) return QuantityOutOfRange(text);
    for (int64_t i = 0; i < exponent; ++i) {
      if (__builtin_mul_overflow(magnitude, 10, &magnitude)) return QuantityOutOfRange(text);
    }
    below_one_unit = magnitude < 1000;
  } else {
    // Split at the milli point: whole milli-units, then a non-zero fraction of one (the
    // last digit is not 0).
    const int64_t fraction_length = -exponent;
    std::string fraction;
    Int128 whole = 0;
    if (fraction_length >= length) {
      fraction.assign(static_cast<size_t>(std::min<int64_t>(fraction_length - length, 7)), '0');
      fraction += digits;
    } else {
      const auto split = static_cast<size_t>(length - fraction_length);
      if (!DigitsToInt128(std::string_view(digits).substr(0, split), &whole)) {
        return QuantityOutOfRange(text);
      }
      fraction = digits.substr(split);
    }
    below_one_unit = whole < 1000;
    if (!negative) {
      // Round toward +infinity: any fraction of a milli-unit costs a whole one.
      if (__builtin_add_overflow(whole, 1, &magnitude)) return QuantityOutOfRange(text);
    } else {
      // Toward +infinity is toward zero for negatives, except where upstream first rounds
      // the magnitude up to a whole nano-unit: a fraction above 0.999999 milli reaches the
      // next milli-unit then (upstream's Round(Nano, RoundUp) before MilliValue's ceiling).
      bool rounds_to_next = fraction.size() > 6 && fraction.compare(0, 6, "999999") == 0;
      magnitude = whole;
      if (rounds_to_next && __builtin_add_overflow(whole, 1, &magnitude)) {
        return QuantityOutOfRange(text);
      }
    }
  }
  // Upstream: a binary quantity strictly between -1 and 1 is kept as DecimalSI.
  if (format == Format::kBinarySI && below_one_unit) format = Format::kDecimalSI;
  return FromMilli(negative ? -magnitude : magnitude, format);
}

Quantity Quantity::FromMilli(Int128 milli, Format format) {
  Quantity q;
  q.milli_ = milli;
  q.format_ = format;
  return q;
}

Quantity Quantity::FromUnits(int64_t units, Format format) {
  // |units| * 1000 < 2^73: no overflow.
  return FromMilli(static_cast<Int128>(units) * 1000, format);
}

Result<int64_t> Quantity::MilliValue() const {
  if (milli_ > std::numeric_limits<int64_t>::max() ||
      milli_ < std::numeric_limits<int64_t>::min()) {
    return OutOfRange("quantity " + ToString() + " does not fit in int64 milli-units");
  }
  return static_cast<int64_t>(milli_);
}

Result<int64_t> Quantity::Value() const {
  // Integer division truncates toward zero, which is the ceiling for negatives.
  Int128 units = milli_ / 1000;
  if (milli_ > 0 && milli_ % 1000 != 0) ++units;
  if (units > std::numeric_limits<int64_t>::max() || units < std::numeric_limits<int64_t>::min()) {
    return OutOfRange("quantity " + ToString() + " does not fit in int64 units");
  }
  return static_cast<int64_t>(units);
}

std::string Quantity::ToString() const {
  if (milli_ == 0) return "0";
  if (format_ == Format::kBinarySI) {
    // Binary only for whole units of magnitude at least 1024 (upstream prints 1023 and
    // fractions in DecimalSI so that nothing is rounded).
    constexpr Int128 kKiMilli = Int128{1024} * 1000;
    if (milli_ > -kKiMilli && milli_ < kKiMilli) return DecimalString(milli_, Format::kDecimalSI);
    if (milli_ % 1000 != 0) return DecimalString(milli_, Format::kDecimalSI);
    Int128 units = milli_ / 1000;
    int power = 0;
    while (power < 6 && units % 1024 == 0) {
      units /= 1024;
      ++power;
    }
    static constexpr std::array<const char*, 7> kSuffixes = {"",   "Ki", "Mi", "Gi",
                                                             "Ti", "Pi", "Ei"};
    return Int128ToString(units) + kSuffixes[static_cast<size_t>(power)];
  }
  return DecimalString(milli_, format_);
}

Quantity Quantity::operator+(const Quantity& o) const {
  Int128 sum = 0;
  if (__builtin_add_overflow(milli_, o.milli_, &sum)) sum = o.milli_ > 0 ? kInt128Max : kInt128Min;
  return FromMilli(sum, IsZero() ? o.format_ : format_);
}

Quantity Quantity::operator-(const Quantity& o) const {
  Int128 difference = 0;
  if (__builtin_sub_overflow(milli_, o.milli_, &difference)) {
    difference = o.milli_ < 0 ? kInt128Max : kInt128Min;
  }
  return FromMilli(difference, IsZero() ? o.format_ : format_);
}

}  // namespace berth::core
