#include "server/member/durations.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace berth::server::member {

namespace {

constexpr int64_t kDurNs = 1;
constexpr int64_t kDurUs = 1000 * kDurNs;
constexpr int64_t kDurMs = 1000 * kDurUs;
constexpr int64_t kDurS = 1000 * kDurMs;
constexpr int64_t kDurMin = 60 * kDurS;
constexpr int64_t kDurH = 60 * kDurMin;

// The unit's length in nanoseconds; 0 when `unit` is none of Go's.
int64_t DurUnit(std::string_view unit) {
  if (unit == "ns") return kDurNs;
  if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") return kDurUs;  // µs, μs
  if (unit == "ms") return kDurMs;
  if (unit == "s") return kDurS;
  if (unit == "m") return kDurMin;
  if (unit == "h") return kDurH;
  return 0;
}

core::Error DurInvalid(std::string_view why, std::string_view text) {
  return core::InvalidArgument("time: " + std::string(why) + " \"" + std::string(text) + "\"");
}

bool DurIsDigit(char c) { return c >= '0' && c <= '9'; }

// Go's fmtFrac/fmtInt, for Duration.String.
std::string DurFormatFrac(uint64_t* v, int precision) {
  std::string digits;
  bool print = false;
  for (int i = 0; i < precision; ++i) {
    const uint64_t digit = *v % 10;
    print = print || digit != 0;
    if (print) digits.insert(digits.begin(), static_cast<char>('0' + digit));
    *v /= 10;
  }
  return print ? "." + digits : "";
}

}  // namespace

core::Result<int64_t> ParseGoDuration(std::string_view text) {
  const std::string_view orig = text;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text == "0") return int64_t{0};
  if (text.empty()) return DurInvalid("invalid duration", orig);
  // Accumulated in unsigned 64 bits: Go allows exactly -2^63 and refuses anything larger.
  const uint64_t limit = uint64_t{1} << 63;
  uint64_t total = 0;
  while (!text.empty()) {
    if (!(text[0] == '.' || DurIsDigit(text[0]))) return DurInvalid("invalid duration", orig);
    uint64_t whole = 0;
    size_t i = 0;
    bool overflow = false;
    while (i < text.size() && DurIsDigit(text[i])) {
      const auto d = static_cast<uint64_t>(text[i] - '0');
      if (whole > (limit - d) / 10) overflow = true;
      if (!overflow) whole = whole * 10 + d;
      ++i;
    }
    if (overflow) return DurInvalid("invalid duration", orig);
    const bool had_whole = i > 0;
    uint64_t frac = 0;
    double scale = 1;
    bool had_frac = false;
    if (i < text.size() && text[i] == '.') {
      ++i;
      const size_t start = i;
      bool frac_full = false;
      while (i < text.size() && DurIsDigit(text[i])) {
        // Go's leadingFraction: digits past what an int64 holds are dropped (they cannot
        // change the nanoseconds).
        const uint64_t max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
        if (!frac_full && frac > max / 10) frac_full = true;
        if (!frac_full) {
          const uint64_t next = frac * 10 + static_cast<uint64_t>(text[i] - '0');
          if (next > max) {
            frac_full = true;
          } else {
            frac = next;
            scale *= 10;
          }
        }
        ++i;
      }
      had_frac = i > start;
    }
    if (!had_whole && !had_frac) return DurInvalid("invalid duration", orig);
    size_t u = i;
    while (u < text.size() && text[u] != '.' && !DurIsDigit(text[u])) ++u;
    if (u == i) return DurInvalid("missing unit in duration", orig);
    const std::string_view unit_text = text.substr(i, u - i);
    const int64_t unit = DurUnit(unit_text);
    if (unit == 0) {
      return core::InvalidArgument("time: unknown unit \"" + std::string(unit_text) +
                                   "\" in duration \"" + std::string(orig) + "\"");
    }
    const auto uunit = static_cast<uint64_t>(unit);
    if (whole > limit / uunit) return DurInvalid("invalid duration", orig);
    uint64_t value = whole * uunit;
    if (frac > 0) {
      value +=
          static_cast<uint64_t>(static_cast<double>(frac) * (static_cast<double>(unit) / scale));
      if (value > limit) return DurInvalid("invalid duration", orig);
    }
    total += value;
    if (total > limit) return DurInvalid("invalid duration", orig);
    text.remove_prefix(u);
  }
  if (negative)
    return total == limit ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(total);
  if (total > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return DurInvalid("invalid duration", orig);
  }
  return static_cast<int64_t>(total);
}

std::string FormatGoDuration(int64_t ns) {
  if (ns == 0) return "0s";
  const bool negative = ns < 0;
  uint64_t u = negative ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
  std::string out;
  if (u < static_cast<uint64_t>(kDurS)) {
    // Below a second Go prints the largest unit that keeps a whole part: 1.5ms, 200ns.
    int precision = 0;
    std::string unit;
    if (u < static_cast<uint64_t>(kDurUs)) {
      unit = "ns";
    } else if (u < static_cast<uint64_t>(kDurMs)) {
      precision = 3;
      unit = "\xc2\xb5s";
    } else {
      precision = 6;
      unit = "ms";
    }
    const std::string frac = DurFormatFrac(&u, precision);
    out = std::to_string(u) + frac + unit;
  } else {
    const std::string frac = DurFormatFrac(&u, 9);
    const uint64_t secs = u % 60;
    u /= 60;
    out = std::to_string(secs) + frac + "s";
    if (u > 0) {
      out = std::to_string(u % 60) + "m" + out;
      u /= 60;
      if (u > 0) out = std::to_string(u) + "h" + out;
    }
  }
  return negative ? "-" + out : out;
}

core::Result<DurationDistribution> DurationDistribution::Parse(std::string_view text) {
  DurationDistribution d;
  if (text == "none") return d;
  const size_t colon = text.find(':');
  const std::string_view shape = text.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  auto parse_non_negative = [&](std::string_view part) -> core::Result<int64_t> {
    BERTH_ASSIGN_OR_RETURN(int64_t ns, ParseGoDuration(part));
    if (ns < 0) return core::InvalidArgument("negative duration \"" + std::string(part) + "\"");
    return ns;
  };
  if (shape == "fixed" && !arg.empty()) {
    BERTH_ASSIGN_OR_RETURN(d.first_ns_, parse_non_negative(arg));
    d.shape_ = Shape::kFixed;
    return d;
  }
  if (shape == "exp" && !arg.empty()) {
    BERTH_ASSIGN_OR_RETURN(d.first_ns_, parse_non_negative(arg));
    d.shape_ = Shape::kExponential;
    return d;
  }
  if (shape == "uniform" && !arg.empty()) {
    // The bounds are separated by the first '-' after the first character (a Go duration
    // may start with a sign, which parse_non_negative then refuses).
    const size_t dash = arg.find('-', 1);
    if (dash == std::string_view::npos) {
      return core::InvalidArgument("uniform needs two durations, \"uniform:10s-60s\"");
    }
    BERTH_ASSIGN_OR_RETURN(d.first_ns_, parse_non_negative(arg.substr(0, dash)));
    BERTH_ASSIGN_OR_RETURN(d.second_ns_, parse_non_negative(arg.substr(dash + 1)));
    if (d.second_ns_ < d.first_ns_) {
      return core::InvalidArgument("uniform bounds out of order in \"" + std::string(text) + "\"");
    }
    d.shape_ = Shape::kUniform;
    return d;
  }
  return core::InvalidArgument("unknown duration distribution \"" + std::string(text) +
                               "\" (none, fixed:D, uniform:D1-D2, exp:MEAN)");
}

std::optional<int64_t> DurationDistribution::Sample(double u) const {
  u = std::clamp(u, 0.0, std::nextafter(1.0, 0.0));
  switch (shape_) {
    case Shape::kNone:
      return std::nullopt;
    case Shape::kFixed:
      return first_ns_;
    case Shape::kUniform: {
      const double span = static_cast<double>(second_ns_ - first_ns_);
      return first_ns_ + std::min(second_ns_ - first_ns_, static_cast<int64_t>(u * span));
    }
    case Shape::kExponential: {
      const double mean = static_cast<double>(first_ns_);
      const double draw = std::min(-mean * std::log1p(-u), 100.0 * mean);
      return static_cast<int64_t>(draw);
    }
  }
  return std::nullopt;
}

std::string DurationDistribution::ToString() const {
  switch (shape_) {
    case Shape::kNone:
      return "none";
    case Shape::kFixed:
      return "fixed:" + FormatGoDuration(first_ns_);
    case Shape::kUniform:
      return "uniform:" + FormatGoDuration(first_ns_) + "-" + FormatGoDuration(second_ns_);
    case Shape::kExponential:
      return "exp:" + FormatGoDuration(first_ns_);
  }
  return "none";
}

double UnitInterval(uint64_t seed) {
  return static_cast<double>(seed >> 11) * (1.0 / 9007199254740992.0);  // 2^53
}

}  // namespace berth::server::member
