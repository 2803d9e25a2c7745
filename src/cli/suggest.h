// "Did you mean": the closest of a list of valid words to one a user mistyped (a subcommand,
// a flag), as kubectl and git suggest them. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace berth::cli {

// Levenshtein distance (insertions, deletions, substitutions), with an adjacent swap
// counting one (Damerau's optimal string alignment): "plna" is one edit from "plan".
size_t EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, when it is close enough to be what was meant: at most
// two edits (one for words of up to four characters), or `word` is a prefix of exactly
// one candidate. Ties go to the earlier candidate; nullopt when none qualifies.
std::optional<std::string> Closest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace berth::cli
