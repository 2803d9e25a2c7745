#include "sim/trace/internal/fields.h"

#include <charconv>
#include <limits>
#include <string>
#include <system_error>

#include "core/quantity.h"
#include "sim/trace/internal/text.h"

namespace berth::sim::trace_internal {

namespace {

core::Error NotWhole(std::string_view text) {
  return core::InvalidArgument(Quote(text) + " is not a whole number");
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The unsigned decimal number at text[*pos]: digits, optionally '.' and more digits, as
// whole part `units` and the fraction's first nine digits `nanos` (billionths); `inexact`
// is set when nonzero digits follow those nine, so that rounding up stays exact.
// False when no digit is there or the whole part overflows.
struct Decimal {
  int64_t units = 0;
  int64_t nanos = 0;
  bool inexact = false;
};
enum class DecimalStatus { kOk, kNotANumber, kOverflow };
DecimalStatus ReadDecimal(std::string_view text, size_t* pos, Decimal* out) {
  size_t p = *pos;
  size_t begin = p;
  while (p < text.size() && IsDigit(text[p])) ++p;
  const bool has_whole = p > begin;
  if (has_whole) {
    auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + p, out->units);
    if (ec == std::errc::result_out_of_range) return DecimalStatus::kOverflow;
    if (ec != std::errc() || ptr != text.data() + p) return DecimalStatus::kNotANumber;
  }
  bool has_fraction = false;
  if (p < text.size() && text[p] == '.') {
    ++p;
    int64_t scale = 100000000;  // the first fraction digit is worth 10^8 billionths
    size_t frac_begin = p;
    while (p < text.size() && IsDigit(text[p])) {
      int digit = text[p] - '0';
      if (scale > 0) {
        out->nanos += digit * scale;
        scale /= 10;
      } else if (digit != 0) {
        out->inexact = true;
      }
      ++p;
    }
    has_fraction = p > frac_begin;
  }
  if (!has_whole && !has_fraction) return DecimalStatus::kNotANumber;
  *pos = p;
  return DecimalStatus::kOk;
}

// Decimal x unit seconds, rounded up; false on overflow.
bool ScaleCeil(const Decimal& d, int64_t unit_s, int64_t* out) {
  if (d.units > std::numeric_limits<int64_t>::max() / unit_s) return false;
  int64_t whole = d.units * unit_s;
  // nanos < 10^9 and unit_s <= 86400, so the product fits easily.
  int64_t frac_nanos = d.nanos * unit_s;
  int64_t extra = frac_nanos / 1000000000 +
                  ((frac_nanos % 1000000000 != 0 || d.inexact) ? 1 : 0);
  if (whole > std::numeric_limits<int64_t>::max() - extra) return false;
  *out = whole + extra;
  return true;
}

core::Error NotSeconds(std::string_view text) {
  return core::InvalidArgument(Quote(text) + " is not a number of seconds");
}

core::Error NotDuration(std::string_view text) {
  return core::InvalidArgument(
      Quote(text) +
      " is not a duration (seconds, or numbers with units s, m, h, d: 90s, 15m, 2h, 1d, 1h30m)");
}

core::Error Negative(std::string_view text) {
  return core::InvalidArgument(Quote(text) + " must not be negative");
}

core::Error TooLarge(std::string_view text) {
  return core::OutOfRange(Quote(text) + " is too large");
}

// Times and durations pass this after parsing: a value that fits int64 seconds may still
// overflow once the simulator turns it into milliseconds and adds it to the clock.
core::Result<int64_t> WithinTimeRange(std::string_view text, int64_t seconds) {
  if (seconds > kMaxDurationSeconds) {
    return core::OutOfRange(Quote(text) + " is too large: at most " +
                            std::to_string(kMaxDurationSeconds / 86400) + "d (100 years)");
  }
  return seconds;
}

}  // namespace

core::Result<int64_t> ParseInt64(std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range) return TooLarge(text);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || digits.empty()) {
    return NotWhole(text);
  }
  return value;
}

core::Result<int32_t> ParseInt32(std::string_view text) {
  BERTH_ASSIGN_OR_RETURN(int64_t value, ParseInt64(text));
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
    return core::OutOfRange(Quote(text) + " does not fit in 32 bits");
  }
  return static_cast<int32_t>(value);
}

core::Result<int64_t> ParseSeconds(std::string_view text) {
  if (!text.empty() && text.front() == '-') return Negative(text);
  size_t pos = 0;
  Decimal d;
  DecimalStatus status = ReadDecimal(text, &pos, &d);
  if (status == DecimalStatus::kOverflow) return TooLarge(text);
  if (status != DecimalStatus::kOk || pos != text.size()) return NotSeconds(text);
  int64_t seconds = 0;
  if (!ScaleCeil(d, 1, &seconds)) return TooLarge(text);
  return WithinTimeRange(text, seconds);
}

namespace {

// Howard Hinnant's days_from_civil: days since 1970-01-01 of a proleptic Gregorian date.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int64_t kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

bool Digits(std::string_view s, size_t pos, size_t width, int64_t* out) {
  int64_t v = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (!IsDigit(s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

core::Result<int64_t> ParseWallClock(std::string_view text) {
  // Fixed layout "YYYY-MM-DD HH:MM:SS": fields at fixed offsets, so no scanning.
  int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' ||
      text[13] != ':' || text[16] != ':' || !Digits(text, 0, 4, &y) ||
      !Digits(text, 5, 2, &mo) || !Digits(text, 8, 2, &d) || !Digits(text, 11, 2, &h) ||
      !Digits(text, 14, 2, &mi) || !Digits(text, 17, 2, &s)) {
    return core::InvalidArgument(Quote(text) + " is not a time of the form YYYY-MM-DD HH:MM:SS");
  }
  if (mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) {
    return core::InvalidArgument(Quote(text) + " is not a valid date and time");
  }
  return DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

core::Result<int64_t> ParseCpuMilli(std::string_view text) {
  core::Result<core::Quantity> q = core::Quantity::Parse(text);
  if (!q.has_value()) {
    return core::Error(q.error().code(), Quote(text) + ": " + q.error().message());
  }
  if (q->IsNegative()) return Negative(text);
  core::Result<int64_t> milli = q->MilliValue();
  if (!milli.has_value()) return TooLarge(text);
  return *milli;
}

core::Result<int64_t> ParseMemoryBytes(std::string_view text) {
  core::Result<core::Quantity> q = core::Quantity::Parse(text);
  if (!q.has_value()) {
    return core::Error(q.error().code(), Quote(text) + ": " + q.error().message());
  }
  if (q->IsNegative()) return Negative(text);
  core::Result<int64_t> bytes = q->Value();
  if (!bytes.has_value()) return TooLarge(text);
  return *bytes;
}

core::Result<int64_t> MulDivCeil(int64_t a, int64_t b, int64_t c) {
  BERTH_CHECK(a >= 0 && b >= 0 && c > 0, "MulDivCeil takes non-negative factors and c > 0");
  const core::Int128 product = static_cast<core::Int128>(a) * b;
  const core::Int128 q = (product + c - 1) / c;
  if (q > std::numeric_limits<int64_t>::max()) {
    return core::OutOfRange(std::to_string(a) + " x " + std::to_string(b) + " is too large");
  }
  return static_cast<int64_t>(q);
}

}  // namespace berth::sim::trace_internal

// The public parsers (values.h) live here, outside trace_internal, because they share the
// decimal reader and the error texts with the cell parsers above.
namespace berth::sim {

namespace ti = trace_internal;

core::Result<int32_t> ParseCount(std::string_view text) {
  BERTH_ASSIGN_OR_RETURN(int32_t value, ti::ParseInt32(text));
  if (value < 0) return ti::Negative(text);
  return value;
}

core::Result<int64_t> ParseDuration(std::string_view text) {
  if (!text.empty() && text.front() == '-') return ti::Negative(text);
  size_t pos = 0;
  int64_t total = 0;
  bool any = false;
  while (pos < text.size()) {
    ti::Decimal d;
    ti::DecimalStatus status = ti::ReadDecimal(text, &pos, &d);
    if (status == ti::DecimalStatus::kOverflow) return ti::TooLarge(text);
    if (status != ti::DecimalStatus::kOk) return ti::NotDuration(text);
    int64_t unit_s = 0;
    if (pos == text.size()) {
      // A bare number is seconds, but only on its own: "1h30" is more likely a typo of
      // "1h30m" than an intended 30 seconds.
      if (any) return ti::NotDuration(text);
      unit_s = 1;
    } else {
      switch (text[pos]) {
        case 's':
          unit_s = 1;
          break;
        case 'm':
          unit_s = 60;
          break;
        case 'h':
          unit_s = 3600;
          break;
        case 'd':
          unit_s = 86400;
          break;
        default:
          return ti::NotDuration(text);
      }
      ++pos;
    }
    int64_t part = 0;
    if (!ti::ScaleCeil(d, unit_s, &part)) return ti::TooLarge(text);
    if (total > std::numeric_limits<int64_t>::max() - part) return ti::TooLarge(text);
    total += part;
    any = true;
  }
  if (!any) return ti::NotDuration(text);
  return ti::WithinTimeRange(text, total);
}

}  // namespace berth::sim
