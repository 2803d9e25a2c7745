#include "dispatch/rollout_text.h"

#include <cstdint>
#include <string>

namespace berth::dispatch {
namespace {

constexpr uint64_t kRolloutTextNsPerSecond = 1000000000ULL;
constexpr uint64_t kRolloutTextMaxNs = uint64_t{1} << 63;  // |int64 min|, Go's bound

core::Error RolloutDurationProblem(std::string_view text, std::string_view field, const char* why) {
  std::string message = "invalid duration \"";
  message.append(text);
  message += "\": ";
  message += why;
  return core::InvalidArgument(std::move(message), core::Location{"", "", std::string(field)});
}

bool RolloutTextIsDigit(char c) { return c >= '0' && c <= '9'; }

// The nanoseconds in one unit of Go's unitMap, 0 for an unknown unit. Both spellings of the
// micro sign are accepted, as Go does (U+00B5 and U+03BC).
uint64_t RolloutTextUnitNs(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1000;
  if (unit == "ms") return 1000000;
  if (unit == "s") return kRolloutTextNsPerSecond;
  if (unit == "m") return 60 * kRolloutTextNsPerSecond;
  if (unit == "h") return 3600 * kRolloutTextNsPerSecond;
  return 0;
}

// Go's time.ParseDuration, in nanoseconds; the error says why, the caller adds the field.
core::Result<int64_t> ParseGoDurationNs(std::string_view text, std::string_view field) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty())
    return RolloutDurationProblem(text, field, "want a number and a unit (ns, us, ms, s, m, h)");
  uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || RolloutTextIsDigit(s[0]))) {
      return RolloutDurationProblem(text, field, "want a number before each unit");
    }
    // Whole part; Go fails on overflow here too.
    uint64_t whole = 0;
    size_t i = 0;
    for (; i < s.size() && RolloutTextIsDigit(s[i]); ++i) {
      if (whole > kRolloutTextMaxNs / 10)
        return RolloutDurationProblem(text, field, "out of range");
      whole = whole * 10 + static_cast<uint64_t>(s[i] - '0');
      if (whole > kRolloutTextMaxNs) return RolloutDurationProblem(text, field, "out of range");
    }
    const bool had_whole = i > 0;
    s.remove_prefix(i);
    // Fraction: digits past what uint64 holds are dropped, as Go's leadingFraction does.
    uint64_t fraction = 0;
    double scale = 1;
    bool had_fraction = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflow = false;
      size_t j = 0;
      for (; j < s.size() && RolloutTextIsDigit(s[j]); ++j) {
        if (overflow) continue;
        if (fraction > (kRolloutTextMaxNs - 1) / 10) {
          overflow = true;
          continue;
        }
        const uint64_t next = fraction * 10 + static_cast<uint64_t>(s[j] - '0');
        if (next > kRolloutTextMaxNs) {
          overflow = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      had_fraction = j > 0;
      s.remove_prefix(j);
    }
    if (!had_whole && !had_fraction)
      return RolloutDurationProblem(text, field, "want digits around '.'");
    size_t unit_end = 0;
    while (unit_end < s.size() && s[unit_end] != '.' && !RolloutTextIsDigit(s[unit_end]))
      ++unit_end;
    if (unit_end == 0)
      return RolloutDurationProblem(text, field, "missing unit (ns, us, ms, s, m, h)");
    const uint64_t unit = RolloutTextUnitNs(s.substr(0, unit_end));
    if (unit == 0)
      return RolloutDurationProblem(text, field, "unknown unit (want ns, us, ms, s, m or h)");
    s.remove_prefix(unit_end);
    if (whole > kRolloutTextMaxNs / unit)
      return RolloutDurationProblem(text, field, "out of range");
    uint64_t value = whole * unit;
    if (fraction > 0) {
      value += static_cast<uint64_t>(static_cast<double>(fraction) *
                                     (static_cast<double>(unit) / scale));
      if (value > kRolloutTextMaxNs) return RolloutDurationProblem(text, field, "out of range");
    }
    total += value;
    if (total > kRolloutTextMaxNs) return RolloutDurationProblem(text, field, "out of range");
  }
  if (negative) {
    // total <= 2^63 here; -2^63 is representable.
    return total == kRolloutTextMaxNs ? INT64_MIN : -static_cast<int64_t>(total);
  }
  if (total > kRolloutTextMaxNs - 1) return RolloutDurationProblem(text, field, "out of range");
  return static_cast<int64_t>(total);
}

// Whole seconds rounded toward +inf: C++ division truncates toward zero, which is already
// the ceiling for negative values.
int64_t RolloutCeilSeconds(int64_t ns) {
  const auto per_second = static_cast<int64_t>(kRolloutTextNsPerSecond);
  int64_t seconds = ns / per_second;
  if (ns > 0 && ns % per_second != 0) ++seconds;
  return seconds;
}

}  // namespace

core::Result<int64_t> ParseGoDurationSeconds(std::string_view text, std::string_view field) {
  BERTH_ASSIGN_OR_RETURN(int64_t ns, ParseGoDurationNs(text, field));
  return RolloutCeilSeconds(ns);
}

core::Result<std::optional<int64_t>> ParseProgressDeadline(std::string_view text,
                                                           std::string_view field) {
  if (text.empty() || text == "None") return std::optional<int64_t>();
  // Upstream's pattern has no group around the alternation, so it accepts a prefix of
  // digits and a unit (or '|', which the character class also lists) or a "None" suffix;
  // the Go duration parser then rejects whatever else the text holds.
  size_t digits = 0;
  while (digits < text.size() && RolloutTextIsDigit(text[digits])) ++digits;
  const bool prefix_ok =
      digits > 0 && digits < text.size() &&
      (text[digits] == 'h' || text[digits] == 'm' || text[digits] == 's' || text[digits] == '|');
  const bool suffix_ok = text.size() >= 4 && text.substr(text.size() - 4) == "None";
  if (!prefix_ok && !suffix_ok) {
    std::string message = "invalid timeout format \"";
    message.append(text);
    message += "\": want None or a duration such as 90s, 30m or 2h";
    return core::InvalidArgument(std::move(message), core::Location{"", "", std::string(field)});
  }
  BERTH_ASSIGN_OR_RETURN(int64_t seconds, ParseGoDurationSeconds(text, field));
  return std::optional<int64_t>(seconds);
}

core::Result<model::IntOrPercent> ParseIntOrPercent(std::string_view text, std::string_view field) {
  model::IntOrPercent out;
  if (!text.empty() && text.back() == '%') {
    out.is_string = true;
    out.text = std::string(text);
    return out;
  }
  int64_t value = 0;
  bool ok = !text.empty();
  for (char c : text) {
    if (!RolloutTextIsDigit(c) || value > (INT32_MAX - 9) / 10) {
      ok = false;
      break;
    }
    value = value * 10 + (c - '0');
  }
  if (!ok) {
    std::string message = "invalid value \"";
    message.append(text);
    message += "\": want a count such as 3 or a percentage such as 25%";
    return core::InvalidArgument(std::move(message), core::Location{"", "", std::string(field)});
  }
  out.int_value = static_cast<int32_t>(value);
  return out;
}

std::string IntOrPercentText(const model::IntOrPercent& value) {
  return value.is_string ? value.text : std::to_string(value.int_value);
}

}  // namespace berth::dispatch
