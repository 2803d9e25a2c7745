#include "io/internal/yaml_to_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <exception>
#include <istream>
#include <optional>
#include <streambuf>
#include <unordered_map>
#include <utility>
#include <vector>

namespace berth::io::internal {

namespace {

// Reads a string_view through std::istream without copying it (yaml-cpp wants a stream).
class ViewStreambuf : public std::streambuf {
 public:
  explicit ViewStreambuf(std::string_view text) {
    // The buffer is only read; streambuf's interface wants char*.
    char* begin = const_cast<char*>(text.data());
    setg(begin, begin, begin + text.size());
  }
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool AllOf(std::string_view s, bool (*pred)(char)) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!pred(c)) return false;
  }
  return true;
}

bool IsOctalDigit(char c) { return c >= '0' && c <= '7'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?   (YAML 1.2 core float)
bool IsCoreFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t int_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++int_digits;
  size_t frac_digits = 0;
  bool dot = false;
  if (i < s.size() && s[i] == '.') {
    dot = true;
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && (!dot || frac_digits == 0)) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

// -? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][-+]?[0-9]+)?   (RFC 8259 number)
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (i >= s.size() || !IsDigit(s[i])) return false;
  if (s[i] == '0') {
    ++i;
  } else {
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || !IsDigit(s[i])) return false;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (i >= s.size() || !IsDigit(s[i])) return false;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  return i == s.size();
}

// Parses digits in `base` into int64 with an optional sign; false when out of range.
bool ParseInt(std::string_view digits, int base, bool negative, int64_t* out) {
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
  if (negative) {
    if (magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return false;
    *out = magnitude == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN
                                                             : -static_cast<int64_t>(magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(INT64_MAX)) return false;
    *out = static_cast<int64_t>(magnitude);
  }
  return true;
}

// The JSON for an integer-looking scalar, or nullopt when it is not one.
std::optional<std::string> IntToJson(std::string_view s) {
  bool negative = false;
  std::string_view body = s;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o' && AllOf(s.substr(2), IsOctalDigit)) {
    base = 8;
    body = s.substr(2);
    negative = false;
  } else if (s.size() > 2 && s[0] == '0' && s[1] == 'x' && AllOf(s.substr(2), IsHexDigit)) {
    base = 16;
    body = s.substr(2);
    negative = false;
  } else if (!AllOf(body, IsDigit)) {
    return std::nullopt;
  }
  int64_t value = 0;
  if (!ParseInt(body, base, negative, &value)) {
    std::string out;
    AppendJsonString(s, &out);  // too large for JSON consumers: keep the text
    return out;
  }
  return std::to_string(value);
}

std::optional<std::string> FloatToJson(std::string_view s) {
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF" ||
      s == "-.inf" || s == "-.Inf" || s == "-.INF" || s == ".nan" || s == ".NaN" || s == ".NAN") {
    std::string out;
    AppendJsonString(s, &out);
    return out;
  }
  if (!IsCoreFloat(s)) return std::nullopt;
  std::string_view body = s[0] == '+' ? s.substr(1) : s;
  double value = 0;
  auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (ec != std::errc() || ptr != body.data() + body.size()) {
    std::string out;
    AppendJsonString(s, &out);  // 1e400: out of range for a double
    return out;
  }
  if (IsJsonNumber(s)) return std::string(s);
  std::array<char, 64> buf{};
  auto [end, ec2] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  if (ec2 != std::errc()) return std::nullopt;
  std::string out(buf.data(), static_cast<size_t>(end - buf.data()));
  // "1." prints as "1"; keep it a float for readers that care.
  if (out.find_first_of(".eE") == std::string::npos && out.find("inf") == std::string::npos) {
    out += ".0";
  }
  return out;
}

constexpr const char* kCoreTagPrefix = "tag:yaml.org,2002:";

// Builds the JSON text of one document from yaml-cpp's events. Errors (a map used as a key,
// an alias to an unknown anchor) are recorded rather than thrown; the rest of the document
// is then ignored.
class JsonEventHandler : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { line_ = mark.line + 1; }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    bool key = false;
    if (!Begin(mark, /*scalar=*/true, &key)) return;
    size_t start = out_.size();
    // yaml-cpp reports a plain `null` or `~` as a null node too; as a key it reads "null".
    out_ += key ? "\"null\"" : "null";
    EndScalar(key, anchor, start);
    if (key) NoteKey(start);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    bool key = false;
    if (!Begin(mark, /*scalar=*/true, &key)) return;
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      Fail(mark, "alias to an anchor that is not defined before it");
      return;
    }
    if (key && (it->second.empty() || it->second[0] != '"')) {
      Fail(mark, "an alias used as a mapping key must name a string");
      return;
    }
    size_t start = out_.size();
    out_ += it->second;
    if (key) {
      out_ += ':';
      NoteKey(start);
    }
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    bool key = false;
    if (!Begin(mark, /*scalar=*/true, &key)) return;
    size_t start = out_.size();
    // Plain scalars ("?") and core-schema tags other than !!str are typed; keys, quoted
    // scalars ("!"), !!str and application tags keep their text.
    bool typed = !key && (tag == "?" || (tag.rfind(kCoreTagPrefix, 0) == 0 &&
                                         tag != std::string(kCoreTagPrefix) + "str"));
    if (typed) {
      out_ += PlainScalarToJson(value);
    } else {
      AppendJsonString(value, &out_);
    }
    EndScalar(key, anchor, start);
    if (key) NoteKey(start);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    OpenContainer(mark, /*is_map=*/false, anchor);
  }
  void OnSequenceEnd() override { CloseContainer(']'); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    OpenContainer(mark, /*is_map=*/true, anchor);
  }
  void OnMapEnd() override { CloseContainer('}'); }

  std::string& Json() { return out_; }
  int Line() const { return line_; }
  // The document's error: a structural one (Fail), else its duplicate mapping keys, all of
  // them in one message as yaml.v2's strict decoding lists them (sigs.k8s.io/yaml, which
  // kubectl converts YAML with, prefixes "error converting YAML to JSON: ").
  std::optional<core::Error> Failure() const {
    if (error_) return error_;
    if (duplicates_.empty()) return std::nullopt;
    std::string message = "error converting YAML to JSON: yaml: unmarshal errors:";
    for (const std::string& d : duplicates_) message += "\n  " + d;
    return core::InvalidArgument(std::move(message));
  }

 private:
  struct Frame {
    bool is_map;
    bool expect_key = true;  // maps only
    size_t count = 0;
    YAML::anchor_t anchor = 0;
    size_t start = 0;
    size_t keys_begin = 0;  // this map's keys in keys_
  };

  // A key's JSON text (with its trailing ':') in out_.
  struct KeySpan {
    size_t start;
    size_t size;
  };

  // Records the key just written at out_[start, end) and checks it against the map's
  // earlier keys. A duplicate is recorded, not failed: yaml.v2 reports every duplicate of a
  // document, at the line of the duplicate's value, and the document is then dropped.
  // Maps are small (a dozen keys), so a linear scan beats hashing; the JSON text compares
  // equal exactly when the keys do.
  void NoteKey(size_t start) {
    const std::string_view key(out_.data() + start, out_.size() - start);
    const size_t begin = stack_.back().keys_begin;
    for (size_t i = begin; i < keys_.size(); ++i) {
      if (keys_[i].size == key.size() && out_.compare(keys_[i].start, key.size(), key) == 0) {
        pending_duplicate_ = std::string(key.substr(0, key.size() - 1));
        break;
      }
    }
    keys_.push_back({start, key.size()});
  }

  void Fail(const YAML::Mark& mark, const std::string& message) {
    if (error_) return;
    error_ = core::InvalidArgument("line " + std::to_string(mark.line + 1) + ", column " +
                                   std::to_string(mark.column + 1) + ": " + message);
  }

  // Writes the separator before a node; says whether the node is a mapping key.
  bool Begin(const YAML::Mark& mark, bool scalar, bool* key) {
    if (error_) return false;
    *key = false;
    if (stack_.empty()) return true;
    Frame& top = stack_.back();
    if (top.is_map) {
      if (top.expect_key) {
        if (!scalar) {
          Fail(mark, "mappings and sequences cannot be used as mapping keys");
          return false;
        }
        if (top.count > 0) out_ += ',';
        *key = true;
        top.expect_key = false;
      } else {
        top.expect_key = true;
        ++top.count;
        if (!pending_duplicate_.empty()) {
          duplicates_.push_back("line " + std::to_string(mark.line + 1) + ": key " +
                                pending_duplicate_ + " already set in map");
          pending_duplicate_.clear();
        }
      }
    } else {
      if (top.count > 0) out_ += ',';
      ++top.count;
    }
    return true;
  }

  void EndScalar(bool key, YAML::anchor_t anchor, size_t start) {
    if (anchor != 0) anchors_[anchor] = out_.substr(start);
    if (key) out_ += ':';
  }

  void OpenContainer(const YAML::Mark& mark, bool is_map, YAML::anchor_t anchor) {
    bool key = false;
    if (!Begin(mark, /*scalar=*/false, &key)) {
      ++ignored_depth_;
      return;
    }
    stack_.push_back(Frame{is_map, true, 0, anchor, out_.size(), keys_.size()});
    out_ += is_map ? '{' : '[';
  }

  void CloseContainer(char close) {
    if (ignored_depth_ > 0) {
      --ignored_depth_;
      return;
    }
    if (error_ || stack_.empty()) return;
    out_ += close;
    Frame frame = stack_.back();
    stack_.pop_back();
    keys_.resize(frame.keys_begin);
    if (frame.anchor != 0) anchors_[frame.anchor] = out_.substr(frame.start);
  }

  std::string out_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, std::string> anchors_;
  std::optional<core::Error> error_;
  std::vector<KeySpan> keys_;      // the keys of the open maps, innermost last
  std::string pending_duplicate_;  // a duplicate key whose value comes next
  std::vector<std::string> duplicates_;
  int ignored_depth_ = 0;
  int line_ = 1;
};

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr std::string_view kHex = "0123456789abcdef";
  out->reserve(out->size() + s.size() + 2);
  *out += '"';
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
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
      case '\b':
        *out += "\\b";
        break;
      case '\f':
        *out += "\\f";
        break;
      default:
        if (c < 0x20) {
          *out += "\\u00";
          *out += kHex[c >> 4];
          *out += kHex[c & 0xf];
        } else {
          *out += ch;
        }
    }
  }
  *out += '"';
}

std::string PlainScalarToJson(std::string_view value) {
  if (value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL") {
    return "null";
  }
  if (value == "true" || value == "True" || value == "TRUE") return "true";
  if (value == "false" || value == "False" || value == "FALSE") return "false";
  if (auto i = IntToJson(value)) return *i;
  if (auto f = FloatToJson(value)) return *f;
  std::string out;
  AppendJsonString(value, &out);
  return out;
}

core::Status ConvertYamlStream(
    std::string_view text, const std::function<void(std::string&& json, int line)>& sink,
    const std::function<void(core::Error error, int line)>& bad_document) {
  ViewStreambuf buf(text);
  std::istream in(&buf);
  try {
    YAML::Parser parser(in);
    while (true) {
      JsonEventHandler handler;
      if (!parser.HandleNextDocument(handler)) break;
      if (std::optional<core::Error> failure = handler.Failure()) {
        // The parser has read the whole document: the next one can still be read.
        if (!bad_document) return *std::move(failure);
        bad_document(*std::move(failure), handler.Line());
        continue;
      }
      if (!handler.Json().empty()) sink(std::move(handler.Json()), handler.Line());
    }
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) return core::InvalidArgument(e.msg);
    return core::InvalidArgument("line " + std::to_string(e.mark.line + 1) + ", column " +
                                 std::to_string(e.mark.column + 1) + ": " + e.msg);
  } catch (const std::exception& e) {
    return core::InvalidArgument(e.what());
  }
  return core::OkStatus();
}

}  // namespace berth::io::internal
