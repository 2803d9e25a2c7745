// StderrLogger and NullLogger.
#include "core/log.h"

#include <gtest/gtest.h>

#include <string>

namespace berth::core {
namespace BERTH_UNITY_ID {

TEST(LogTest, StderrLoggerWritesLevelPrefixedLines) {
  std::unique_ptr<Logger> logger = MakeStderrLogger(LogLevel::kInfo);
  ASSERT_NE(logger, nullptr);
  testing::internal::CaptureStderr();
  logger->Log(LogLevel::kDebug, "dropped");
  logger->Log(LogLevel::kInfo, "reading 3 files");
  logger->Log(LogLevel::kWarning, "unknown field spec.foo");
  logger->Log(LogLevel::kError, "no nodes");
  std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out,
            "berth: info: reading 3 files\n"
            "berth: warning: unknown field spec.foo\n"
            "berth: error: no nodes\n");
}

TEST(LogTest, LoggersAreIndependent) {
  // No global registry: two loggers with the same name coexist, each with its own level.
  std::unique_ptr<Logger> quiet = MakeStderrLogger(LogLevel::kError);
  std::unique_ptr<Logger> chatty = MakeStderrLogger(LogLevel::kDebug);
  testing::internal::CaptureStderr();
  quiet->Log(LogLevel::kWarning, "not shown");
  chatty->Log(LogLevel::kDebug, "shown {} braces");
  std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, "berth: debug: shown {} braces\n");
}

TEST(LogTest, NullLoggerDropsEverything) {
  NullLogger logger;
  testing::internal::CaptureStderr();
  logger.Log(LogLevel::kError, "nothing");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
