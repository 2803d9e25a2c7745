// Two units are enough to read a wait at a glance and short enough for a table cell;
// kubectl's age column makes the same trade ("3h20m"), with a space here for legibility.
#include "core/human_units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace berth::core {

std::string HumanDuration(double seconds) {
  if (std::isnan(seconds)) return "-";
  if (seconds < 0) return "-" + HumanDuration(-seconds);
  constexpr double kMax = 1e15;
  const int64_t s = static_cast<int64_t>(std::llround(std::min(seconds, kMax)));
  struct Unit {
    int64_t seconds;
    const char* suffix;
  };
  constexpr Unit kUnits[] = {{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
  for (size_t i = 0; i + 1 < std::size(kUnits); ++i) {
    const Unit& big = kUnits[i];
    if (s < big.seconds) continue;
    const Unit& small = kUnits[i + 1];
    const int64_t rest = s % big.seconds / small.seconds;
    std::string out = std::to_string(s / big.seconds) + big.suffix;
    if (rest != 0) out += " " + std::to_string(rest) + small.suffix;
    return out;
  }
  return std::to_string(s) + "s";
}

std::string HumanSeconds(double seconds) {
  if (seconds < 60 && !(seconds < 0)) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1fs", seconds);
    return buf;
  }
  return HumanDuration(seconds);
}

}  // namespace berth::core
