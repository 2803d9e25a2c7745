// StoreConformanceTest: the tests every Store implementation must pass
// (store_conformance_test.cc). An implementation instantiates it with a factory that opens its
// store at a location derived from a directory, the same location on every call in a test so
// that reopening sees the same data:
//   INSTANTIATE_TEST_SUITE_P(Sqlite, StoreConformanceTest,
//                            ::testing::Values(StoreFactory{"sqlite", OpenSqlite}), FactoryName);
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "core/result.h"
#include "store/store.h"
#include "store/temp_dir.h"

namespace berth::store::testing {

struct StoreFactory {
  std::string name;
  std::function<core::Result<std::unique_ptr<Store>>(const std::string& dir)> open;
};

inline std::string FactoryName(const ::testing::TestParamInfo<StoreFactory>& info) {
  return info.param.name;
}

class StoreConformanceTest : public ::testing::TestWithParam<StoreFactory> {
 protected:
  // Opens the test's store (again, after the previous one was destroyed, to test reopen);
  // nullptr and a test failure when it cannot.
  std::unique_ptr<Store> Open() {
    auto store = GetParam().open(tmp_.Sub("data"));
    EXPECT_TRUE(store.has_value()) << (store.has_value() ? "" : store.error().ToString());
    return store.has_value() ? std::move(store).value() : nullptr;
  }

 private:
  TempDir tmp_;
};

}  // namespace berth::store::testing
