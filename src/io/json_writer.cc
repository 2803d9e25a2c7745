#include "io/json_writer.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/check.h"

namespace berth::io {

void JsonWriter::Key(std::string_view key) {
  Separate();
  Quote(key);
  out_ << ": ";
  after_key_ = true;
}

void JsonWriter::String(std::string_view v) {
  Separate();
  Quote(v);
}

void JsonWriter::Int(int64_t v) {
  Separate();
  out_ << v;
}

void JsonWriter::Double(double v) {
  Separate();
  if (!std::isfinite(v)) {
    out_ << "null";
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f", v);
  std::string_view text = buf;
  while (text.back() == '0') text.remove_suffix(1);
  if (text.back() == '.') text.remove_suffix(1);
  if (text == "-0") text = "0";
  out_ << text;
}

void JsonWriter::Bool(bool v) {
  Separate();
  out_ << (v ? "true" : "false");
}

void JsonWriter::Null() {
  Separate();
  out_ << "null";
}

// Called before every key and every value: a value right after its key stays on the key's
// line; anything else starts a new, indented line, after a comma unless it is the first
// thing in its container.
void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  if (!stack_.back()) out_ << ',';
  stack_.back() = false;
  out_ << '\n' << std::string(2 * stack_.size(), ' ');
}

void JsonWriter::Open(char c) {
  Separate();
  out_ << c;
  stack_.push_back(true);
}

void JsonWriter::Close(char c) {
  // Unbalanced End* is a bug in the caller's code, not in its input.
  BERTH_CHECK(!stack_.empty(), "JsonWriter: End without Begin");
  const bool empty = stack_.back();
  stack_.pop_back();
  if (!empty) out_ << '\n' << std::string(2 * stack_.size(), ' ');
  out_ << c;
}

// JSON's mandatory escapes; other bytes (UTF-8 included) pass through unchanged.
void JsonWriter::Quote(std::string_view s) {
  out_ << '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out_ << "\\\"";
        break;
      case '\\':
        out_ << "\\\\";
        break;
      case '\n':
        out_ << "\\n";
        break;
      case '\t':
        out_ << "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr std::string_view kHex = "0123456789abcdef";
          out_ << "\\u00" << kHex[(c >> 4) & 0xF] << kHex[c & 0xF];
        } else {
          out_ << c;
        }
    }
  }
  out_ << '"';
}

}  // namespace berth::io
