#include "diag/why_test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/diagnostics.h"
#include "io/reader.h"

namespace berth::diag::testing {

model::Snapshot ReadWhyFixture(const std::string& name) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  const std::string path = std::string(root ? root : ".") + "/tests/fixtures/diag/" + name;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(text.str(), name);
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  return std::move(input.snapshot);
}

WhyAnswer AnswerFor(const model::Snapshot& snapshot, WhyTargetKind kind, const std::string& name) {
  auto answer = AnswerWhy(snapshot, WhyTarget{kind, "", name}, WhyOptions{});
  if (!answer.has_value()) {
    ADD_FAILURE() << answer.error().ToString();
    return {};
  }
  return std::move(answer).value();
}

}  // namespace berth::diag::testing
