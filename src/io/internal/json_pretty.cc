// Why a printer of its own: `berth plan -o json` prints every planned pod, and parsing each
// stored document into an ordered_json tree only to dump it again cost more than reading,
// planning and everything else together (most of it malloc and free). The text is already
// valid compact JSON (simdjson parsed and minified it), so printing it is re-indenting it.
// Byte identity with dump(2) is kept by declining whatever dump(2) would spell differently
// from the text (floats, escapes other than \" \\ \b \f \n \r \t, duplicate keys, integers
// that may not fit 64 bits, "-0"): the caller falls back to nlohmann for that pod.
#include "io/internal/json_pretty.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace berth::io::internal {
namespace {

using OrderedJson = nlohmann::ordered_json;

std::string Quoted(const std::string& s) {
  return OrderedJson(s).dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

enum class Handled { kDefault, kDone, kFail };

class Printer {
 public:
  Printer(std::string_view in, std::string* out) : in_(in), out_(out) {}

  bool Pod(const PodPatch& patch, int indent) {
    patch_ = &patch;
    SkipWs();
    if (Peek() != '{') return false;
    bool spec_seen = false;
    bool status_seen = false;
    const bool needs_spec = !patch.node.empty() ||
                            (patch.node_selector != nullptr && !patch.node_selector->empty()) ||
                            patch.tolerations > 0;
    bool ok = Object(
        indent,
        [&](std::string_view key, int& emitted) {
          if (key == "\"spec\"" && needs_spec) {
            spec_seen = true;
            if (Peek() != '{') return Handled::kFail;
            Key(indent, emitted, key);
            return Spec(indent + 2) ? Handled::kDone : Handled::kFail;
          }
          if (key == "\"status\"" && patch.condition) {
            status_seen = true;
            if (Peek() != '{') return Handled::kFail;
            Key(indent, emitted, key);
            return Status(indent + 2) ? Handled::kDone : Handled::kFail;
          }
          return Handled::kDefault;
        },
        [&](int& emitted) {
          // No status: PatchCondition adds one, last, holding only the condition.
          if (!patch.condition || status_seen) return true;
          Key(indent, emitted, "\"status\"");
          *out_ += '{';
          int status_emitted = 0;
          NewConditions(indent + 2, status_emitted);
          *out_ += '\n';
          Indent(indent + 2);
          *out_ += '}';
          return true;
        });
    if (!ok || (needs_spec && !spec_seen)) return false;
    SkipWs();
    return pos_ == in_.size();
  }

 private:
  char Peek() const { return pos_ < in_.size() ? in_[pos_] : '\0'; }

  void SkipWs() {
    while (pos_ < in_.size() &&
           (in_[pos_] == ' ' || in_[pos_] == '\n' || in_[pos_] == '\r' || in_[pos_] == '\t')) {
      ++pos_;
    }
  }

  void Indent(int n) { out_->append(static_cast<size_t>(n), ' '); }

  // Starts a member of an object printed at `indent`: the separator, the key and ": ".
  void Key(int indent, int& emitted, std::string_view key) {
    *out_ += emitted++ == 0 ? "\n" : ",\n";
    Indent(indent + 2);
    *out_ += key;
    *out_ += ": ";
  }

  // A string token with its quotes, if dump() would print it the same.
  bool ScanString(std::string_view* token) {
    SkipWs();
    if (Peek() != '"') return false;
    const size_t start = pos_++;
    while (pos_ < in_.size()) {
      const char c = in_[pos_];
      if (c == '"') {
        ++pos_;
        *token = in_.substr(start, pos_ - start);
        return true;
      }
      if (c == '\\') {
        if (pos_ + 1 >= in_.size()) return false;
        const char e = in_[pos_ + 1];
        if (e != '"' && e != '\\' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
          return false;
        }
        pos_ += 2;
        continue;
      }
      if (static_cast<unsigned char>(c) < 0x20) return false;
      ++pos_;
    }
    return false;
  }

  bool ScanNumber(std::string_view* token) {
    const size_t start = pos_;
    if (Peek() == '-') ++pos_;
    const size_t digits = pos_;
    while (pos_ < in_.size() && in_[pos_] >= '0' && in_[pos_] <= '9') ++pos_;
    const size_t n = pos_ - digits;
    if (n == 0 || n > 18) return false;
    const char next = Peek();
    if (next == '.' || next == 'e' || next == 'E') return false;
    *token = in_.substr(start, pos_ - start);
    return *token != "-0";
  }

  bool Literal(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    *out_ += word;
    return true;
  }

  // Skips a value without printing it (one the patch replaces).
  bool SkipValue() {
    SkipWs();
    int depth = 0;
    do {
      SkipWs();
      const char c = Peek();
      if (c == '\0') return false;
      if (c == '"') {
        ++pos_;
        while (pos_ < in_.size() && in_[pos_] != '"') pos_ += in_[pos_] == '\\' ? 2 : 1;
        if (pos_ >= in_.size()) return false;
        ++pos_;
      } else if (c == '{' || c == '[') {
        ++depth;
        ++pos_;
      } else if (c == '}' || c == ']') {
        --depth;
        ++pos_;
      } else {
        ++pos_;  // literals, numbers, ',' and ':'
        if (depth == 0) {
          while (pos_ < in_.size() && in_[pos_] != ',' && in_[pos_] != '}' && in_[pos_] != ']') {
            ++pos_;
          }
        }
      }
    } while (depth > 0);
    return true;
  }

  bool Value(int indent, size_t* elements = nullptr) {
    SkipWs();
    switch (Peek()) {
      case '{':
        return Object(
            indent, [](std::string_view, int&) { return Handled::kDefault; },
            [](int&) { return true; });
      case '[':
        return Array(indent, elements);
      case '"': {
        std::string_view token;
        if (!ScanString(&token)) return false;
        *out_ += token;
        return true;
      }
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default: {
        std::string_view token;
        if (!ScanNumber(&token)) return false;
        *out_ += token;
        return true;
      }
    }
  }

  // An object at pos_ ('{'), printed at `indent`. on_member(key, emitted) prints a member's
  // value itself (kDone, after Key()), declines (kFail) or leaves it to the default printing;
  // at_end(emitted) appends members. Keys given twice decline: dump() would print one.
  template <typename OnMember, typename AtEnd>
  bool Object(int indent, OnMember&& on_member, AtEnd&& at_end) {
    ++pos_;
    *out_ += '{';
    const size_t keys_base = keys_.size();
    int emitted = 0;
    SkipWs();
    if (Peek() == '}') {
      ++pos_;
    } else {
      while (true) {
        std::string_view key;
        if (!ScanString(&key)) return false;
        for (size_t i = keys_base; i < keys_.size(); ++i) {
          if (keys_[i] == key) return false;
        }
        keys_.push_back(key);
        SkipWs();
        if (Peek() != ':') return false;
        ++pos_;
        SkipWs();
        const Handled handled = on_member(key, emitted);
        if (handled == Handled::kFail) return false;
        if (handled == Handled::kDefault) {
          Key(indent, emitted, key);
          if (!Value(indent + 2)) return false;
        }
        SkipWs();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        if (Peek() != '}') return false;
        ++pos_;
        break;
      }
    }
    keys_.resize(keys_base);
    if (!at_end(emitted)) return false;
    if (emitted == 0) {
      *out_ += '}';
    } else {
      *out_ += '\n';
      Indent(indent);
      *out_ += '}';
    }
    return true;
  }

  // An array at pos_ ('['); each element through `element(index)` when given (it prints
  // the element itself, at indent + 2, after the separator), else printed as is.
  template <typename Element>
  bool ArrayOf(int indent, size_t* elements, Element&& element) {
    ++pos_;
    *out_ += '[';
    size_t n = 0;
    SkipWs();
    if (Peek() == ']') {
      ++pos_;
    } else {
      while (true) {
        *out_ += n == 0 ? "\n" : ",\n";
        Indent(indent + 2);
        if (!element(n)) return false;
        ++n;
        SkipWs();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        if (Peek() != ']') return false;
        ++pos_;
        break;
      }
    }
    if (elements != nullptr) *elements = n;
    return true;
  }

  bool CloseArray(int indent, size_t n) {
    if (n == 0) {
      *out_ += ']';
    } else {
      *out_ += '\n';
      Indent(indent);
      *out_ += ']';
    }
    return true;
  }

  bool Array(int indent, size_t* elements) {
    size_t n = 0;
    if (!ArrayOf(indent, &n, [&](size_t) { return Value(indent + 2); })) return false;
    if (elements != nullptr) *elements = n;
    return CloseArray(indent, n);
  }

  // spec: nodeName set (in place, else appended); the nodeSelector and tolerations the
  // planned pod has must be in the document already.
  bool Spec(int indent) {
    const PodPatch& patch = *patch_;
    bool node_seen = false;
    bool selector_ok = patch.node_selector == nullptr || patch.node_selector->empty();
    size_t tolerations = 0;
    return Object(
        indent,
        [&](std::string_view key, int& emitted) {
          if (key == "\"nodeName\"" && !patch.node.empty()) {
            node_seen = true;
            if (!SkipValue()) return Handled::kFail;
            Key(indent, emitted, key);
            *out_ += Quoted(patch.node);
            return Handled::kDone;
          }
          if (key == "\"nodeSelector\"" && !selector_ok) {
            const size_t start = pos_;
            Key(indent, emitted, key);
            if (Peek() != '{' || !Value(indent + 2)) return Handled::kFail;
            selector_ok = SelectorHolds(in_.substr(start, pos_ - start), *patch.node_selector);
            return Handled::kDone;
          }
          if (key == "\"tolerations\"" && patch.tolerations > 0) {
            Key(indent, emitted, key);
            if (Peek() != '[') return Handled::kFail;
            return Value(indent + 2, &tolerations) ? Handled::kDone : Handled::kFail;
          }
          return Handled::kDefault;
        },
        [&](int& emitted) {
          if (!selector_ok || tolerations < patch.tolerations) return false;
          if (!node_seen && !patch.node.empty()) {
            Key(indent, emitted, "\"nodeName\"");
            *out_ += Quoted(patch.node);
          }
          return true;
        });
  }

  // Whether a nodeSelector object's text (valid, printed already) holds every pair of
  // `selector`: then the writer would change nothing. Escaped strings decline.
  static bool SelectorHolds(std::string_view text, const core::Labels& selector) {
    size_t matched = 0;
    size_t i = 1;  // after '{'
    auto string_at = [&](std::string_view* s) {
      while (i < text.size() && text[i] != '"') ++i;
      const size_t start = ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\') return false;
        ++i;
      }
      if (i >= text.size()) return false;
      *s = text.substr(start, i - start);
      ++i;
      return true;
    };
    while (i < text.size()) {
      while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\n')) ++i;
      if (i >= text.size() || text[i] == '}') break;
      std::string_view key;
      std::string_view value;
      if (!string_at(&key)) return false;
      while (i < text.size() && text[i] != ':') ++i;
      ++i;
      while (i < text.size() && text[i] == ' ') ++i;
      if (i >= text.size() || text[i] != '"') return false;  // a non-string value
      if (!string_at(&value)) return false;
      auto it = selector.find(std::string(key));
      if (it != selector.end() && it->second == value) ++matched;
    }
    return matched == selector.size();
  }

  // status: the PodScheduled condition patched into conditions, or conditions added last
  // (as PatchCondition adds them) when the status has none.
  bool Status(int indent) {
    bool conditions_seen = false;
    return Object(
        indent,
        [&](std::string_view key, int& emitted) {
          if (key != "\"conditions\"") return Handled::kDefault;
          conditions_seen = true;
          if (Peek() != '[') return Handled::kFail;
          Key(indent, emitted, key);
          return Conditions(indent + 2) ? Handled::kDone : Handled::kFail;
        },
        [&](int& emitted) {
          if (!conditions_seen) NewConditions(indent, emitted);
          return true;
        });
  }

  // A "conditions" member (of an object printed at `indent`) holding only the new condition.
  void NewConditions(int indent, int& emitted) {
    Key(indent, emitted, "\"conditions\"");
    *out_ += '[';
    NewCondition(indent + 2, 0);
    CloseArray(indent + 2, 1);
  }

  // The PodScheduled condition as PatchCondition builds it (type, status, then reason and
  // message if set), appended to an array printed at `indent` that holds n elements so far.
  void NewCondition(int indent, size_t n) {
    const model::PodCondition& cond = *patch_->condition;
    *out_ += n == 0 ? "\n" : ",\n";
    Indent(indent + 2);
    *out_ += "{\n";
    Indent(indent + 4);
    *out_ += "\"type\": " + Quoted(cond.type) + ",\n";
    Indent(indent + 4);
    *out_ += "\"status\": " + Quoted(cond.status);
    if (!cond.reason.empty()) {
      *out_ += ",\n";
      Indent(indent + 4);
      *out_ += "\"reason\": " + Quoted(cond.reason);
    }
    if (!cond.message.empty()) {
      *out_ += ",\n";
      Indent(indent + 4);
      *out_ += "\"message\": " + Quoted(cond.message);
    }
    *out_ += '\n';
    Indent(indent + 2);
    *out_ += '}';
  }

  // Whether the object at pos_ has a top-level "type":"PodScheduled" member; pos_ unchanged.
  bool IsPodScheduled() {
    const size_t start = pos_;
    bool found = false;
    ++pos_;
    while (true) {
      SkipWs();
      if (Peek() == '}' || Peek() == '\0') break;
      std::string_view key;
      if (!ScanString(&key)) break;
      SkipWs();
      if (Peek() != ':') break;
      ++pos_;
      SkipWs();
      if (key == "\"type\"" && in_.substr(pos_, 14) == "\"PodScheduled\"") found = true;
      if (!SkipValue()) break;
      SkipWs();
      if (Peek() == ',') ++pos_;
    }
    pos_ = start;
    return found;
  }

  bool Conditions(int indent) {
    const model::PodCondition& cond = *patch_->condition;
    bool patched = false;
    size_t n = 0;
    const bool ok = ArrayOf(indent, &n, [&](size_t) {
      SkipWs();
      if (patched || Peek() != '{' || !IsPodScheduled()) return Value(indent + 2);
      patched = true;
      return Condition(indent + 2, cond);
    });
    if (!ok) return false;
    if (!patched) {
      NewCondition(indent, n);
      ++n;
    }
    return CloseArray(indent, n);
  }

  // The PodScheduled condition: status replaced; reason and message replaced, or erased
  // when the plan has none; the ones missing appended (status, reason, message).
  bool Condition(int indent, const model::PodCondition& cond) {
    bool status_seen = false;
    bool reason_seen = false;
    bool message_seen = false;
    return Object(
        indent,
        [&](std::string_view key, int& emitted) {
          const std::string* value = nullptr;
          if (key == "\"status\"") {
            status_seen = true;
            value = &cond.status;
          } else if (key == "\"reason\"") {
            reason_seen = true;
            value = &cond.reason;
          } else if (key == "\"message\"") {
            message_seen = true;
            value = &cond.message;
          } else {
            return Handled::kDefault;
          }
          if (!SkipValue()) return Handled::kFail;
          if (key != "\"status\"" && value->empty()) return Handled::kDone;  // erased
          Key(indent, emitted, key);
          *out_ += Quoted(*value);
          return Handled::kDone;
        },
        [&](int& emitted) {
          if (!status_seen) {
            Key(indent, emitted, "\"status\"");
            *out_ += Quoted(cond.status);
          }
          if (!reason_seen && !cond.reason.empty()) {
            Key(indent, emitted, "\"reason\"");
            *out_ += Quoted(cond.reason);
          }
          if (!message_seen && !cond.message.empty()) {
            Key(indent, emitted, "\"message\"");
            *out_ += Quoted(cond.message);
          }
          return true;
        });
  }

  std::string_view in_;
  std::string* out_;
  size_t pos_ = 0;
  const PodPatch* patch_ = nullptr;
  std::vector<std::string_view> keys_;  // keys of the objects open, for duplicates
};

}  // namespace

bool PrettyPod(std::string_view json, const PodPatch& patch, int indent, std::string* out) {
  const size_t size = out->size();
  Printer printer(json, out);
  if (printer.Pod(patch, indent)) return true;
  out->resize(size);
  return false;
}

}  // namespace berth::io::internal
