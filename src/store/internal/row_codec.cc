#include "store/internal/row_codec.h"

#include <cstdlib>

namespace berth::store::internal {

namespace {

void AppendEscaped(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '=':
        out += "%3D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
}

std::string Unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      char hex[3] = {text[i + 1], text[i + 2], 0};
      out += static_cast<char>(std::strtol(hex, nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::string EncodeLabels(const std::map<std::string, std::string>& labels) {
  std::string out;
  for (const auto& [key, value] : labels) {
    AppendEscaped(out, key);
    out += '=';
    AppendEscaped(out, value);
    out += '\n';
  }
  return out;
}

std::map<std::string, std::string> DecodeLabels(std::string_view text) {
  std::map<std::string, std::string> labels;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    size_t eq = line.find('=');
    if (eq != std::string_view::npos) {
      labels.emplace(Unescape(line.substr(0, eq)), Unescape(line.substr(eq + 1)));
    }
    if (end == std::string_view::npos) {
      break;
    }
    text.remove_prefix(end + 1);
  }
  return labels;
}

StoredObject ReadObject(const Statement& row, int first) {
  StoredObject object;
  object.key.group = row.Text(first);
  object.key.kind = row.Text(first + 1);
  object.key.ns = row.Text(first + 2);
  object.key.name = row.Text(first + 3);
  object.meta.uid = row.Text(first + 4);
  object.meta.resource_version = row.Int(first + 5);
  object.meta.generation = row.Int(first + 6);
  object.meta.creation_unix_s = row.Int(first + 7);
  object.meta.deletion_unix_s = row.Int(first + 8);
  object.meta.labels = DecodeLabels(row.Text(first + 9));
  object.json = row.Text(first + 10);
  return object;
}

}  // namespace berth::store::internal
