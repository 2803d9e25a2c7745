// Why a size and an element size per node: the cost of a comprehension is its range's size
// times its body's cost, and the body's own ranges are often the range's elements (nested
// lists) or the iteration variable. Tracking one level of nesting exactly and bounding the
// rest by max_variable_size keeps the pass linear and still catches the costly shapes:
// nested macros (k levels over n elements cost n^k), and `+` doubling through cel.bind.
#include "cel/internal/cost_estimate.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace berth::cel::internal {
namespace {

constexpr uint64_t kInfinite = std::numeric_limits<uint64_t>::max();

uint64_t Add(uint64_t a, uint64_t b) { return a > kInfinite - b ? kInfinite : a + b; }
uint64_t Mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kInfinite / b ? kInfinite : a * b;
}

struct Estimate {
  uint64_t cost = 0;  // charged units, at most
  uint64_t size = 0;  // elements, entries or bytes of the value, at most
  uint64_t elem = 0;  // the same for each element (key or value) of a list or map
};

struct Local {
  const std::string* name;
  Estimate value;
};

class Estimator {
 public:
  explicit Estimator(uint64_t max_variable_size)
      : unknown_{0, max_variable_size, max_variable_size} {}

  // Recursion depth is the parser's bounded tree depth.
  Estimate Of(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        return Literal(e);
      case ExprKind::kIdent:
        return Ident(e);
      case ExprKind::kSelect:
      case ExprKind::kHas:
        return Unknown(Of(*e.args[0]).cost);
      case ExprKind::kCall:
        return Call(e);
      case ExprKind::kList: {
        Estimate out{0, e.args.size(), 0};
        for (const auto& a : e.args) {
          const Estimate item = Of(*a);
          out.cost = Add(out.cost, item.cost);
          out.elem = std::max(out.elem, item.size);
        }
        return out;
      }
      case ExprKind::kMap: {
        Estimate out{0, e.args.size() / 2, 0};
        for (const auto& a : e.args) {
          const Estimate item = Of(*a);
          out.cost = Add(out.cost, item.cost);
          out.elem = std::max(out.elem, item.size);
        }
        return out;
      }
      case ExprKind::kComprehension:
        return Comprehension(e);
      case ExprKind::kBind: {
        const Estimate init = Of(*e.args[0]);
        locals_.push_back({&e.name, init});
        Estimate body = Of(*e.args[1]);
        locals_.pop_back();
        body.cost = Add(body.cost, init.cost);
        return body;
      }
    }
    return Unknown(kInfinite);
  }

 private:
  Estimate Unknown(uint64_t cost) const {
    Estimate out = unknown_;
    out.cost = cost;
    return out;
  }

  static Estimate Literal(const Expr& e) {
    switch (e.literal.kind()) {
      case ValueKind::kString:
        return {0, e.literal.string_value().size(), 0};
      case ValueKind::kBytes:
        return {0, e.literal.bytes_value().size(), 0};
      default:
        return {};
    }
  }

  Estimate Ident(const Expr& e) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
      if (*it->name == e.name) return {0, it->value.size, it->value.elem};
    }
    return unknown_;
  }

  Estimate Call(const Expr& e) {
    std::vector<Estimate> args;
    args.reserve(e.args.size());
    uint64_t cost = 0;
    for (const auto& a : e.args) {
      args.push_back(Of(*a));
      cost = Add(cost, args.back().cost);
    }
    if (e.name == "_+_" && args.size() == 2) {
      // The runtime charges the size of what it builds.
      const uint64_t size = Add(args[0].size, args[1].size);
      return {Add(cost, size), size, std::max(args[0].elem, args[1].elem)};
    }
    if (e.name == "_?_:_" && args.size() == 3) {
      return {Add(args[0].cost, std::max(args[1].cost, args[2].cost)),
              std::max(args[1].size, args[2].size), std::max(args[1].elem, args[2].elem)};
    }
    if (e.name == "_[_]" && !args.empty()) {
      return {cost, std::max(args[0].elem, unknown_.size), unknown_.elem};
    }
    // Other functions build at most what they are given (lowerAscii, a list's element) or
    // read data (bounded like a variable).
    Estimate out = unknown_;
    out.cost = cost;
    for (const Estimate& a : args) out.size = std::max(out.size, a.size);
    return out;
  }

  Estimate Comprehension(const Expr& e) {
    const Estimate range = Of(*e.args[0]);
    locals_.push_back({&e.name, {0, range.elem, unknown_.elem}});
    uint64_t step = 1;  // the runtime's charge per iteration
    Estimate last;
    for (size_t i = 1; i < e.args.size(); ++i) {
      last = Of(*e.args[i]);
      step = Add(step, last.cost);
    }
    locals_.pop_back();
    Estimate out;
    out.cost = Add(range.cost, Mul(range.size, step));
    switch (e.macro) {
      case MacroKind::kMap:
      case MacroKind::kMapFilter:
        out.size = range.size;
        out.elem = last.size;
        break;
      case MacroKind::kFilter:
        out.size = range.size;
        out.elem = range.elem;
        break;
      default:
        break;  // a bool
    }
    return out;
  }

  Estimate unknown_;
  std::vector<Local> locals_;
};

}  // namespace

uint64_t EstimateMaxCost(const Expr& root, uint64_t max_variable_size) {
  return Estimator(max_variable_size).Of(root).cost;
}

}  // namespace berth::cel::internal
