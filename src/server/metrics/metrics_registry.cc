#include "server/metrics/metrics_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace berth::server {

namespace {

std::string FormatValue(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v)) return "NaN";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

const char* TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

// The label text with one more label appended (a histogram's le).
std::string WithLabel(const std::string& rendered, const std::string& key, const std::string& value) {
  const std::string extra = key + "=\"" + value + "\"";
  if (rendered.empty()) return "{" + extra + "}";
  return rendered.substr(0, rendered.size() - 1) + "," + extra + "}";
}

}  // namespace

std::vector<double> KueueBuckets() {
  std::vector<double> out = {1, 2.5, 5, 10};
  while (out.size() < 14) out.push_back(out.back() * 2);
  return out;
}

std::vector<double> LatencyBuckets() {
  return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

std::string RenderLabels(const MetricLabels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out += ',';
    out += labels[i].first;
    out += "=\"";
    for (char c : labels[i].second) {
      if (c == '\\') out += "\\\\";
      else if (c == '"') out += "\\\"";
      else if (c == '\n') out += "\\n";
      else out += c;
    }
    out += '"';
  }
  return out + "}";
}

void MetricsRegistry::Describe(std::string_view name, MetricType type, std::string_view help,
                               std::vector<double> buckets) {
  std::lock_guard lock(mu_);
  Family& f = families_[std::string(name)];
  f.type = type;
  f.help = std::string(help);
  if (type == MetricType::kHistogram) {
    f.bounds = buckets.empty() ? LatencyBuckets() : std::move(buckets);
  }
}

MetricsRegistry::Family& MetricsRegistry::FamilyOf(std::string_view name, MetricType type) {
  auto it = families_.find(name);
  if (it == families_.end()) {
    it = families_.emplace(std::string(name), Family{}).first;
    it->second.type = type;
    if (type == MetricType::kHistogram) it->second.bounds = LatencyBuckets();
  }
  return it->second;
}

void MetricsRegistry::Add(std::string_view name, const MetricLabels& labels, double delta) {
  std::lock_guard lock(mu_);
  FamilyOf(name, MetricType::kCounter).series[RenderLabels(labels)].value += delta;
}

void MetricsRegistry::Set(std::string_view name, const MetricLabels& labels, double value) {
  std::lock_guard lock(mu_);
  FamilyOf(name, MetricType::kGauge).series[RenderLabels(labels)].value = value;
}

void MetricsRegistry::Observe(std::string_view name, const MetricLabels& labels, double value) {
  std::lock_guard lock(mu_);
  Family& f = FamilyOf(name, MetricType::kHistogram);
  Series& s = f.series[RenderLabels(labels)];
  if (s.buckets.size() != f.bounds.size()) s.buckets.assign(f.bounds.size(), 0);
  for (size_t i = 0; i < f.bounds.size(); ++i) {
    if (value <= f.bounds[i]) ++s.buckets[i];
  }
  ++s.count;
  s.value += value;
}

void MetricsRegistry::ReplaceGauge(std::string_view name,
                                   std::vector<std::pair<MetricLabels, double>> series) {
  std::map<std::string, Series> fresh;
  for (auto& [labels, value] : series) fresh[RenderLabels(labels)].value = value;
  std::lock_guard lock(mu_);
  FamilyOf(name, MetricType::kGauge).series = std::move(fresh);
}

size_t MetricsRegistry::series_count() const {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& [name, f] : families_) n += f.series.size();
  return n;
}

std::string MetricsRegistry::Text() const {
  std::lock_guard lock(mu_);
  std::string out;
  out.reserve(64 * 1024);
  for (const auto& [name, f] : families_) {
    if (!f.help.empty()) out += "# HELP " + name + " " + f.help + "\n";
    out += "# TYPE " + name + " " + TypeName(f.type) + "\n";
    for (const auto& [labels, s] : f.series) {
      if (f.type != MetricType::kHistogram) {
        out += name + labels + " " + FormatValue(s.value) + "\n";
        continue;
      }
      for (size_t i = 0; i < f.bounds.size(); ++i) {
        out += name + "_bucket" + WithLabel(labels, "le", FormatValue(f.bounds[i])) + " " +
               FormatValue(i < s.buckets.size() ? static_cast<double>(s.buckets[i]) : 0) + "\n";
      }
      out += name + "_bucket" + WithLabel(labels, "le", "+Inf") + " " +
             FormatValue(static_cast<double>(s.count)) + "\n";
      out += name + "_sum" + labels + " " + FormatValue(s.value) + "\n";
      out += name + "_count" + labels + " " + FormatValue(static_cast<double>(s.count)) + "\n";
    }
  }
  return out;
}

}  // namespace berth::server
