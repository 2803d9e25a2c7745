#include "sim/report/internal/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/report/internal/text.h"

namespace berth::sim::report::internal {
namespace {

// Canvas and margins in SVG user units; the page scales the SVG to its column width.
constexpr double kWidth = 720;
constexpr double kHeight = 300;
constexpr double kLeft = 64;
constexpr double kRight = 16;
constexpr double kTop = 30;
constexpr double kBottom = 46;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

std::string Num(double v) { return FormatFixed(v, 1); }

struct Axis {
  double lo = 0;
  double hi = 1;
  std::vector<double> ticks;
};

Axis MakeAxis(double lo, double hi, int target) {
  if (!(hi > lo)) {
    hi = lo + 1;  // a single value (or none): a unit-wide range from it
  }
  Axis axis;
  axis.ticks = NiceTicks(lo, hi, target);
  axis.lo = std::min(lo, axis.ticks.front());
  axis.hi = std::max(hi, axis.ticks.back());
  return axis;
}

double MapX(const Axis& a, double x) {
  const double t = std::clamp((x - a.lo) / (a.hi - a.lo), 0.0, 1.0);
  return kLeft + t * kPlotW;
}
double MapY(const Axis& a, double y) {
  const double t = std::clamp((y - a.lo) / (a.hi - a.lo), 0.0, 1.0);
  return kTop + (1.0 - t) * kPlotH;
}

std::string OpenFigure(const std::string& key) {
  return key.empty() ? "<figure>\n" : "<figure data-chart=\"" + HtmlEscape(key) + "\">\n";
}

std::string OpenSvg(const std::string& title) {
  std::string out = "<svg viewBox=\"0 0 " + Num(kWidth) + " " + Num(kHeight) +
                    "\" role=\"img\" aria-label=\"" + HtmlEscape(title) + "\">\n";
  out += "<text class=\"ct\" x=\"" + Num(kLeft) + "\" y=\"18\">" + HtmlEscape(title) + "</text>\n";
  return out;
}

// Grid lines, tick labels and axis titles.
std::string Frame(const Axis& x, const Axis& y, const std::string& x_label,
                  const std::string& y_label, bool x_ticks) {
  std::string out;
  for (double t : y.ticks) {
    const std::string py = Num(MapY(y, t));
    out += "<line class=\"grid\" x1=\"" + Num(kLeft) + "\" y1=\"" + py + "\" x2=\"" +
           Num(kLeft + kPlotW) + "\" y2=\"" + py + "\"/>\n";
    out += "<text class=\"yt\" x=\"" + Num(kLeft - 6) + "\" y=\"" + py + "\">" + FormatShort(t) +
           "</text>\n";
  }
  if (x_ticks) {
    for (double t : x.ticks) {
      const std::string px = Num(MapX(x, t));
      out += "<line class=\"tick\" x1=\"" + px + "\" y1=\"" + Num(kTop + kPlotH) + "\" x2=\"" + px +
             "\" y2=\"" + Num(kTop + kPlotH + 4) + "\"/>\n";
      out += "<text class=\"xt\" x=\"" + px + "\" y=\"" + Num(kTop + kPlotH + 16) + "\">" +
             FormatShort(t) + "</text>\n";
    }
  }
  out += "<rect class=\"plot\" x=\"" + Num(kLeft) + "\" y=\"" + Num(kTop) + "\" width=\"" +
         Num(kPlotW) + "\" height=\"" + Num(kPlotH) + "\"/>\n";
  out += "<text class=\"xl\" x=\"" + Num(kLeft + kPlotW / 2) + "\" y=\"" + Num(kHeight - 6) +
         "\">" + HtmlEscape(x_label) + "</text>\n";
  out += "<text class=\"yl\" transform=\"translate(14," + Num(kTop + kPlotH / 2) +
         ") rotate(-90)\">" + HtmlEscape(y_label) + "</text>\n";
  return out;
}

std::string Legend(const std::vector<std::pair<std::string, std::string>>& entries) {
  if (entries.empty()) {
    return "";
  }
  std::string out = "<div class=\"legend\">";
  for (const auto& [label, color] : entries) {
    out += "<span class=\"key\"><span class=\"sw\" style=\"background:" + HtmlEscape(color) +
           "\"></span>" + HtmlEscape(label) + "</span>";
  }
  out += "</div>\n";
  return out;
}

}  // namespace

std::string PaletteColor(size_t i) {
  // Okabe-Ito, without yellow (too faint on white), then a few darker extras.
  static constexpr std::array<const char*, 10> kColors = {
      "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
      "#56b4e9", "#000000", "#8c564b", "#7f7f7f", "#17becf"};
  return kColors[i % kColors.size()];
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
    return {lo};
  }
  const double raw = (hi - lo) / std::max(1, target);
  const int exponent = static_cast<int>(std::floor(std::log10(raw)));
  const double mag = std::pow(10.0, std::abs(exponent));  // exact for |exponent| <= 22
  double mult = 10;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if ((exponent >= 0 ? m * mag : m / mag) >= raw) {
      mult = m;
      break;
    }
  }
  // Tick k is k*mult scaled by one multiplication or division by a power of ten, an exact
  // integer operation rounded once: 3 x 0.2 comes out as 0.6, not 0.6000000000000001.
  auto tick = [&](int64_t k) {
    const double units = static_cast<double>(k) * mult;
    return exponent >= 0 ? units * mag : units / mag;
  };
  const double step = tick(1);
  std::vector<double> ticks;
  for (int64_t k = static_cast<int64_t>(std::floor(lo / step));; ++k) {
    const double t = tick(k);
    ticks.push_back(t);
    if (t >= hi - step * 1e-9 || ticks.size() > 100) {
      break;
    }
  }
  return ticks;
}

void Downsample(std::vector<double>* x, std::vector<double>* y, size_t max_points) {
  const size_t n = x->size();
  if (n <= max_points || max_points < 3) {
    return;
  }
  std::vector<double> ox;
  std::vector<double> oy;
  ox.reserve(max_points);
  oy.reserve(max_points);
  ox.push_back(x->front());
  oy.push_back(y->front());
  const size_t interior = n - 2;
  const size_t buckets = max_points - 2;
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = 1 + b * interior / buckets;
    const size_t end = 1 + (b + 1) * interior / buckets;
    double sx = 0;
    double sy = 0;
    for (size_t i = begin; i < end; ++i) {
      sx += (*x)[i];
      sy += (*y)[i];
    }
    const auto count = static_cast<double>(end - begin);
    if (end > begin) {
      ox.push_back(sx / count);
      oy.push_back(sy / count);
    }
  }
  ox.push_back(x->back());
  oy.push_back(y->back());
  *x = std::move(ox);
  *y = std::move(oy);
}

std::string RenderLineChart(const LineChart& chart) {
  double xmin = std::numeric_limits<double>::infinity();
  double xmax = -xmin;
  double ymin = 0;  // y axes start at 0 unless data go below
  double ymax = -std::numeric_limits<double>::infinity();
  bool any = false;
  for (const Series& s : chart.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      any = true;
      xmin = std::min(xmin, s.x[i]);
      xmax = std::max(xmax, s.x[i]);
      ymin = std::min(ymin, s.y[i]);
      ymax = std::max(ymax, s.y[i]);
    }
  }
  std::string out = OpenFigure(chart.key) + OpenSvg(chart.title);
  if (!any) {
    out += "<text class=\"empty\" x=\"" + Num(kWidth / 2) + "\" y=\"" + Num(kHeight / 2) +
           "\">no data</text>\n</svg>\n</figure>\n";
    return out;
  }
  const Axis x = MakeAxis(chart.x_min.value_or(xmin), chart.x_max.value_or(xmax), 8);
  const Axis y = MakeAxis(chart.y_min.value_or(ymin), chart.y_max.value_or(ymax), 5);
  out += Frame(x, y, chart.x_label, chart.y_label, true);
  std::vector<std::pair<std::string, std::string>> legend;
  for (const Series& s : chart.series) {
    if (std::none_of(legend.begin(), legend.end(),
                     [&](const auto& e) { return e.first == s.label; })) {
      legend.emplace_back(s.label, s.color);
    }
    std::string d;
    bool started = false;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const double px = MapX(x, s.x[i]);
      const double py = MapY(y, s.y[i]);
      // Appended piece by piece: "M" + temporary trips GCC 12's -Wstringop-overflow at -O3.
      if (!started) {
        d += 'M';
        d += Num(px);
        d += ' ';
        started = true;
      } else if (s.step) {
        d += 'H';
        d += Num(px);
        d += 'V';
      } else {
        d += 'L';
        d += Num(px);
        d += ' ';
      }
      d += Num(py);
    }
    if (d.empty()) continue;
    out += "<path class=\"ln\" d=\"" + d + "\" stroke=\"" + HtmlEscape(s.color) + "\"";
    if (s.opacity < 1.0) {
      out += " stroke-opacity=\"" + FormatFixed(s.opacity, 2) + "\"";
    }
    out += "><title>" + HtmlEscape(s.label) + "</title></path>\n";
  }
  std::string events;
  int number = 0;
  for (const LineChart::XMarker& m : chart.x_markers) {
    if (!std::isfinite(m.x) || m.x < x.lo || m.x > x.hi) continue;
    const std::string n = std::to_string(++number);
    const double px = MapX(x, m.x);
    out += "<line class=\"ev\" x1=\"" + Num(px) + "\" y1=\"" + Num(kTop) + "\" x2=\"" + Num(px) +
           "\" y2=\"" + Num(kTop + kPlotH) + "\"><title>" + n + ": " + HtmlEscape(m.label) +
           "</title></line>\n<text class=\"evn\" x=\"" + Num(px) + "\" y=\"" + Num(kTop - 3) +
           "\">" + n + "</text>\n";
    events += "<li>" + HtmlEscape(m.label) + "</li>";
  }
  out += "</svg>\n" + Legend(legend);
  if (!events.empty()) out += "<ol class=\"events\">" + events + "</ol>\n";
  out += "</figure>\n";
  return out;
}

std::string RenderBarChart(const BarChart& chart) {
  std::string out = OpenFigure(chart.key) + OpenSvg(chart.title);
  double vmax = 0;
  for (const BarGroup& g : chart.groups) {
    for (double v : g.values) {
      if (std::isfinite(v)) vmax = std::max(vmax, v);
    }
    if (g.marker && std::isfinite(*g.marker)) vmax = std::max(vmax, *g.marker);
  }
  const size_t nseries = chart.series_labels.size();
  if (chart.groups.empty() || nseries == 0) {
    out += "<text class=\"empty\" x=\"" + Num(kWidth / 2) + "\" y=\"" + Num(kHeight / 2) +
           "\">no data</text>\n</svg>\n</figure>\n";
    return out;
  }
  const Axis x{0, 1, {}};
  // Headroom above the tallest bar or marker, so a marker never sits on the frame.
  const Axis y = MakeAxis(0, vmax > 0 ? vmax * 1.08 : 1, 5);
  out += Frame(x, y, "", chart.y_label, false);
  const double group_w = kPlotW / static_cast<double>(chart.groups.size());
  const double bar_w = group_w * 0.8 / static_cast<double>(nseries);
  for (size_t gi = 0; gi < chart.groups.size(); ++gi) {
    const BarGroup& g = chart.groups[gi];
    const double gx = kLeft + group_w * static_cast<double>(gi) + group_w * 0.1;
    for (size_t si = 0; si < nseries && si < g.values.size(); ++si) {
      const double v = std::isfinite(g.values[si]) ? g.values[si] : 0;
      const double top = MapY(y, v);
      const std::string color = si < chart.colors.size() ? chart.colors[si] : PaletteColor(si);
      out += "<rect class=\"bar\" x=\"" + Num(gx + bar_w * static_cast<double>(si)) + "\" y=\"" +
             Num(top) + "\" width=\"" + Num(bar_w) + "\" height=\"" + Num(kTop + kPlotH - top) +
             "\" fill=\"" + HtmlEscape(color) + "\"><title>" +
             HtmlEscape(g.label + " / " + chart.series_labels[si] + ": " + FormatShort(v)) +
             "</title></rect>\n";
    }
    if (g.marker && std::isfinite(*g.marker)) {
      const std::string py = Num(MapY(y, *g.marker));
      out += "<line class=\"mark\" x1=\"" + Num(gx - 2) + "\" y1=\"" + py + "\" x2=\"" +
             Num(gx + group_w * 0.8 + 2) + "\" y2=\"" + py + "\"><title>" +
             HtmlEscape(g.label + " / " + chart.marker_label + ": " + FormatShort(*g.marker)) +
             "</title></line>\n";
    }
    // Long names are cut on the axis; the full name is in each bar's tooltip.
    std::string label = g.label;
    if (label.size() > 16) {
      size_t cut = 15;
      while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80) {
        --cut;  // not inside a UTF-8 sequence
      }
      label = label.substr(0, cut) + "~";
    }
    out += "<text class=\"xt\" x=\"" + Num(gx + group_w * 0.4) + "\" y=\"" +
           Num(kTop + kPlotH + 16) + "\">" + HtmlEscape(label) + "</text>\n";
  }
  std::vector<std::pair<std::string, std::string>> legend;
  for (size_t si = 0; si < nseries; ++si) {
    legend.emplace_back(chart.series_labels[si],
                        si < chart.colors.size() ? chart.colors[si] : PaletteColor(si));
  }
  if (!chart.marker_label.empty()) {
    legend.emplace_back(chart.marker_label, "#000000");
  }
  out += "</svg>\n" + Legend(legend) + "</figure>\n";
  return out;
}

}  // namespace berth::sim::report::internal
