#include "core/excerpt.h"

namespace berth::core {

namespace {

// Not io's JSON escaper (internal/yaml_to_json.cc): that one must produce valid JSON
// (\u00XX, and bytes kept for the parser to judge), this one a line a terminal shows safely
// as Go's %q does (\xXX, DEL escaped too), matching how kubectl quotes values in its errors.
void AppendEscaped(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\r':
        *out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          *out += "\\x";
          *out += kHex[c >> 4];
          *out += kHex[c & 0xf];
        } else {
          *out += ch;
        }
    }
  }
}

}  // namespace

std::string Quote(std::string_view value) {
  std::string out = "\"";
  if (value.size() <= kMaxQuotedBytes) {
    AppendEscaped(value, &out);
    out += '"';
    return out;
  }
  // Cut before a UTF-8 continuation byte (10xxxxxx) so the excerpt stays valid text.
  size_t cut = kMaxQuotedBytes;
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  AppendEscaped(value.substr(0, cut), &out);
  out += "...\" (";
  out += std::to_string(value.size());
  out += " bytes)";
  return out;
}

}  // namespace berth::core
