#include "core/labels.h"

#include <algorithm>

namespace berth::core {

namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 characters.
bool IsNamePart(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  if (!IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

}  // namespace

bool IsDns1123Subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  // Each dot-separated label starts and ends with [a-z0-9] and holds only those and '-'.
  size_t begin = 0;
  while (true) {
    size_t end = s.find('.', begin);
    std::string_view label = s.substr(begin, end == std::string_view::npos ? s.npos : end - begin);
    if (label.empty() || !IsLowerAlnum(label.front()) || !IsLowerAlnum(label.back())) return false;
    if (!std::all_of(label.begin(), label.end(),
                     [](char c) { return IsLowerAlnum(c) || c == '-'; })) {
      return false;
    }
    if (end == std::string_view::npos) return true;
    begin = end + 1;
  }
}

bool IsQualifiedName(std::string_view s) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return IsNamePart(s);
  // More than one '/' leaves one in the name part, which IsNamePart rejects.
  return IsDns1123Subdomain(s.substr(0, slash)) && IsNamePart(s.substr(slash + 1));
}

bool IsValidLabelValue(std::string_view s) { return s.empty() || IsNamePart(s); }

}  // namespace berth::core
