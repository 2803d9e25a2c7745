#include "binding/framework/normalize_score.h"

#include "binding/framework/plugin_names.h"

namespace berth::binding {

int64_t NormalizeOne(int64_t raw, int64_t max_raw, bool reverse) {
  if (max_raw == 0) return reverse ? kMaxNodeScore : raw;
  int64_t s = kMaxNodeScore * raw / max_raw;
  return reverse ? kMaxNodeScore - s : s;
}

void DefaultNormalizeScore(bool reverse, std::span<int64_t> scores) {
  int64_t max_raw = 0;
  for (int64_t s : scores) max_raw = s > max_raw ? s : max_raw;
  for (int64_t& s : scores) s = NormalizeOne(s, max_raw, reverse);
}

}  // namespace berth::binding
