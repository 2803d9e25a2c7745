#include "cli/exit_code.h"

#include <gtest/gtest.h>

#include <sstream>

namespace berth::cli {
namespace BERTH_UNITY_ID {

TEST(ExitCodeTest, FromDiagnosticsAndObjectsRead) {
  core::Diagnostics clean;
  EXPECT_EQ(ExitCodeFor(clean, 3), ExitCode::kOk);
  EXPECT_EQ(ExitCodeFor(clean, 0), ExitCode::kFailed);

  core::Diagnostics warned;
  warned.Warn(core::InvalidArgument("skipped 1 ConfigMap"));
  EXPECT_EQ(ExitCodeFor(warned, 1), ExitCode::kOk);

  core::Diagnostics bad;
  bad.Report(core::InvalidArgument("bad quantity"));
  EXPECT_EQ(ExitCodeFor(bad, 2), ExitCode::kPartial);
  EXPECT_EQ(ExitCodeFor(bad, 0), ExitCode::kFailed);
  EXPECT_EQ(ToInt(ExitCode::kPartial), 1);
}

TEST(ExitCodeTest, PrintsLocationThenMessage) {
  core::Diagnostics diags;
  diags.Report(core::InvalidArgument(
      "quantities must match the regular expression",
      {"input/pods.yaml", "Pod/default/typo", "spec.containers[0].resources.requests.cpu"}));
  diags.Warn(core::Unimplemented("kind ConfigMap is not read; skipped 1 object",
                                 {"input/app.yaml", "", ""}));
  std::ostringstream err;
  PrintDiagnostics(diags, err);
  EXPECT_EQ(err.str(),
            "berth: error: input/pods.yaml: Pod/default/typo: "
            "spec.containers[0].resources.requests.cpu: quantities must match the regular "
            "expression\n"
            "berth: warning: input/app.yaml: kind ConfigMap is not read; skipped 1 object\n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
