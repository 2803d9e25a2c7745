// TextTable: columns of text padded to a common width, for the human-readable output of
// explain and demo. Cells are measured in bytes (names and numbers are ASCII). Plain value
// type; not thread-safe.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace berth::cli {

class TextTable {
 public:
  enum class Align { kLeft, kRight };

  // One alignment per column; rows may have fewer cells than columns.
  explicit TextTable(std::vector<Align> aligns) : aligns_(std::move(aligns)) {}

  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  bool empty() const { return rows_.empty(); }

  // Prints every row after `indent`, columns `gap` apart (two spaces; the plan's tables, as
  // kubectl's, use three), with no trailing spaces.
  void Print(std::ostream& out, std::string_view indent, std::string_view gap = "  ") const;

 private:
  std::vector<Align> aligns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace berth::cli
