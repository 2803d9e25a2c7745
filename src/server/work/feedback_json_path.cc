// A small recursive-descent parser for the JSONPath subset OCM's rules use, and an evaluator
// following client-go's jsonpath.go (evalField, evalArray, evalFilter, evalWildcard) with
// AllowMissingKeys(true), which is how OCM's status reader and ignoreFields call it: a
// missing key selects nothing, but an index into something that is not an array, an index
// out of bounds, or a comparison of unlike values is an error. JSON null is skipped as Go's
// template.Indirect skips a nil interface. Numbers compare numerically whatever their JSON
// form (Go refuses int against float; no feedback path in OCM's tests relies on that).
#include "server/work/feedback_json_path.h"

#include <utility>

namespace berth::server::work {

namespace {

using PathStep = FeedbackJsonPath::Step;

bool JsonPathSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Characters that end an unquoted field name.
bool JsonPathNameEnd(char c) {
  return c == '.' || c == '[' || c == ']' || c == '(' || c == ')' || c == '=' || c == '!' ||
         c == '<' || c == '>' || c == ',' || c == '\'' || c == '"' || JsonPathSpace(c);
}

class JsonPathParser {
 public:
  explicit JsonPathParser(std::string_view text) : text_(text) {}

  core::Result<std::vector<PathStep>> ParseRoot() {
    SkipSpaces();
    if (Peek() == '$') ++pos_;  // "$.a" names the same root as ".a"
    auto steps = ParseSteps(/*relative=*/false);
    if (!steps) return steps;
    SkipSpaces();
    if (pos_ != text_.size()) return Fail("unexpected character");
    return steps;
  }

 private:
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  void SkipSpaces() {
    while (!AtEnd() && JsonPathSpace(text_[pos_])) ++pos_;
  }
  core::Error Fail(std::string_view what) const {
    return core::InvalidArgument(std::string(what) + " at byte " + std::to_string(pos_) +
                                 " of JSONPath \"" + std::string(text_) + "\"");
  }

  // Steps until the end, or (relative, inside a filter) until a space, operator or ')'.
  core::Result<std::vector<PathStep>> ParseSteps(bool relative) {
    std::vector<PathStep> steps;
    while (!AtEnd()) {
      const char c = Peek();
      if (c == '.') {
        ++pos_;
        if (Peek() == '.') return Fail("recursive descent (..) is not supported");
        if (Peek() == '*') {
          ++pos_;
          PathStep wildcard;
          wildcard.kind = PathStep::Kind::kWildcard;
          steps.push_back(std::move(wildcard));
          continue;
        }
        const size_t start = pos_;
        while (!AtEnd() && !JsonPathNameEnd(text_[pos_])) ++pos_;
        if (pos_ == start) return Fail("a field name is missing");
        PathStep field;
        field.field = std::string(text_.substr(start, pos_ - start));
        steps.push_back(std::move(field));
      } else if (c == '[') {
        ++pos_;
        auto step = ParseBracket();
        if (!step) return step.error();
        steps.push_back(std::move(step).value());
      } else if (relative) {
        break;
      } else {
        return Fail("unexpected character");
      }
    }
    return steps;
  }

  core::Result<PathStep> ParseBracket() {
    SkipSpaces();
    const char c = Peek();
    PathStep step;
    if (c == '*') {
      ++pos_;
      step.kind = PathStep::Kind::kWildcard;
    } else if (c == '\'' || c == '"') {
      auto name = ParseQuoted();
      if (!name) return name.error();
      step.kind = PathStep::Kind::kField;
      step.field = std::move(name).value();
    } else if (c == '?') {
      ++pos_;
      auto filter = ParseFilter();
      if (!filter) return filter;
      step = std::move(filter).value();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      auto index = ParseInteger();
      if (!index) return index.error();
      step.kind = PathStep::Kind::kIndex;
      step.index = *index;
    } else {
      return Fail("unsupported bracket expression");
    }
    SkipSpaces();
    if (Peek() == ':') return Fail("array slices are not supported");
    if (Peek() == ',') return Fail("unions are not supported");
    if (Peek() != ']') return Fail("']' expected");
    ++pos_;
    return step;
  }

  core::Result<std::string> ParseQuoted() {
    const char quote = Peek();
    ++pos_;
    const size_t start = pos_;
    while (!AtEnd() && text_[pos_] != quote) ++pos_;
    if (AtEnd()) return Fail("unterminated quoted string");
    std::string out(text_.substr(start, pos_ - start));
    ++pos_;
    return out;
  }

  core::Result<int64_t> ParseInteger() {
    bool negative = false;
    if (Peek() == '-') {
      negative = true;
      ++pos_;
    }
    if (!(Peek() >= '0' && Peek() <= '9')) return Fail("a digit is expected");
    int64_t n = 0;
    while (Peek() >= '0' && Peek() <= '9') {
      if (n > 100'000'000) return Fail("the index is too large");
      n = n * 10 + (Peek() - '0');
      ++pos_;
    }
    return negative ? -n : n;
  }

  // After "[?": "(@PATH [OP OPERAND])".
  core::Result<PathStep> ParseFilter() {
    SkipSpaces();
    if (Peek() != '(') return Fail("'(' expected after '?'");
    ++pos_;
    SkipSpaces();
    if (Peek() != '@') return Fail("a filter must start with '@'");
    ++pos_;
    PathStep step;
    step.kind = PathStep::Kind::kFilter;
    auto left = ParseSteps(/*relative=*/true);
    if (!left) return left.error();
    step.left = std::move(left).value();
    SkipSpaces();
    if (Peek() != ')') {
      for (std::string_view op : {"==", "!=", "<=", ">=", "<", ">"}) {
        if (text_.substr(pos_, op.size()) == op) {
          step.op = std::string(op);
          pos_ += op.size();
          break;
        }
      }
      if (step.op.empty()) return Fail("unsupported filter operator");
      SkipSpaces();
      auto right = ParseOperand(&step);
      if (!right.ok()) return right.error();
      SkipSpaces();
    }
    if (Peek() != ')') return Fail("')' expected");
    ++pos_;
    return step;
  }

  core::Status ParseOperand(PathStep* step) {
    const char c = Peek();
    if (c == '@') {
      ++pos_;
      auto path = ParseSteps(/*relative=*/true);
      if (!path) return path.error();
      step->right_is_path = true;
      step->right_path = std::move(path).value();
      return core::OkStatus();
    }
    if (c == '\'' || c == '"') {
      auto s = ParseQuoted();
      if (!s) return s.error();
      step->literal = std::move(s).value();
      return core::OkStatus();
    }
    if (text_.substr(pos_, 4) == "true") {
      pos_ += 4;
      step->literal = true;
      return core::OkStatus();
    }
    if (text_.substr(pos_, 5) == "false") {
      pos_ += 5;
      step->literal = false;
      return core::OkStatus();
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t start = pos_;
      if (c == '-') ++pos_;
      bool fraction = false;
      while ((Peek() >= '0' && Peek() <= '9') || (Peek() == '.' && !fraction)) {
        fraction = fraction || Peek() == '.';
        ++pos_;
      }
      const Json number =
          Json::parse(text_.substr(start, pos_ - start), nullptr, /*allow_exceptions=*/false);
      if (!number.is_number()) return Fail("a number is malformed");
      step->literal = number;
      return core::OkStatus();
    }
    return Fail("unsupported filter operand");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Go's name of the type a JSON value decodes to in an unstructured object.
std::string JsonPathGoType(const Json& v) {
  if (v.is_object()) return "map[string]interface {}";
  if (v.is_array()) return "[]interface {}";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number_float()) return "float64";
  if (v.is_number()) return "int64";
  return "<nil>";
}

core::Result<bool> JsonPathCompare(const Json& left, const std::string& op, const Json& right) {
  int order = 0;  // <0, 0, >0
  if (left.is_string() && right.is_string()) {
    const auto& a = left.get_ref<const std::string&>();
    const auto& b = right.get_ref<const std::string&>();
    order = a < b ? -1 : (a == b ? 0 : 1);
  } else if (left.is_number() && right.is_number()) {
    if (left.is_number_integer() && right.is_number_integer()) {
      const int64_t a = left.get<int64_t>();
      const int64_t b = right.get<int64_t>();
      order = a < b ? -1 : (a == b ? 0 : 1);
    } else {
      const double a = left.get<double>();
      const double b = right.get<double>();
      order = a < b ? -1 : (a == b ? 0 : 1);
    }
  } else if (left.is_boolean() && right.is_boolean()) {
    if (op != "==" && op != "!=") return core::InvalidArgument("invalid type for comparison");
    order = left.get<bool>() == right.get<bool>() ? 0 : 1;
  } else {
    return core::InvalidArgument("incompatible types for comparison");
  }
  if (op == "==") return order == 0;
  if (op == "!=") return order != 0;
  if (op == "<") return order < 0;
  if (op == ">") return order > 0;
  if (op == "<=") return order <= 0;
  return order >= 0;
}

core::Result<std::vector<const Json*>> JsonPathEval(const std::vector<PathStep>& steps,
                                                    std::vector<const Json*> cur) {
  for (const PathStep& step : steps) {
    std::vector<const Json*> next;
    for (const Json* v : cur) {
      if (v->is_null()) continue;
      switch (step.kind) {
        case PathStep::Kind::kField:
          if (v->is_object()) {
            if (auto it = v->find(step.field); it != v->end()) next.push_back(&*it);
          }
          break;
        case PathStep::Kind::kWildcard:
          if (v->is_object() || v->is_array()) {
            for (const Json& e : *v) next.push_back(&e);
          }
          break;
        case PathStep::Kind::kIndex: {
          if (!v->is_array()) {
            return core::InvalidArgument(JsonPathGoType(*v) + " is not array or slice");
          }
          const auto length = static_cast<int64_t>(v->size());
          const int64_t i = step.index < 0 ? step.index + length : step.index;
          if (i < 0 || i >= length) {
            return core::InvalidArgument("array index out of bounds: index " + std::to_string(i) +
                                         ", length " + std::to_string(length));
          }
          next.push_back(&(*v)[static_cast<size_t>(i)]);
          break;
        }
        case PathStep::Kind::kFilter: {
          if (!v->is_array()) {
            return core::InvalidArgument(
                v->dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 200) +
                " is not array or slice and cannot be filtered");
          }
          for (const Json& e : *v) {
            auto lefts = JsonPathEval(step.left, {&e});
            if (step.op.empty()) {
              if (lefts && !lefts->empty()) next.push_back(&e);
              continue;
            }
            if (!lefts) return lefts;
            if (lefts->empty()) continue;
            if (lefts->size() > 1) {
              return core::InvalidArgument("can only compare one element at a time");
            }
            const Json* right = &step.literal;
            if (step.right_is_path) {
              auto rights = JsonPathEval(step.right_path, {&e});
              if (!rights) return rights;
              if (rights->empty()) continue;
              if (rights->size() > 1) {
                return core::InvalidArgument("can only compare one element at a time");
              }
              right = rights->front();
            }
            auto pass = JsonPathCompare(*lefts->front(), step.op, *right);
            if (!pass) return pass.error();
            if (*pass) next.push_back(&e);
          }
          break;
        }
      }
    }
    cur = std::move(next);
  }
  return cur;
}

}  // namespace

core::Result<FeedbackJsonPath> FeedbackJsonPath::Parse(std::string_view path) {
  while (!path.empty() && JsonPathSpace(path.front())) path.remove_prefix(1);
  while (!path.empty() && JsonPathSpace(path.back())) path.remove_suffix(1);
  if (path.size() >= 2 && path.front() == '{' && path.back() == '}') {
    path = path.substr(1, path.size() - 2);
  }
  if (path.empty()) return core::InvalidArgument("the JSONPath is empty");
  JsonPathParser parser(path);
  BERTH_ASSIGN_OR_RETURN(std::vector<PathStep> steps, parser.ParseRoot());
  return FeedbackJsonPath(std::move(steps));
}

core::Result<std::vector<const Json*>> FeedbackJsonPath::Find(const Json& object) const {
  return JsonPathEval(steps_, {&object});
}

core::Result<std::vector<Json*>> FeedbackJsonPath::FindIn(Json& object) const {
  BERTH_ASSIGN_OR_RETURN(std::vector<const Json*> found, Find(object));
  std::vector<Json*> out;
  out.reserve(found.size());
  // Every pointer points into `object`, which the caller holds mutably.
  for (const Json* v : found) out.push_back(const_cast<Json*>(v));
  return out;
}

}  // namespace berth::server::work
