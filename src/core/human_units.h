// Human units: the one home of the durations berth prints for people ("5h 4m", "3m 20s"),
// read by the CLI's tables (berth simulate's summary, explain) and berth simulate's report,
// so a wait reads the same everywhere. Machine outputs (JSON, CSV) keep plain numbers.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace berth::core {

// Seconds, rounded to the nearest second, as the two largest units: "2d 3h", "5h 4m",
// "3m 20s", "40s"; a whole unit drops its zero remainder ("5h", "3m"); "0s" for zero and
// anything below half a second; negative values get a leading "-". Values beyond 10^15 s
// print as days.
std::string HumanDuration(double seconds);

// A short wait as people read a load time: one decimal below a minute ("13.4s", "0.0s"),
// else HumanDuration ("5m 20s").
std::string HumanSeconds(double seconds);

}  // namespace berth::core
