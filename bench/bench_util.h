// What the bench/ programs share about their own process: CPU time, peak RSS and `--name=N`
// flags. Header-only: every benchmark is its own executable.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace berth::bench {

// User plus system CPU seconds of this process so far.
inline double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// This process's peak resident set, in MiB.
inline double PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// The value of `NAME=N` on the command line (`name` includes its dashes: "--nodes"), else
// `fallback`.
inline int64_t Flag(int argc, char** argv, const char* name, int64_t fallback) {
  const size_t n = std::strlen(name);
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') return std::atoll(argv[i] + n + 1);
  }
  return fallback;
}

}  // namespace berth::bench
