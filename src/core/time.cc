#include "core/time.h"

#include <array>
#include <cstdio>

namespace berth::core {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
// Pure arithmetic: no time zone database, no locale, no global state.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;                                   // [0, 399]
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;  // [0, 365]
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           // [0, 146096]
  return era * 146097 + doe - 719468;
}

// The inverse (civil_from_days).
void CivilFromDays(int64_t z, int64_t* y, int64_t* m, int64_t* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;                                       // [0, 146096]
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365]
  const int64_t mp = (5 * doy + 2) / 153;                                     // [0, 11]
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp + (mp < 10 ? 3 : -9);
  *y = yoe + era * 400 + (*m <= 2 ? 1 : 0);
}

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr std::array<int64_t, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[static_cast<size_t>(m - 1)];
}

// Reads exactly `width` decimal digits at *pos.
bool ReadDigits(std::string_view s, size_t* pos, size_t width, int64_t* out) {
  if (*pos + width > s.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < width; ++i) {
    char c = s[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += width;
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

Error BadTimestamp(std::string_view text, std::string_view why) {
  std::string message = "invalid RFC 3339 timestamp \"";
  message += text;
  message += "\": ";
  message += why;
  return InvalidArgument(std::move(message));
}

}  // namespace

Result<Timestamp> Timestamp::Parse(std::string_view text) {
  constexpr std::string_view kShape = "want YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)";
  size_t pos = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!ReadDigits(text, &pos, 4, &year) || !Expect(text, &pos, '-') ||
      !ReadDigits(text, &pos, 2, &month) || !Expect(text, &pos, '-') ||
      !ReadDigits(text, &pos, 2, &day)) {
    return BadTimestamp(text, kShape);
  }
  // RFC 3339 allows a lower-case 't' and 'z' (section 5.6, NOTE).
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't')) {
    return BadTimestamp(text, kShape);
  }
  ++pos;
  if (!ReadDigits(text, &pos, 2, &hour) || !Expect(text, &pos, ':') ||
      !ReadDigits(text, &pos, 2, &minute) || !Expect(text, &pos, ':') ||
      !ReadDigits(text, &pos, 2, &second)) {
    return BadTimestamp(text, kShape);
  }
  // Fractional seconds: at least one digit; dropped, since the fraction only adds to a
  // non-negative second and so flooring to whole seconds just ignores it.
  if (pos < text.size() && text[pos] == '.') {
    size_t begin = ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    if (pos == begin) return BadTimestamp(text, "fractional seconds need a digit");
  }
  int64_t offset_s = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int64_t sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t offset_h = 0, offset_m = 0;
    if (!ReadDigits(text, &pos, 2, &offset_h) || !Expect(text, &pos, ':') ||
        !ReadDigits(text, &pos, 2, &offset_m)) {
      return BadTimestamp(text, kShape);
    }
    if (offset_h > 23 || offset_m > 59) return BadTimestamp(text, "time zone offset out of range");
    offset_s = sign * (offset_h * 3600 + offset_m * 60);
  } else {
    return BadTimestamp(text, "missing time zone (Z or +hh:mm)");
  }
  if (pos != text.size()) return BadTimestamp(text, "trailing characters");

  if (month < 1 || month > 12) return BadTimestamp(text, "month out of range");
  if (day < 1 || day > DaysInMonth(year, month)) return BadTimestamp(text, "day out of range");
  if (hour > 23) return BadTimestamp(text, "hour out of range");
  if (minute > 59) return BadTimestamp(text, "minute out of range");
  // Go's time.Parse, which metav1.Time uses, rejects leap second 60 too.
  if (second > 59) return BadTimestamp(text, "second out of range");

  // Local time = UTC + offset, so UTC = local - offset.
  const int64_t days = DaysFromCivil(year, month, day);
  return Timestamp{days * 86400 + hour * 3600 + minute * 60 + second - offset_s};
}

std::string Timestamp::ToString() const {
  // Floor division so that instants before the epoch land on the right day.
  int64_t days = unix_s / 86400;
  int64_t rem = unix_s % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  int64_t y = 0, m = 0, d = 0;
  CivilFromDays(days, &y, &m, &d);
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
                static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60),
                static_cast<long long>(rem % 60));
  return buf.data();
}

}  // namespace berth::core
