#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/report/internal/svg_chart.h"
#include "sim/report/internal/text.h"
#include "sim/report/progress_bar.h"

namespace berth::sim::report {
namespace BERTH_UNITY_ID {

using internal::CsvField;
using internal::FormatFixed;
using internal::FormatShort;
using internal::HtmlEscape;

TEST(ReportTextTest, HtmlEscapeCoversTheFiveCharacters) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlEscape("plain"), "plain");
}

TEST(ReportTextTest, CsvFieldQuotesOnlyWhenNeeded) {
  EXPECT_EQ(CsvField("q1"), "q1");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(ReportTextTest, NumbersFormatWithoutLocaleOrNegativeZero) {
  EXPECT_EQ(FormatFixed(12.5, 2), "12.50");
  EXPECT_EQ(FormatFixed(-0.0001, 2), "0.00");
  EXPECT_EQ(FormatFixed(2.0 / 3.0, 4), "0.6667");
  EXPECT_EQ(FormatShort(0.125), "0.125");
  EXPECT_EQ(FormatShort(1250), "1250");
  EXPECT_EQ(FormatShort(12.3456), "12.35");
  EXPECT_EQ(FormatShort(95.0), "95");
  EXPECT_EQ(FormatShort(0), "0");
  EXPECT_EQ(FormatShort(2.5e8), "2.500e+08");
}

TEST(ReportChartTest, NiceTicksUseRoundSteps) {
  EXPECT_EQ(internal::NiceTicks(0, 100, 5), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(internal::NiceTicks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1}));
  EXPECT_EQ(internal::NiceTicks(0, 0.3, 3), (std::vector<double>{0, 0.1, 0.2, 0.3}));
  std::vector<double> t = internal::NiceTicks(3, 47, 8);
  EXPECT_EQ(t.front(), 0);
  EXPECT_EQ(t.back(), 50);
}

TEST(ReportChartTest, DownsampleKeepsEndsAndAveragesBuckets) {
  std::vector<double> x, y;
  for (int i = 0; i < 10; ++i) {
    x.push_back(i);
    y.push_back(i * 10);
  }
  internal::Downsample(&x, &y, 6);  // ends + 4 buckets of the 8 interior points
  EXPECT_EQ(x, (std::vector<double>{0, 1.5, 3.5, 5.5, 7.5, 9}));
  EXPECT_EQ(y, (std::vector<double>{0, 15, 35, 55, 75, 90}));
  std::vector<double> small{1, 2}, small_y{3, 4};
  internal::Downsample(&small, &small_y, 6);
  EXPECT_EQ(small.size(), 2u);
}

TEST(ReportChartTest, LineChartEscapesAndDrawsEachSeries) {
  internal::LineChart chart;
  chart.title = "a <b> chart";
  chart.x_label = "x";
  chart.y_label = "y";
  chart.series.push_back({"p&q", "#0072b2", {0, 1, 2}, {0, 5, 10}, 1.0, false});
  chart.series.push_back({"step", "#d55e00", {0, 1}, {1, 2}, 0.5, true});
  const std::string svg = internal::RenderLineChart(chart);
  EXPECT_NE(svg.find("a &lt;b&gt; chart"), std::string::npos);
  EXPECT_NE(svg.find("p&amp;q"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  size_t paths = 0;
  for (size_t at = svg.find("<path"); at != std::string::npos; at = svg.find("<path", at + 1))
    ++paths;
  EXPECT_EQ(paths, 2u);
  EXPECT_NE(svg.find("stroke-opacity=\"0.50\""), std::string::npos);
  EXPECT_NE(svg.find("H"), std::string::npos);  // the step series
  internal::LineChart empty;
  EXPECT_NE(internal::RenderLineChart(empty).find("no data"), std::string::npos);
}

TEST(ProgressBarTest, RendersAndDrawsOnlyWhenEnabled) {
  EXPECT_EQ(ProgressBar::Render("runs", 5, 10), "runs [###############...............]  50% 5/10");
  EXPECT_EQ(ProgressBar::Render("runs", 10, 10),
            "runs [##############################] 100% 10/10");
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressBar bar("x", 4, f, /*enabled=*/true);
    for (int i = 0; i < 4; ++i) bar.Advance();
    EXPECT_EQ(bar.done(), 4);
  }  // the destructor ends the line
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text += static_cast<char>(c);
  std::fclose(f);
  EXPECT_NE(text.find("\rx ["), std::string::npos);
  EXPECT_NE(text.find("100% 4/4\n"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');

  std::FILE* g = std::tmpfile();
  ASSERT_NE(g, nullptr);
  {
    ProgressBar quiet("x", 4, g, /*enabled=*/false);
    quiet.Advance(4);
    quiet.Finish();
  }
  EXPECT_EQ(std::ftell(g), 0);
  std::fclose(g);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::report
