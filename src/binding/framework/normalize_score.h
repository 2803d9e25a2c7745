// DefaultNormalizeScore (upstream helper/normalize_score.go): scales raw scores from
// [0, max] to [0, 100] with integer division; `reverse` flips them (100 - s), and when every
// score is 0 a reversed list becomes all 100. Used by TaintToleration (reversed) and
// NodeAffinity.
#pragma once

#include <cstdint>
#include <span>

namespace berth::binding {

void DefaultNormalizeScore(bool reverse, std::span<int64_t> scores);

// One normalized value given the maximum raw score over the feasible nodes; the same
// arithmetic as DefaultNormalizeScore, for the index that normalizes per node class.
int64_t NormalizeOne(int64_t raw, int64_t max_raw, bool reverse);

}  // namespace berth::binding
