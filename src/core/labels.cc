#include "core/labels.h"

#include <algorithm>
#include <initializer_list>
#include <string>

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

bool IsDns1123Label(std::string_view s) {
  return s.size() <= kMaxDnsLabelBytes && s.find('.') == std::string_view::npos &&
         IsDns1123Subdomain(s);
}

// The messages are apimachinery's (k8s.io/apimachinery/pkg/util/validation: MaxLenError,
// RegexError and the formats), so berth refuses a name in the words kubectl would print.
namespace {

constexpr std::string_view kQualifiedNameFormat = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameMessage =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";

std::string MaxLen(size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }

std::string RegexMessage(std::string_view message, std::string_view format,
                         std::initializer_list<std::string_view> examples) {
  std::string out(message);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out += " or ";
    first = false;
    out += '\'';
    out += e;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += format;
  out += "')";
  return out;
}

std::string NamePartRegexMessage() {
  return RegexMessage(kQualifiedNameMessage, kQualifiedNameFormat, {"MyName", "my.name", "123-abc"});
}

}  // namespace

std::string Dns1123SubdomainProblem(std::string_view s) {
  if (s.size() > kMaxDnsSubdomainBytes) return MaxLen(kMaxDnsSubdomainBytes);
  if (IsDns1123Subdomain(s)) return "";
  return RegexMessage(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
      "or '.', and must start and end with an alphanumeric character",
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", {"example.com"});
}

std::string Dns1123LabelProblem(std::string_view s) {
  if (s.size() > kMaxDnsLabelBytes) return MaxLen(kMaxDnsLabelBytes);
  if (IsDns1123Label(s)) return "";
  if (IsDns1123Subdomain(s)) return "must not contain dots";
  return RegexMessage(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
      "must start and end with an alphanumeric character",
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?", {"my-name", "123-abc"});
}

std::string QualifiedNameProblem(std::string_view s) {
  std::string_view name = s;
  const size_t slash = s.find('/');
  if (slash != std::string_view::npos) {
    if (s.find('/', slash + 1) != std::string_view::npos) {
      return "a qualified name " + NamePartRegexMessage() +
             " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    }
    const std::string_view prefix = s.substr(0, slash);
    if (prefix.empty()) return "prefix part must be non-empty";
    if (std::string problem = Dns1123SubdomainProblem(prefix); !problem.empty()) {
      return "prefix part " + problem;
    }
    name = s.substr(slash + 1);
  }
  if (name.empty()) return "name part must be non-empty";
  if (name.size() > kMaxLabelValueBytes) return "name part " + MaxLen(kMaxLabelValueBytes);
  if (!IsNamePart(name)) return "name part " + NamePartRegexMessage();
  return "";
}

std::string LabelValueProblem(std::string_view s) {
  if (s.size() > kMaxLabelValueBytes) return MaxLen(kMaxLabelValueBytes);
  if (IsValidLabelValue(s)) return "";
  return RegexMessage(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
      "'.', and must start and end with an alphanumeric character",
      "(" + std::string(kQualifiedNameFormat) + ")?", {"MyValue", "my_value", "12345"});
}

}  // namespace berth::core
