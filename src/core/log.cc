#include "core/log.h"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <memory>
#include <string_view>

namespace berth::core {

namespace {

spdlog::level::level_enum ToSpdlogLevel(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarning:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::err;
}

// Owns its spdlog logger; the logger is never put in spdlog's global registry, so two
// instances (say, one per test) never share state. The _mt sink locks around each write,
// which makes Log() safe to call from several threads.
class StderrLogger final : public Logger {
 public:
  explicit StderrLogger(LogLevel min_level)
      : logger_("berth", std::make_shared<spdlog::sinks::stderr_sink_mt>()) {
    // spdlog names the warn level "warning": lines read "berth: warning: ...".
    logger_.set_pattern("berth: %l: %v");
    logger_.set_level(ToSpdlogLevel(min_level));
    logger_.flush_on(spdlog::level::debug);
  }

  void Log(LogLevel level, std::string_view message) override {
    logger_.log(ToSpdlogLevel(level), "{}", message);
  }

 private:
  spdlog::logger logger_;
};

}  // namespace

std::unique_ptr<Logger> MakeStderrLogger(LogLevel min_level) {
  return std::make_unique<StderrLogger>(min_level);
}

}  // namespace berth::core
