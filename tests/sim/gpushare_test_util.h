// Builders for the gpushare tests: the path of the OpenB fixture (tests/fixtures/sim/openb,
// rooted at $BERTH_SOURCE_DIR when ctest sets it), and the gpu tests' pod and node builders
// (tests/gpu/gpu_test_util.h) under this namespace. Test-only; not thread-safe.
#pragma once

#include <string>

#include "gpu/gpu_test_util.h"

namespace berth::sim::gpushare::testing {

std::string OpenbFixturePath(const std::string& file);

using gpu::testing::Node;
using gpu::testing::NodeWithFree;
using gpu::testing::Pod;

}  // namespace berth::sim::gpushare::testing
