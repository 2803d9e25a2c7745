// Inline SVG charts drawn by C++ for report.html: line charts (time series, CDFs, curves) and
// grouped bar charts with an optional marker per group (share against entitlement). Output is
// an HTML <figure> holding an <svg> (no xmlns, no external reference; HTML5 inline SVG needs
// none) and an HTML legend. Coordinates are printed with one decimal, so the same data give
// the same bytes. Internal to sim/report. Pure functions; O(points).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace berth::sim::report::internal {

struct Series {
  std::string label;  // legend text; series with the same legend label share one legend entry
  std::string color;  // CSS colour, e.g. "#0072b2"
  std::vector<double> x;
  std::vector<double> y;
  double opacity = 1.0;
  bool step = false;  // draw as a step function (CDFs, counters)
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<Series> series;
  std::optional<double> x_min, x_max, y_min, y_max;  // default: the data's range (y from 0)
  // Stable name of the chart ("gpu-allocation"), written as the figure's data-chart attribute
  // so readers and tests find a chart whatever its title; none when empty.
  std::string key;
  // Vertical dashed lines at these x (scenario events), numbered 1, 2, ... at the top of the
  // plot, each with its label as a tooltip and in a numbered list under the chart. Markers
  // outside the x axis are left out.
  struct XMarker {
    double x = 0;
    std::string label;
  };
  std::vector<XMarker> x_markers;
};

struct BarGroup {
  std::string label;
  std::vector<double> values;    // one per BarChart::series_labels entry
  std::optional<double> marker;  // drawn as a black tick across the group (an entitlement)
};

struct BarChart {
  std::string title;
  std::string y_label;
  std::string marker_label;  // legend text of the marker
  std::vector<std::string> series_labels;
  std::vector<std::string> colors;
  std::vector<BarGroup> groups;
  std::string key;  // as LineChart::key
};

std::string RenderLineChart(const LineChart& chart);
std::string RenderBarChart(const BarChart& chart);

// The i-th colour of a fixed colour-blind-safe palette (Okabe and Ito), cycling.
std::string PaletteColor(size_t i);

// Tick positions covering [lo, hi] at a 1, 2 or 5 x 10^k step, about `target` of them.
std::vector<double> NiceTicks(double lo, double hi, int target);

// Reduces a series to at most max_points by averaging consecutive buckets of points (x and y
// alike); the first and last points are kept. Returns the input unchanged when small enough.
void Downsample(std::vector<double>* x, std::vector<double>* y, size_t max_points);

}  // namespace berth::sim::report::internal
