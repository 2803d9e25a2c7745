#include "sim/report/internal/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace berth::sim::report::internal {

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    return std::string(text);
  }
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') {
      out += '"';
    }
    out += c;
  }
  out += '"';
  return out;
}

std::string FormatFixed(double value, int decimals) {
  if (std::isnan(value)) {
    return "nan";
  }
  if (std::isinf(value)) {
    return value > 0 ? "inf" : "-inf";
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed, decimals);
  if (ec != std::errc()) {
    // Only |value| beyond ~1e60 overflows the buffer; fall back to scientific notation.
    auto r = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific, decimals);
    end = r.ptr;
  }
  std::string out(buf, end);
  // Rounding can leave "-0.00"; a sign on zero only confuses readers and diffs.
  if (out[0] == '-' && out.find_first_not_of("-0.") == std::string::npos) {
    out.erase(0, 1);
  }
  return out;
}

std::string FormatShort(double value) {
  if (!std::isfinite(value)) {
    return FormatFixed(value, 0);
  }
  if (value == 0) {
    return "0";
  }
  const double mag = std::fabs(value);
  char buf[64];
  char* end;
  if (mag >= 1e-3 && mag < 1e7) {
    // Enough decimals for 4 significant digits, then trim trailing zeros.
    const int int_digits = mag >= 1 ? static_cast<int>(std::floor(std::log10(mag))) + 1 : 0;
    int decimals = std::max(0, 4 - int_digits);
    if (mag < 1) {
      decimals = 4 - static_cast<int>(std::floor(std::log10(mag))) - 1;
    }
    end = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed, decimals).ptr;
    std::string out(buf, end);
    if (out.find('.') != std::string::npos) {
      while (out.back() == '0') out.pop_back();
      if (out.back() == '.') out.pop_back();
    }
    return out;
  }
  end = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific, 3).ptr;
  return std::string(buf, end);
}

}  // namespace berth::sim::report::internal
