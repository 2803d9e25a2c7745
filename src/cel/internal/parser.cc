// Each Parse* function returns nullptr after recording the first issue; callers return at
// once, so the first syntax error is the one reported (cel-go reports all, berth the first).
#include "cel/internal/parser.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace berth::cel::internal {

namespace {

using ExprPtr = std::unique_ptr<Expr>;

class Parser {
 public:
  Parser(std::string_view source, std::vector<Token> tokens, int max_depth, SyntaxIssue* issue)
      : source_(source), tokens_(std::move(tokens)), max_depth_(max_depth), issue_(issue) {}

  ExprPtr ParseAll() {
    ExprPtr e = ParseExpr();
    if (e == nullptr) return nullptr;
    if (Peek().kind != TokenKind::kEof) {
      return Fail(Peek().offset,
                  "Syntax error: mismatched input " + Describe(Peek()) + " expecting <EOF>");
    }
    return e;
  }

 private:
  // Recursion guard for the nesting that goes through ParseExpr.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) { ++p_->depth_; }
    ~DepthGuard() { --p_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser* p_;
  };

  const Token& Peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  const Token& Take() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool At(TokenKind kind) const { return Peek().kind == kind; }

  std::string Describe(const Token& t) const {
    if (t.kind == TokenKind::kEof) return "'<EOF>'";
    // Built piecewise: GCC 12 reports a false -Wrestrict on "'" + std::string(...).
    std::string out(1, '\'');
    out.append(source_.substr(t.offset, t.length));
    out.push_back('\'');
    return out;
  }

  ExprPtr Fail(size_t offset, std::string message) {
    if (!failed_) {
      failed_ = true;
      issue_->offset = offset;
      issue_->message = std::move(message);
    }
    return nullptr;
  }

  bool Expect(TokenKind kind) {
    if (At(kind)) {
      Take();
      return true;
    }
    Fail(Peek().offset, std::string("Syntax error: mismatched input ") + Describe(Peek()) +
                            " expecting " + TokenKindName(kind));
    return false;
  }

  // Finishes a node: depth bookkeeping and the AST depth limit.
  ExprPtr Finish(ExprPtr e) {
    uint32_t depth = 1;
    for (const ExprPtr& a : e->args) depth = std::max(depth, a->depth + 1);
    e->depth = depth;
    if (static_cast<int64_t>(depth) > max_depth_) {
      return Fail(e->offset, "expression recursion limit exceeded: " + std::to_string(max_depth_));
    }
    return e;
  }

  ExprPtr NewNode(ExprKind kind, uint32_t offset) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->offset = offset;
    return e;
  }

  ExprPtr Call(std::string name, uint32_t offset, std::vector<ExprPtr> args,
               bool receiver = false) {
    ExprPtr e = NewNode(ExprKind::kCall, offset);
    e->name = std::move(name);
    e->args = std::move(args);
    e->receiver = receiver;
    return Finish(std::move(e));
  }

  ExprPtr Binary(const char* name, uint32_t offset, ExprPtr lhs, ExprPtr rhs) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(lhs));
    args.push_back(std::move(rhs));
    return Call(name, offset, std::move(args));
  }

  // expr = or ["?" or ":" expr]
  ExprPtr ParseExpr() {
    DepthGuard guard(this);
    if (depth_ > max_depth_) {
      return Fail(Peek().offset,
                  "expression recursion limit exceeded: " + std::to_string(max_depth_));
    }
    ExprPtr cond = ParseOr();
    if (cond == nullptr || !At(TokenKind::kQuestion)) return cond;
    uint32_t offset = Take().offset;
    ExprPtr then_expr = ParseOr();
    if (then_expr == nullptr || !Expect(TokenKind::kColon)) return nullptr;
    ExprPtr else_expr = ParseExpr();
    if (else_expr == nullptr) return nullptr;
    std::vector<ExprPtr> args;
    args.push_back(std::move(cond));
    args.push_back(std::move(then_expr));
    args.push_back(std::move(else_expr));
    return Call("_?_:_", offset, std::move(args));
  }

  // Builds a balanced tree over operands[lo, hi) joined by ops[lo, hi-1) (operator offsets).
  ExprPtr Balance(const char* name, std::vector<ExprPtr>& operands,
                  const std::vector<uint32_t>& offsets, size_t lo, size_t hi) {
    if (hi - lo == 1) return std::move(operands[lo]);
    size_t mid = lo + (hi - lo) / 2;
    ExprPtr left = Balance(name, operands, offsets, lo, mid);
    if (left == nullptr) return nullptr;
    ExprPtr right = Balance(name, operands, offsets, mid, hi);
    if (right == nullptr) return nullptr;
    return Binary(name, offsets[mid - 1], std::move(left), std::move(right));
  }

  ExprPtr ParseLogical(TokenKind op, const char* name, ExprPtr (Parser::*next)()) {
    ExprPtr first = (this->*next)();
    if (first == nullptr || !At(op)) return first;
    std::vector<ExprPtr> operands;
    std::vector<uint32_t> offsets;
    operands.push_back(std::move(first));
    while (At(op)) {
      offsets.push_back(Take().offset);
      ExprPtr e = (this->*next)();
      if (e == nullptr) return nullptr;
      operands.push_back(std::move(e));
    }
    return Balance(name, operands, offsets, 0, operands.size());
  }

  ExprPtr ParseOr() { return ParseLogical(TokenKind::kOrOr, "_||_", &Parser::ParseAnd); }
  ExprPtr ParseAnd() { return ParseLogical(TokenKind::kAndAnd, "_&&_", &Parser::ParseRelation); }

  static const char* RelationName(TokenKind k) {
    switch (k) {
      case TokenKind::kLess:
        return "_<_";
      case TokenKind::kLessEq:
        return "_<=_";
      case TokenKind::kGreater:
        return "_>_";
      case TokenKind::kGreaterEq:
        return "_>=_";
      case TokenKind::kEqEq:
        return "_==_";
      case TokenKind::kNotEq:
        return "_!=_";
      case TokenKind::kIn:
        return "@in";
      default:
        return nullptr;
    }
  }

  ExprPtr ParseRelation() {
    ExprPtr lhs = ParseAdditive();
    while (lhs != nullptr) {
      const char* name = RelationName(Peek().kind);
      if (name == nullptr) break;
      uint32_t offset = Take().offset;
      ExprPtr rhs = ParseAdditive();
      if (rhs == nullptr) return nullptr;
      lhs = Binary(name, offset, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  ExprPtr ParseAdditive() {
    ExprPtr lhs = ParseMultiplicative();
    while (lhs != nullptr && (At(TokenKind::kPlus) || At(TokenKind::kMinus))) {
      const char* name = At(TokenKind::kPlus) ? "_+_" : "_-_";
      uint32_t offset = Take().offset;
      ExprPtr rhs = ParseMultiplicative();
      if (rhs == nullptr) return nullptr;
      lhs = Binary(name, offset, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  ExprPtr ParseMultiplicative() {
    ExprPtr lhs = ParseUnary();
    while (lhs != nullptr &&
           (At(TokenKind::kStar) || At(TokenKind::kSlash) || At(TokenKind::kPercent))) {
      const char* name = At(TokenKind::kStar) ? "_*_" : (At(TokenKind::kSlash) ? "_/_" : "_%_");
      uint32_t offset = Take().offset;
      ExprPtr rhs = ParseUnary();
      if (rhs == nullptr) return nullptr;
      lhs = Binary(name, offset, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  // unary = member | "!"+ member | "-"+ member. As in cel-go, an even run of the same
  // operator cancels out, and "-" directly before a number is the literal's sign.
  ExprPtr ParseUnary() {
    if (At(TokenKind::kBang) || At(TokenKind::kMinus)) {
      TokenKind op = Peek().kind;
      uint32_t offset = Peek().offset;
      int count = 0;
      while (At(op)) {
        Take();
        ++count;
      }
      bool negative_literal = false;
      if (op == TokenKind::kMinus && (At(TokenKind::kInt) || At(TokenKind::kDouble))) {
        negative_literal = true;
        --count;
      }
      ExprPtr operand = ParseMember(negative_literal);
      if (operand == nullptr || count % 2 == 0) return operand;
      std::vector<ExprPtr> args;
      args.push_back(std::move(operand));
      return Call(op == TokenKind::kBang ? "!_" : "-_", offset, std::move(args));
    }
    return ParseMember(false);
  }

  ExprPtr ParseMember(bool negative_literal) {
    ExprPtr e = ParsePrimary(negative_literal);
    while (e != nullptr) {
      if (At(TokenKind::kDot)) {
        uint32_t dot = Take().offset;
        if (!At(TokenKind::kIdent)) {
          return Fail(Peek().offset, "Syntax error: mismatched input " + Describe(Peek()) +
                                         " expecting IDENTIFIER");
        }
        std::string field = Take().text;
        if (At(TokenKind::kLParen)) {
          uint32_t open = Take().offset;
          std::vector<ExprPtr> args;
          args.push_back(std::move(e));
          if (!ParseArgs(TokenKind::kRParen, &args)) return nullptr;
          e = ReceiverCallOrMacro(std::move(field), open, std::move(args));
        } else {
          ExprPtr sel = NewNode(ExprKind::kSelect, dot);
          sel->name = std::move(field);
          sel->args.push_back(std::move(e));
          e = Finish(std::move(sel));
        }
      } else if (At(TokenKind::kLBracket)) {
        uint32_t open = Take().offset;
        ExprPtr index = ParseExpr();
        if (index == nullptr || !Expect(TokenKind::kRBracket)) return nullptr;
        e = Binary("_[_]", open, std::move(e), std::move(index));
      } else {
        break;
      }
    }
    return e;
  }

  // Parses "a, b, c" up to `close` (a trailing comma is allowed only in list and map
  // literals, which handle it themselves) and consumes `close`.
  bool ParseArgs(TokenKind close, std::vector<ExprPtr>* args) {
    if (At(close)) {
      Take();
      return true;
    }
    while (true) {
      ExprPtr a = ParseExpr();
      if (a == nullptr) return false;
      args->push_back(std::move(a));
      if (At(TokenKind::kComma)) {
        Take();
        continue;
      }
      return Expect(close);
    }
  }

  ExprPtr ParsePrimary(bool negative_literal) {
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kInt:
        return IntLiteral(Take(), negative_literal);
      case TokenKind::kUint:
        return UintLiteral(Take());
      case TokenKind::kDouble:
        return DoubleLiteral(Take(), negative_literal);
      case TokenKind::kString: {
        const Token& s = Take();
        return Literal(s.offset, Value::String(s.text));
      }
      case TokenKind::kBytes: {
        const Token& s = Take();
        return Literal(s.offset, Value::Bytes(s.text));
      }
      case TokenKind::kTrue:
        return Literal(Take().offset, Value::Bool(true));
      case TokenKind::kFalse:
        return Literal(Take().offset, Value::Bool(false));
      case TokenKind::kNull:
        return Literal(Take().offset, Value::Null());
      case TokenKind::kLParen: {
        Take();
        ExprPtr e = ParseExpr();
        if (e == nullptr || !Expect(TokenKind::kRParen)) return nullptr;
        return e;
      }
      case TokenKind::kLBracket:
        return ListLiteral();
      case TokenKind::kLBrace:
        return MapLiteral();
      case TokenKind::kDot:
        // A leading dot names the root scope (".device"); berth has no containers, so it
        // is the same identifier.
        if (Peek(1).kind == TokenKind::kIdent) {
          Take();
          return Identifier();
        }
        break;
      case TokenKind::kIdent:
        return Identifier();
      default:
        break;
    }
    if (t.kind == TokenKind::kEof) {
      return Fail(t.offset, "Syntax error: mismatched input '<EOF>' expecting an expression");
    }
    return Fail(t.offset,
                "Syntax error: mismatched input " + Describe(t) + " expecting an expression");
  }

  ExprPtr Identifier() {
    const Token& id = Take();
    if (IsReservedWord(id.text)) {
      return Fail(id.offset, "reserved identifier: " + id.text);
    }
    if (At(TokenKind::kLParen)) {
      uint32_t open = Take().offset;
      std::vector<ExprPtr> args;
      if (!ParseArgs(TokenKind::kRParen, &args)) return nullptr;
      return GlobalCallOrMacro(id.text, open, std::move(args));
    }
    ExprPtr e = NewNode(ExprKind::kIdent, id.offset);
    e->name = id.text;
    return Finish(std::move(e));
  }

  ExprPtr GlobalCallOrMacro(const std::string& name, uint32_t open, std::vector<ExprPtr> args) {
    if (name == "has" && args.size() == 1) {
      if (args[0]->kind != ExprKind::kSelect) {
        return Fail(args[0]->offset, "invalid argument to has() macro");
      }
      ExprPtr sel = std::move(args[0]);
      sel->kind = ExprKind::kHas;
      return Finish(std::move(sel));
    }
    return Call(name, open, std::move(args));
  }

  // args[0] is the receiver.
  ExprPtr ReceiverCallOrMacro(std::string name, uint32_t open, std::vector<ExprPtr> args) {
    const size_t n = args.size() - 1;  // arguments besides the receiver
    MacroKind macro;
    bool is_macro = true;
    const char* ident_error = "argument must be a simple name";
    if (name == "all" && n == 2) {
      macro = MacroKind::kAll;
    } else if (name == "exists" && n == 2) {
      macro = MacroKind::kExists;
    } else if (name == "exists_one" && n == 2) {
      macro = MacroKind::kExistsOne;
    } else if (name == "map" && (n == 2 || n == 3)) {
      macro = n == 2 ? MacroKind::kMap : MacroKind::kMapFilter;
      ident_error = "argument is not an identifier";
    } else if (name == "filter" && n == 2) {
      macro = MacroKind::kFilter;
      ident_error = "argument is not an identifier";
    } else {
      is_macro = false;
    }
    if (name == "bind" && n == 3 && args[0]->kind == ExprKind::kIdent && args[0]->name == "cel") {
      if (args[1]->kind != ExprKind::kIdent) {
        return Fail(args[1]->offset, "cel.bind() variable names must be simple identifiers");
      }
      ExprPtr e = NewNode(ExprKind::kBind, open);
      e->name = args[1]->name;
      e->args.push_back(std::move(args[2]));
      e->args.push_back(std::move(args[3]));
      return Finish(std::move(e));
    }
    if (!is_macro) return Call(std::move(name), open, std::move(args), /*receiver=*/true);
    if (args[1]->kind != ExprKind::kIdent) return Fail(args[1]->offset, ident_error);
    ExprPtr e = NewNode(ExprKind::kComprehension, open);
    e->macro = macro;
    e->name = args[1]->name;
    e->args.push_back(std::move(args[0]));
    for (size_t i = 2; i < args.size(); ++i) e->args.push_back(std::move(args[i]));
    return Finish(std::move(e));
  }

  ExprPtr ListLiteral() {
    uint32_t open = Take().offset;
    ExprPtr e = NewNode(ExprKind::kList, open);
    while (!At(TokenKind::kRBracket)) {
      ExprPtr item = ParseExpr();
      if (item == nullptr) return nullptr;
      e->args.push_back(std::move(item));
      if (!At(TokenKind::kComma)) break;
      Take();
    }
    if (!Expect(TokenKind::kRBracket)) return nullptr;
    return Finish(std::move(e));
  }

  ExprPtr MapLiteral() {
    uint32_t open = Take().offset;
    ExprPtr e = NewNode(ExprKind::kMap, open);
    while (!At(TokenKind::kRBrace)) {
      ExprPtr key = ParseExpr();
      if (key == nullptr || !Expect(TokenKind::kColon)) return nullptr;
      ExprPtr value = ParseExpr();
      if (value == nullptr) return nullptr;
      e->args.push_back(std::move(key));
      e->args.push_back(std::move(value));
      if (!At(TokenKind::kComma)) break;
      Take();
    }
    if (!Expect(TokenKind::kRBrace)) return nullptr;
    return Finish(std::move(e));
  }

  ExprPtr Literal(uint32_t offset, Value v) {
    ExprPtr e = NewNode(ExprKind::kLiteral, offset);
    e->literal = std::move(v);
    return Finish(std::move(e));
  }

  // Magnitude of a decimal or 0x literal; false on overflow of uint64.
  static bool ParseMagnitude(const std::string& text, uint64_t* out) {
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
      begin += 2;
      base = 16;
    }
    auto [ptr, ec] = std::from_chars(begin, end, *out, base);
    return ec == std::errc() && ptr == end;
  }

  ExprPtr IntLiteral(const Token& t, bool negative) {
    // The offset of a negative literal is its sign, one token back.
    uint32_t offset = negative ? tokens_[pos_ - 2].offset : t.offset;
    uint64_t magnitude = 0;
    constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (!ParseMagnitude(t.text, &magnitude) || magnitude > kMax + (negative ? 1 : 0)) {
      return Fail(offset, "invalid int literal");
    }
    int64_t v = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return Literal(offset, Value::Int(v));
  }

  ExprPtr UintLiteral(const Token& t) {
    uint64_t v = 0;
    if (!ParseMagnitude(t.text, &v)) return Fail(t.offset, "invalid uint literal");
    return Literal(t.offset, Value::Uint(v));
  }

  ExprPtr DoubleLiteral(const Token& t, bool negative) {
    uint32_t offset = negative ? tokens_[pos_ - 2].offset : t.offset;
    double v = 0;
    const char* end = t.text.data() + t.text.size();
    auto [ptr, ec] = std::from_chars(t.text.data(), end, v);
    if (ec != std::errc() || ptr != end) return Fail(offset, "invalid double literal");
    return Literal(offset, Value::Double(negative ? -v : v));
  }

  std::string_view source_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  int max_depth_;
  bool failed_ = false;
  SyntaxIssue* issue_;
};

}  // namespace

std::unique_ptr<Expr> Parse(std::string_view source, int max_recursion_depth, SyntaxIssue* issue) {
  std::vector<Token> tokens;
  if (!Tokenize(source, &tokens, issue)) return nullptr;
  Parser parser(source, std::move(tokens), max_recursion_depth, issue);
  return parser.ParseAll();
}

}  // namespace berth::cel::internal
