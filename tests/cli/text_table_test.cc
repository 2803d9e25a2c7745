#include "cli/text_table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace berth::cli {
namespace BERTH_UNITY_ID {

TEST(TextTableTest, PadsColumnsAndTrimsTrailingSpace) {
  TextTable table({TextTable::Align::kLeft, TextTable::Align::kRight, TextTable::Align::kLeft});
  table.AddRow({"PLUGIN", "SCORE", "NOTE"});
  table.AddRow({"NodeResourcesFit", "97", ""});
  table.AddRow({"TaintToleration", "300", "x"});
  std::ostringstream out;
  table.Print(out, "  ");
  EXPECT_EQ(out.str(),
            "  PLUGIN            SCORE  NOTE\n"
            "  NodeResourcesFit     97\n"
            "  TaintToleration     300  x\n");
}

TEST(TextTableTest, ShortRowsAreFine) {
  TextTable table({TextTable::Align::kLeft, TextTable::Align::kLeft});
  table.AddRow({"only"});
  table.AddRow({"a", "b"});
  std::ostringstream out;
  table.Print(out, "");
  EXPECT_EQ(out.str(), "only\na     b\n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
