// Logger: the one logging interface berth code uses (spdlog and fmt stay behind it).
// Passed in explicitly; there is no global logger. NullLogger drops everything (tests);
// StderrLogger writes "berth: warning: ..." lines. Implementations are thread-safe.
#pragma once

#include <memory>
#include <string_view>

namespace berth::core {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

class Logger {
 public:
  virtual ~Logger() = default;
  virtual void Log(LogLevel level, std::string_view message) = 0;
};

class NullLogger final : public Logger {
 public:
  void Log(LogLevel, std::string_view) override {}
};

// Writes to stderr through spdlog; messages below min_level are dropped.
std::unique_ptr<Logger> MakeStderrLogger(LogLevel min_level);

}  // namespace berth::core
