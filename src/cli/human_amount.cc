// Why not model::AmountQuantity: it is exact, so free memory prints as "126906Mi" or
// "884160Mi"; a reader comparing requested with free wants "123.9Gi" against "1500Gi".
// Rounding is to one decimal, which never turns "not enough" into an equal-looking number
// by more than 0.05 of a unit; the exact figure stays in `--node` and `plan -o yaml`.
#include "cli/human_amount.h"

#include <cstdint>
#include <cstdio>

#include "model/resources.h"

namespace berth::cli {

namespace {

// `value / unit` with at most one decimal, ".0" dropped.
std::string OneDecimal(int64_t value, int64_t unit) {
  // Whole units and the rounded tenths of the rest apart: value * 10 would overflow near
  // int64's limits (an overflowing request, an overcommitted node); the rest * 10 cannot
  // (unit <= 2^50).
  const int64_t tenths = value / unit * 10 + (value % unit * 10 + unit / 2) / unit;
  std::string out = std::to_string(tenths / 10);
  if (tenths % 10 != 0) out += "." + std::to_string(tenths % 10);
  return out;
}

}  // namespace

std::string HumanAmount(std::string_view resource, int64_t amount) {
  // INT64_MIN has no positive counterpart: print it as -INT64_MAX (off by one unit).
  if (amount < 0) {
    return "-" + HumanAmount(resource, amount == INT64_MIN ? INT64_MAX : -amount);
  }
  if (resource == "cpu") {
    if (amount % 1000 == 0) return std::to_string(amount / 1000);
    if (amount < 1000) return std::to_string(amount) + "m";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(amount) / 1000.0);
    std::string out = buf;
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
    return out;
  }
  if (!model::IsBinaryResource(resource)) return std::to_string(amount);
  // The largest unit that divides exactly or leaves at least 10 of it; rounding to tenths
  // of a smaller unit then keeps four significant digits.
  constexpr struct {
    int64_t size;
    const char* suffix;
  } kUnits[] = {{int64_t{1} << 50, "Pi"}, {int64_t{1} << 40, "Ti"}, {int64_t{1} << 30, "Gi"},
                {int64_t{1} << 20, "Mi"}, {int64_t{1} << 10, "Ki"}};
  for (const auto& unit : kUnits) {
    if (amount < unit.size) continue;
    if (amount % unit.size == 0 || amount >= 10 * unit.size) {
      return OneDecimal(amount, unit.size) + unit.suffix;
    }
  }
  return std::to_string(amount);
}

}  // namespace berth::cli
