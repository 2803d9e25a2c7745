#include "sim/gpushare_test_util.h"

#include <cstdlib>

namespace berth::sim::gpushare::testing {

std::string OpenbFixturePath(const std::string& file) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  const std::string base = root != nullptr ? std::string(root) + "/" : std::string();
  return base + "tests/fixtures/sim/openb/" + file;
}

}  // namespace berth::sim::gpushare::testing
