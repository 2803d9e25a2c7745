// Semver parsing mirrors blang/semver v4 (Parse, NewPRVersion, Compare) and Kubernetes'
// normalizeAndParse, including their error texts, so a selector that fails upstream fails
// here with the same words.
#include "cel/semver.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "core/ascii.h"

namespace berth::cel {

namespace {

bool IsAlphanumOrHyphen(char c) {
  return core::IsAsciiAlnum(c) || c == '-';
}

bool OnlyDigits(std::string_view s) {
  for (char c : s) {
    if (!core::IsAsciiDigit(c)) return false;
  }
  return true;
}

bool OnlyAlphanum(std::string_view s) {
  for (char c : s) {
    if (!IsAlphanumOrHyphen(c)) return false;
  }
  return true;
}

bool HasLeadingZero(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  out += s;
  out += '"';
  return out;
}

core::Error Bad(std::string message) { return core::InvalidArgument(std::move(message)); }

// strconv.ParseUint(s, 10, 64) after the digit check: fails only on "" and on overflow.
core::Result<uint64_t> ParseNumber(std::string_view s) {
  if (s.empty()) return Bad("strconv.ParseUint: parsing \"\": invalid syntax");
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return Bad("strconv.ParseUint: parsing " + Quoted(s) + ": value out of range");
  }
  return v;
}

core::Result<uint64_t> ParseCorePart(std::string_view s, const char* name, const char* title) {
  if (!OnlyDigits(s)) {
    return Bad(std::string("Invalid character(s) found in ") + name + " number " + Quoted(s));
  }
  if (HasLeadingZero(s)) {
    return Bad(std::string(title) + " number must not contain leading zeroes " + Quoted(s));
  }
  return ParseNumber(s);
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

// strings.SplitN(s, ".", 3).
std::vector<std::string_view> SplitN3(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (out.size() < 2) {
    size_t pos = s.find('.', start);
    if (pos == std::string_view::npos) break;
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

bool IsNumeric(std::string_view s) { return !s.empty() && OnlyDigits(s); }

// Compares two prerelease identifiers (already validated).
int ComparePrerelease(std::string_view a, std::string_view b) {
  bool an = IsNumeric(a);
  bool bn = IsNumeric(b);
  if (an && bn) {
    // No leading zeros, so a longer digit string is a larger number.
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (an) return -1;
  if (bn) return 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int Cmp(uint64_t a, uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

}  // namespace

core::Result<Semver> Semver::Parse(std::string_view text) {
  if (text.empty()) return Bad("Version string empty");
  std::vector<std::string_view> parts = SplitN3(text);
  if (parts.size() != 3) return Bad("No Major.Minor.Patch elements found");

  Semver v;
  BERTH_ASSIGN_OR_RETURN(v.major_, ParseCorePart(parts[0], "major", "Major"));
  BERTH_ASSIGN_OR_RETURN(v.minor_, ParseCorePart(parts[1], "minor", "Minor"));

  std::string_view patch = parts[2];
  std::vector<std::string_view> build;
  std::vector<std::string_view> prerelease;
  if (size_t plus = patch.find('+'); plus != std::string_view::npos) {
    build = Split(patch.substr(plus + 1), '.');
    patch = patch.substr(0, plus);
  }
  if (size_t dash = patch.find('-'); dash != std::string_view::npos) {
    prerelease = Split(patch.substr(dash + 1), '.');
    patch = patch.substr(0, dash);
  }
  BERTH_ASSIGN_OR_RETURN(v.patch_, ParseCorePart(patch, "patch", "Patch"));

  for (std::string_view pr : prerelease) {
    if (pr.empty()) return Bad("Prerelease is empty");
    if (OnlyDigits(pr)) {
      if (HasLeadingZero(pr)) {
        return Bad("Numeric PreRelease version must not contain leading zeroes " + Quoted(pr));
      }
      BERTH_RETURN_IF_ERROR(ParseNumber(pr));
    } else if (!OnlyAlphanum(pr)) {
      return Bad("Invalid character(s) found in prerelease " + Quoted(pr));
    }
    v.prerelease_.emplace_back(pr);
  }
  for (std::string_view b : build) {
    if (b.empty()) return Bad("Build meta data is empty");
    if (!OnlyAlphanum(b)) return Bad("Invalid character(s) found in build meta data " + Quoted(b));
    v.build_.emplace_back(b);
  }
  return v;
}

core::Result<Semver> Semver::ParseNormalized(std::string_view text) {
  if (!text.empty() && text[0] == 'v') text.remove_prefix(1);
  std::vector<std::string_view> views = SplitN3(text);
  std::vector<std::string> parts;
  parts.reserve(3);
  for (std::string_view p : views) {
    std::string part(p);
    if (part.size() > 1) {
      size_t first = part.find_first_not_of('0');
      part = first == std::string::npos ? std::string() : part.substr(first);
      if (part.empty() || !core::IsAsciiDigit(part[0])) part.insert(part.begin(), '0');
    }
    parts.push_back(std::move(part));
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      return Bad("short version cannot contain PreRelease/Build meta data");
    }
    while (parts.size() < 3) parts.emplace_back("0");
  }
  return Parse(parts[0] + "." + parts[1] + "." + parts[2]);
}

int Semver::Compare(const Semver& other) const {
  if (int c = Cmp(major_, other.major_); c != 0) return c;
  if (int c = Cmp(minor_, other.minor_); c != 0) return c;
  if (int c = Cmp(patch_, other.patch_); c != 0) return c;
  if (prerelease_.empty() && other.prerelease_.empty()) return 0;
  if (prerelease_.empty()) return 1;
  if (other.prerelease_.empty()) return -1;
  size_t n = std::min(prerelease_.size(), other.prerelease_.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = ComparePrerelease(prerelease_[i], other.prerelease_[i]); c != 0) return c;
  }
  return Cmp(prerelease_.size(), other.prerelease_.size());
}

std::string Semver::ToString() const {
  std::string out =
      std::to_string(major_) + "." + std::to_string(minor_) + "." + std::to_string(patch_);
  for (size_t i = 0; i < prerelease_.size(); ++i) {
    out += i == 0 ? '-' : '.';
    out += prerelease_[i];
  }
  for (size_t i = 0; i < build_.size(); ++i) {
    out += i == 0 ? '+' : '.';
    out += build_[i];
  }
  return out;
}

}  // namespace berth::cel
