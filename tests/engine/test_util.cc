#include "engine/test_util.h"

#include <gtest/gtest.h>

#include <utility>

#include "core/diagnostics.h"
#include "io/reader.h"

namespace berth::engine::testing {

model::Snapshot ReadCleanYaml(const std::string& yaml) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "test.yaml");
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  return std::move(input.snapshot);
}

}  // namespace berth::engine::testing
