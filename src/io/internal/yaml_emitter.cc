#include "io/internal/yaml_emitter.h"

#include <array>

#include "core/ascii.h"
#include "io/internal/yaml_to_json.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

// Words YAML 1.1 (go-yaml v2, which kubectl uses) or 1.2 read as null or booleans.
bool IsReservedWord(std::string_view s) {
  static constexpr std::array<std::string_view, 31> kWords = {
      "~",   "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "yes",
      "Yes", "YES",  "no",   "No",   "NO",   "on",   "On",   "ON",    "off",   "Off",   "OFF",
      "y",   "Y",    "n",    "N",    ".inf", ".nan", "<<",   "=",     "-"};
  for (std::string_view w : kWords) {
    if (s == w) return true;
  }
  return false;
}

// Numbers in any form a YAML 1.1 or 1.2 reader accepts (ints in bases 2/8/10/16, with "_"
// separators, sexagesimal "1:20", floats, .inf/.nan with signs) and 1.1 timestamps
// ("2001-12-14", "2001-12-14t21:59:43.10-05:00"). Conservative: a string that starts like a
// number and holds only characters numbers and timestamps use is treated as one.
bool LooksNumeric(std::string_view s) {
  size_t i = 0;
  if (s[i] == '-' || s[i] == '+') ++i;
  if (i >= s.size()) return false;
  std::string_view rest = s.substr(i);
  if (rest == ".inf" || rest == ".Inf" || rest == ".INF" || rest == ".nan" || rest == ".NaN" ||
      rest == ".NAN") {
    return true;
  }
  if (!core::IsAsciiDigit(s[i]) &&
      !(s[i] == '.' && i + 1 < s.size() && core::IsAsciiDigit(s[i + 1])))
    return false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    bool ok = core::IsAsciiDigit(c) || c == '.' || c == '_' || c == ':' || c == '-' || c == '+' ||
              c == 'e' || c == 'E' || c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == 'b' ||
              c == 'B' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 't' ||
              c == 'T' || c == 'z' || c == 'Z' || c == ' ';
    if (!ok) return false;
  }
  return true;
}

bool IsPrintable(unsigned char c) { return c >= 0x20 && c != 0x7f; }

void Indent(int n, std::string* out) { out->append(static_cast<size_t>(n), ' '); }

void AppendQuoted(std::string_view s, std::string* out) {
  // JSON string escapes are valid in YAML double-quoted scalars.
  AppendJsonString(s, out);
}

void AppendScalarString(std::string_view s, std::string* out) {
  if (YamlNeedsQuotes(s)) {
    AppendQuoted(s, out);
  } else {
    out->append(s);
  }
}

// Multi-line text prints as a literal block when every line survives one unchanged: no
// carriage returns, tabs or other control characters, no trailing spaces, no leading space on
// the first line (it would be taken for the indentation).
bool LiteralBlockOk(std::string_view s) {
  if (s.find('\n') == std::string_view::npos) return false;
  if (!s.empty() && (s[0] == ' ' || s[0] == '\n')) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      if (i > 0 && s[i - 1] == ' ') return false;
      continue;
    }
    if (!IsPrintable(c)) return false;
  }
  return s.back() != ' ';
}

void AppendLiteralBlock(std::string_view s, int indent, std::string* out) {
  size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  *out += trailing == 0 ? "|-" : trailing == 1 ? "|" : "|+";
  *out += '\n';
  std::string_view body = s.substr(0, s.size() - trailing);
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = body.substr(start, end - start);
    if (!line.empty()) Indent(indent, out);
    out->append(line);
    *out += '\n';
    start = end + 1;
  }
  for (size_t i = 1; i < trailing; ++i) *out += '\n';
}

void AppendScalar(const OrderedJson& v, std::string* out) {
  switch (v.type()) {
    case OrderedJson::value_t::null:
      *out += "null";
      break;
    case OrderedJson::value_t::string:
      AppendScalarString(v.get_ref<const std::string&>(), out);
      break;
    case OrderedJson::value_t::object:
      *out += "{}";
      break;
    case OrderedJson::value_t::array:
      *out += "[]";
      break;
    default:
      *out += v.dump();
      break;  // numbers and booleans print as in JSON
  }
}

void EmitMap(const OrderedJson& map, int indent, bool first_inline, std::string* out);
void EmitSeq(const OrderedJson& seq, int indent, bool first_inline, std::string* out);

// What follows "key:" or "-": a nested block, a literal block or " scalar".
void EmitValue(const OrderedJson& v, int indent, bool in_seq, std::string* out) {
  if (v.is_object() && !v.empty()) {
    if (in_seq) {
      *out += ' ';
      EmitMap(v, indent + 2, true, out);
    } else {
      *out += '\n';
      EmitMap(v, indent + 2, false, out);
    }
    return;
  }
  if (v.is_array() && !v.empty()) {
    if (in_seq) {
      *out += ' ';
      EmitSeq(v, indent + 2, true, out);
    } else {
      // kubectl style: a sequence sits at its key's indentation.
      *out += '\n';
      EmitSeq(v, indent, false, out);
    }
    return;
  }
  *out += ' ';
  if (v.is_string() && LiteralBlockOk(v.get_ref<const std::string&>())) {
    AppendLiteralBlock(v.get_ref<const std::string&>(), indent + 2, out);
    return;
  }
  AppendScalar(v, out);
  *out += '\n';
}

void EmitMap(const OrderedJson& map, int indent, bool first_inline, std::string* out) {
  bool first = true;
  for (const auto& [key, value] : map.items()) {
    if (!(first && first_inline)) Indent(indent, out);
    first = false;
    AppendScalarString(key, out);
    *out += ':';
    EmitValue(value, indent, /*in_seq=*/false, out);
  }
}

void EmitSeq(const OrderedJson& seq, int indent, bool first_inline, std::string* out) {
  bool first = true;
  for (const OrderedJson& item : seq) {
    if (!(first && first_inline)) Indent(indent, out);
    first = false;
    *out += '-';
    EmitValue(item, indent, /*in_seq=*/true, out);
  }
}

}  // namespace

bool YamlNeedsQuotes(std::string_view s) {
  if (s.empty()) return true;
  if (IsReservedWord(s) || LooksNumeric(s)) return true;
  if (s.front() == ' ' || s.back() == ' ') return true;
  // Indicators that start something other than a plain scalar.
  switch (s.front()) {
    case '-':
    case '?':
    case ':':
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '#':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '\'':
    case '"':
    case '%':
    case '@':
    case '`':
      return true;
    default:
      break;
  }
  if (s.back() == ':') return true;
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (!IsPrintable(c)) return true;  // \n, \t and other controls need escapes
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ' ') return true;
    if (c == '#' && i > 0 && s[i - 1] == ' ') return true;
  }
  return false;
}

void EmitYaml(const nlohmann::ordered_json& value, std::string* out) {
  if (value.is_object() && !value.empty()) {
    EmitMap(value, 0, false, out);
  } else if (value.is_array() && !value.empty()) {
    EmitSeq(value, 0, false, out);
  } else {
    AppendScalar(value, out);
    *out += '\n';
  }
}

void EmitYamlSequenceItem(const nlohmann::ordered_json& value, int indent, std::string* out) {
  Indent(indent, out);
  *out += '-';
  EmitValue(value, indent, /*in_seq=*/true, out);
}

}  // namespace berth::io::internal
