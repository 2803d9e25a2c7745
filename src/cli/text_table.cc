#include "cli/text_table.h"

#include <algorithm>

namespace berth::cli {

void TextTable::Print(std::ostream& out, std::string_view indent, std::string_view gap) const {
  std::vector<size_t> widths(aligns_.size(), 0);
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  for (const auto& row : rows_) {
    std::string line(indent);
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      if (c > 0) line += gap;
      const std::string pad(widths[c] - row[c].size(), ' ');
      line += aligns_[c] == Align::kRight ? pad + row[c] : row[c] + pad;
    }
    // Left-aligned last columns leave padding behind; golden files should not carry it.
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  }
}

}  // namespace berth::cli
