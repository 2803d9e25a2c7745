#include "io/internal/yaml_to_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <exception>
#include <istream>
#include <new>
#include <optional>
#include <streambuf>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/ascii.h"
#include "io/input_limits.h"

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

bool AllOf(std::string_view s, bool (*pred)(char)) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!pred(c)) return false;
  }
  return true;
}

bool IsOctalDigit(char c) { return c >= '0' && c <= '7'; }
bool IsHexDigit(char c) {
  return core::IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?   (YAML 1.2 core float)
bool IsCoreFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t int_digits = 0;
  while (i < s.size() && core::IsAsciiDigit(s[i])) ++i, ++int_digits;
  size_t frac_digits = 0;
  bool dot = false;
  if (i < s.size() && s[i] == '.') {
    dot = true;
    ++i;
    while (i < s.size() && core::IsAsciiDigit(s[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && (!dot || frac_digits == 0)) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && core::IsAsciiDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

// -? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][-+]?[0-9]+)?   (RFC 8259 number)
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (i >= s.size() || !core::IsAsciiDigit(s[i])) return false;
  if (s[i] == '0') {
    ++i;
  } else {
    while (i < s.size() && core::IsAsciiDigit(s[i])) ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || !core::IsAsciiDigit(s[i])) return false;
    while (i < s.size() && core::IsAsciiDigit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (i >= s.size() || !core::IsAsciiDigit(s[i])) return false;
    while (i < s.size() && core::IsAsciiDigit(s[i])) ++i;
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
  } else if (!AllOf(body, core::IsAsciiDigit)) {
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

// A bound of io/input_limits.h passed: thrown out of the event handler to stop yaml-cpp at
// once (a billion-laughs document or a deep nesting must not be parsed to its end), caught
// by ConvertDocument. yaml-cpp's own errors are exceptions too, so its parser unwinds cleanly.
struct LimitExceeded {
  core::Error error;
};

std::string At(const YAML::Mark& mark, int line_offset) {
  return "line " + std::to_string(mark.line + 1 + line_offset) + ", column " +
         std::to_string(mark.column + 1) + ": ";
}

// go-yaml v3's allowedAliasRatio: the share of a document's nodes that may come from alias
// expansion, given the nodes read so far (io/input_limits.h).
double AllowedAliasRatio(int64_t nodes) {
  if (nodes <= kAliasRatioLowNodes) return 0.99;
  if (nodes >= kAliasRatioHighNodes) return 0.10;
  return 0.99 - 0.89 * static_cast<double>(nodes - kAliasRatioLowNodes) /
                    static_cast<double>(kAliasRatioHighNodes - kAliasRatioLowNodes);
}

// Builds the JSON text of one document from yaml-cpp's events. Errors (a map used as a key,
// an alias to an unknown anchor) are recorded rather than thrown; the rest of the document
// is then ignored. A bound passed throws LimitExceeded.
class JsonEventHandler : public YAML::EventHandler {
 public:
  // `line_offset`: lines of the stream before the text yaml-cpp is given.
  explicit JsonEventHandler(int line_offset) : line_offset_(line_offset) {}

  void OnDocumentStart(const YAML::Mark& mark) override { line_ = mark.line + 1 + line_offset_; }
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
    const Anchor target = it->second;
    if (key && (target.size == 0 || out_[target.start] != '"')) {
      Fail(mark, "an alias used as a mapping key must name a string");
      return;
    }
    // Bounded before anything is copied: the expansion is what a billion-laughs document
    // multiplies.
    nodes_ += target.nodes;
    alias_nodes_ += target.nodes;
    alias_bytes_ += static_cast<int64_t>(target.size);
    if (alias_bytes_ > kMaxAliasBytes) {
      Throw(mark, "aliases expand to more than " + std::to_string(kMaxAliasBytes >> 20) +
                      " MiB in this document (berth's limit)");
    }
    CheckAliasRatio(mark);
    const int depth = static_cast<int>(stack_.size()) + target.depth;
    if (depth > kMaxNestingDepth) ThrowTooDeep(mark);
    if (!stack_.empty()) stack_.back().max_depth = std::max(stack_.back().max_depth, depth);
    size_t start = out_.size();
    // The anchor's text is earlier in out_: reserve first so the append reads a live buffer.
    out_.reserve(out_.size() + target.size + 1);
    out_.append(out_, target.start, target.size);
    if (key) {
      out_ += ':';
      NoteKey(start);
    }
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    bool key = false;
    if (!Begin(mark, /*scalar=*/true, &key)) return;
    if (static_cast<int64_t>(value.size()) > kMaxStringBytes) {
      Throw(mark, "a string of " + std::to_string(value.size()) +
                      " bytes exceeds berth's limit of " + std::to_string(kMaxStringBytes) +
                      " bytes");
    }
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

  // Checked once more at the end: go-yaml checks at every node, and plain nodes after the
  // last alias lower the share allowed as they raise the count.
  void Finish() {
    if (alias_nodes_ > kAliasMinAliasNodes && nodes_ > kAliasMinNodes &&
        static_cast<double>(alias_nodes_) / static_cast<double>(nodes_) >
            AllowedAliasRatio(nodes_)) {
      ThrowAliasRatio(YAML::Mark::null_mark());
    }
  }

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
    int64_t nodes_begin = 0;
    int max_depth = 0;  // the deepest container inside it, itself included (1 = outermost)
  };

  // An anchored node: its JSON text, a span of out_ (which only grows within a document,
  // so anchors cost no copy), the nodes it holds and its nesting depth (0 for a scalar).
  struct Anchor {
    size_t start = 0;
    size_t size = 0;
    int64_t nodes = 1;
    int depth = 0;
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
    error_ = core::InvalidArgument(At(mark, line_offset_) + message);
  }

  [[noreturn]] void Throw(const YAML::Mark& mark, const std::string& message) const {
    throw LimitExceeded{
        core::InvalidArgument((mark.is_null() ? "" : At(mark, line_offset_)) + message)};
  }
  [[noreturn]] void ThrowTooDeep(const YAML::Mark& mark) const {
    Throw(mark, "more than " + std::to_string(kMaxNestingDepth) +
                    " nested objects and arrays (berth's limit)");
  }
  [[noreturn]] void ThrowAliasRatio(const YAML::Mark& mark) const {
    Throw(mark, "excessive aliasing: " + std::to_string(alias_nodes_) + " of " +
                    std::to_string(nodes_) +
                    " nodes come from aliases (the bound of go-yaml and kubectl)");
  }
  void CheckAliasRatio(const YAML::Mark& mark) const {
    if (alias_nodes_ > kAliasMinAliasNodes && nodes_ > kAliasMinNodes &&
        static_cast<double>(alias_nodes_) / static_cast<double>(nodes_) >
            AllowedAliasRatio(nodes_)) {
      ThrowAliasRatio(mark);
    }
  }

  // Writes the separator before a node; says whether the node is a mapping key.
  bool Begin(const YAML::Mark& mark, bool scalar, bool* key) {
    ++nodes_;
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
          duplicates_.push_back("line " + std::to_string(mark.line + 1 + line_offset_) + ": key " +
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
    if (anchor != 0) anchors_[anchor] = Anchor{start, out_.size() - start, 1, 0};
    if (key) out_ += ':';
  }

  void OpenContainer(const YAML::Mark& mark, bool is_map, YAML::anchor_t anchor) {
    // Counted before anything else, ignored containers included: yaml-cpp recurses per
    // level, and this stops it long before its own guard or the stack.
    if (static_cast<int>(stack_.size()) + ignored_depth_ + 1 > kMaxNestingDepth) {
      ThrowTooDeep(mark);
    }
    const int64_t nodes_begin = nodes_;
    bool key = false;
    if (!Begin(mark, /*scalar=*/false, &key)) {
      ++ignored_depth_;
      return;
    }
    const int depth = static_cast<int>(stack_.size()) + 1;
    stack_.push_back(Frame{is_map, true, 0, anchor, out_.size(), keys_.size(), nodes_begin, depth});
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
    if (!stack_.empty()) {
      stack_.back().max_depth = std::max(stack_.back().max_depth, frame.max_depth);
    }
    if (frame.anchor != 0) {
      anchors_[frame.anchor] =
          Anchor{frame.start, out_.size() - frame.start, nodes_ - frame.nodes_begin,
                 frame.max_depth - static_cast<int>(stack_.size())};
    }
  }

  std::string out_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, Anchor> anchors_;
  std::optional<core::Error> error_;
  std::vector<KeySpan> keys_;      // the keys of the open maps, innermost last
  std::string pending_duplicate_;  // a duplicate key whose value comes next
  std::vector<std::string> duplicates_;
  int ignored_depth_ = 0;
  int line_ = 1;
  int line_offset_ = 0;
  int64_t nodes_ = 0;        // nodes read, aliases expanded (go-yaml's decodeCount)
  int64_t alias_nodes_ = 0;  // of them, the ones that came from aliases (its aliasCount)
  int64_t alias_bytes_ = 0;  // bytes copied by expanding aliases
};

// Whether `line` (no newline) is the marker `marker` ("---" or "..."): the three characters
// at column 0 and then nothing, a blank or a comment.
bool IsMarker(std::string_view line, std::string_view marker) {
  if (line.substr(0, 3) != marker) return false;
  return line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r';
}

bool IsBlankOrComment(std::string_view line) {
  for (char c : line) {
    if (c == '#') return true;
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

// One document's text (a piece of the stream) through yaml-cpp. Usually one document; a
// piece yaml-cpp reads as several (it ends a document at things the cut does not) gives
// each of them, all with the piece's index. The sinks are called after yaml-cpp is done, so
// what they throw (the reader's own bad_alloc) is theirs, not a conversion error. Running
// out of memory sets `out_of_memory` and delivers nothing more of the piece.
core::Status ConvertPiece(
    const YamlDocumentText& piece, int index,
    const std::function<void(std::string&& json, const YamlDocumentPlace& place)>& sink,
    const std::function<void(core::Error error, const YamlDocumentPlace& place)>& bad_document,
    bool* out_of_memory) {
  struct Outcome {
    YamlDocumentPlace place;
    std::string json;
    std::optional<core::Error> error;
  };
  std::vector<Outcome> outcomes;
  YamlDocumentPlace place{index, piece.line};
  const int line_offset = piece.text_line - 1;
  if (piece.stray_directive_line > 0) {
    outcomes.push_back(
        {place, "",
         core::InvalidArgument(
             "line " + std::to_string(piece.stray_directive_line) +
             ", column 1: a directive (%YAML, %TAG) inside a document; directives go before a "
             "document's --- line, at the start of the stream or after a ... line")});
  } else {
    ViewStreambuf buf(piece.text);
    std::istream in(&buf);
    int documents = 0;
    try {
      YAML::Parser parser(in);
      // A document takes at least one line, so a piece cannot hold more documents than
      // lines: past that, yaml-cpp 0.7 is looping without reading (fuzz corpus
      // reader/timeout-11615aa3...: empty documents without end until memory ran out).
      const size_t max_documents =
          static_cast<size_t>(std::count(piece.text.begin(), piece.text.end(), '\n')) + 2;
      while (true) {
        if (static_cast<size_t>(documents) >= max_documents) {
          outcomes.push_back(
              {place, "",
               core::InvalidArgument("the YAML parser stopped making progress after " +
                                     std::to_string(documents) +
                                     " documents in this part of the text; it is not read")});
          break;
        }
        JsonEventHandler handler(line_offset);
        if (!parser.HandleNextDocument(handler)) break;
        // yaml-cpp's own start is the first token's line; the cut knows the document's.
        if (documents++ > 0) place.line = handler.Line();
        handler.Finish();
        // On a failure the parser has read the whole document: the next one can be read.
        outcomes.push_back({place, std::move(handler.Json()), handler.Failure()});
      }
    } catch (const LimitExceeded& e) {
      outcomes.push_back({place, "", e.error});
    } catch (const YAML::Exception& e) {
      outcomes.push_back(
          {place, "",
           core::InvalidArgument((e.mark.is_null() ? std::string() : At(e.mark, line_offset)) +
                                 e.msg)});
    } catch (const std::bad_alloc&) {
      *out_of_memory = true;
    } catch (const std::exception& e) {
      outcomes.push_back({place, "", core::InvalidArgument(e.what())});
    }
  }
  for (Outcome& o : outcomes) {
    if (o.error.has_value()) {
      if (!bad_document) return *std::move(o.error);
      bad_document(*std::move(o.error), o.place);
    } else if (!o.json.empty()) {
      sink(std::move(o.json), o.place);
    }
  }
  return core::OkStatus();
}

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

std::vector<YamlDocumentText> SplitYamlDocuments(std::string_view text) {
  std::vector<YamlDocumentText> out;
  // The piece being built: [start, line start), first line, and whether it holds a
  // document yet (a `---` or content; directives, comments and blank lines alone do not).
  size_t start = 0;
  int start_line = 1;
  int document_line = 1;
  bool has_document = false;
  bool prologue = true;  // before the document's `---` or content: directives belong here
  int stray = 0;
  auto close = [&](size_t end) {
    if (has_document) {
      out.push_back({text.substr(start, end - start), start_line, document_line, stray});
    }
  };
  int line_number = 1;
  for (size_t b = 0; b < text.size(); ++line_number) {
    const void* nl = std::memchr(text.data() + b, '\n', text.size() - b);
    const size_t e = nl == nullptr
                         ? text.size()
                         : static_cast<size_t>(static_cast<const char*>(nl) - text.data());
    const size_t next = nl == nullptr ? text.size() : e + 1;
    const std::string_view line = text.substr(b, e - b);
    const char c = line.empty() ? '\n' : line[0];
    if (c == '-' && IsMarker(line, "---")) {
      if (!prologue) {
        close(b);
        start = b;
        start_line = line_number;
        stray = 0;
      }
      document_line = line_number;
      has_document = true;
      prologue = false;
    } else if (c == '.' && IsMarker(line, "...")) {
      close(next);
      start = next;
      start_line = line_number + 1;
      has_document = false;
      prologue = true;
      stray = 0;
    } else if (c == '%') {
      if (!prologue && stray == 0) stray = line_number;
    } else if (prologue && !IsBlankOrComment(line)) {
      document_line = line_number;
      prologue = false;
      has_document = true;
    }
    b = next;
  }
  close(text.size());
  return out;
}

core::Status ConvertYamlDocuments(
    std::string_view text,
    const std::function<void(std::string&& json, const YamlDocumentPlace& place)>& sink,
    const std::function<void(core::Error error, const YamlDocumentPlace& place)>& bad_document) {
  std::vector<YamlDocumentText> pieces;
  try {
    pieces = SplitYamlDocuments(text);
  } catch (const std::bad_alloc&) {
    return core::Error(core::ErrorCode::kResourceExhausted,
                       "out of memory cutting the text into documents");
  }
  int index = 0;
  for (const YamlDocumentText& piece : pieces) {
    bool out_of_memory = false;
    BERTH_RETURN_IF_ERROR(ConvertPiece(piece, ++index, sink, bad_document, &out_of_memory));
    if (!out_of_memory) continue;
    // Memory will not come back for the next documents (the earlier ones hold it): one
    // error naming every document not read, instead of one per document.
    const size_t rest = pieces.size() - static_cast<size_t>(index);
    std::string message = "out of memory converting this document (" +
                          std::to_string(piece.text.size()) + " bytes); it ";
    if (rest == 0) {
      message += "is not read";
    } else {
      message += "and the " + std::to_string(rest) + " document" + (rest == 1 ? "" : "s") +
                 " after it (documents " + std::to_string(index + 1) + " to " +
                 std::to_string(pieces.size()) + ", lines " + std::to_string(pieces[index].line) +
                 " to " + std::to_string(pieces.back().line) + ") are not read";
    }
    core::Error error(core::ErrorCode::kResourceExhausted, std::move(message));
    if (!bad_document) return error;
    bad_document(std::move(error), YamlDocumentPlace{index, piece.line});
    break;
  }
  return core::OkStatus();
}

core::Status ConvertYamlStream(
    std::string_view text, const std::function<void(std::string&& json, int line)>& sink,
    const std::function<void(core::Error error, int line)>& bad_document) {
  std::function<void(core::Error, const YamlDocumentPlace&)> bad;
  if (bad_document) {
    bad = [&](core::Error error, const YamlDocumentPlace& place) {
      bad_document(std::move(error), place.line);
    };
  }
  return ConvertYamlDocuments(
      text,
      [&](std::string&& json, const YamlDocumentPlace& place) {
        sink(std::move(json), place.line);
      },
      bad);
}

}  // namespace berth::io::internal
