// Type rules are cel-go's standard declarations, read leniently where berth's subset
// allows (cross-type numeric ==, comparisons with null, mixed list literals): a program
// that compiles upstream compiles here with the same meaning; a few that upstream rejects
// compile here and fail or not at run time (docs/cel.md lists them).
#include "cel/internal/planner.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/internal/functions.h"
#include "cel/internal/operators.h"
#include "cel/internal/regex.h"
#include "cel/internal/steps.h"

namespace berth::cel::internal {

namespace {

struct Node {
  StepPtr step;
  Type type;
};
using MaybeNode = std::optional<Node>;

bool IsNumeric(TypeKind k) {
  return k == TypeKind::kInt || k == TypeKind::kUint || k == TypeKind::kDouble;
}

// Whether values of the two types can ever be the same kind (dyn matches anything).
bool Compatible(const Type& a, const Type& b) {
  if (a.is_dyn() || b.is_dyn()) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case TypeKind::kList:
      return Compatible(a.elem(), b.elem());
    case TypeKind::kMap:
      return Compatible(a.key(), b.key()) && Compatible(a.value(), b.value());
    case TypeKind::kObject:
      return a.object_name() == b.object_name();
    default:
      return true;
  }
}

bool EqualityComparable(const Type& a, const Type& b) {
  return Compatible(a, b) || (IsNumeric(a.kind()) && IsNumeric(b.kind())) ||
         a.kind() == TypeKind::kNull || b.kind() == TypeKind::kNull;
}

bool Orderable(TypeKind k) {
  return IsNumeric(k) || k == TypeKind::kBool || k == TypeKind::kString || k == TypeKind::kBytes;
}

// The common type of two branches or elements: the type itself when they agree, else dyn.
Type Join(const Type& a, const Type& b) { return a == b ? a : Type::Dyn(); }

Type FromKind(TypeKind k) {
  switch (k) {
    case TypeKind::kNull:
      return Type::Null();
    case TypeKind::kBool:
      return Type::Bool();
    case TypeKind::kInt:
      return Type::Int();
    case TypeKind::kUint:
      return Type::Uint();
    case TypeKind::kDouble:
      return Type::Double();
    case TypeKind::kString:
      return Type::String();
    case TypeKind::kBytes:
      return Type::Bytes();
    case TypeKind::kList:
      return Type::List(Type::Dyn());
    case TypeKind::kMap:
      return Type::Map(Type::Dyn(), Type::Dyn());
    case TypeKind::kQuantity:
      return Type::Quantity();
    case TypeKind::kSemver:
      return Type::Semver();
    case TypeKind::kType:
      return Type::TypeOfTypes();
    default:
      return Type::Dyn();
  }
}

Type TypeOfLiteral(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return Type::Null();
    case ValueKind::kBool:
      return Type::Bool();
    case ValueKind::kInt:
      return Type::Int();
    case ValueKind::kUint:
      return Type::Uint();
    case ValueKind::kDouble:
      return Type::Double();
    case ValueKind::kString:
      return Type::String();
    case ValueKind::kBytes:
      return Type::Bytes();
    default:
      return Type::Dyn();
  }
}

bool ParamAccepts(TypeKind param, const Type& arg) {
  if (param == TypeKind::kDyn || arg.is_dyn()) return true;
  if (param == TypeKind::kMap && arg.kind() == TypeKind::kObject) return true;
  return param == arg.kind();
}

bool IsBoolish(const Type& t) { return t.is_dyn() || t.kind() == TypeKind::kBool; }

std::string Signature(const std::vector<Type>& types, bool receiver) {
  std::string out;
  size_t first = 0;
  if (receiver && !types.empty()) {
    out += types[0].ToString() + ".";
    first = 1;
  }
  out += "(";
  for (size_t i = first; i < types.size(); ++i) {
    if (i > first) out += ", ";
    out += types[i].ToString();
  }
  return out + ")";
}

constexpr std::array<const char*, 11> kTypeNames = {
    "bool", "int", "uint", "double", "string", "bytes", "list", "map", "null_type", "type", "dyn"};

class Planner {
 public:
  Planner(const Environment& env, SyntaxIssue* issue) : env_(env), issue_(issue) {}

  MaybeNode Visit(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        return Node{MakeConstant(e.literal), TypeOfLiteral(e.literal)};
      case ExprKind::kIdent:
        return VisitIdent(e);
      case ExprKind::kSelect:
      case ExprKind::kHas:
        return VisitSelect(e);
      case ExprKind::kCall:
        return VisitCall(e);
      case ExprKind::kList:
        return VisitList(e);
      case ExprKind::kMap:
        return VisitMap(e);
      case ExprKind::kComprehension:
        return VisitComprehension(e);
      case ExprKind::kBind:
        return VisitBind(e);
    }
    return Fail(e.offset, "unsupported expression");
  }

  size_t local_count() const { return max_slots_; }

 private:
  struct Local {
    std::string name;
    size_t slot;
    Type type;
  };

  MaybeNode Fail(uint32_t offset, std::string message) {
    issue_->offset = offset;
    issue_->message = std::move(message);
    return std::nullopt;
  }

  MaybeNode NoOverload(const Expr& e, const std::vector<Type>& types, bool receiver = false) {
    return Fail(e.offset, "found no matching overload for '" + e.name + "' applied to '" +
                              Signature(types, receiver) + "'");
  }

  static bool IsConstant(const Node& n) { return n.step->constant() != nullptr; }

  // Evaluates `step` now when every input is constant; none of the built-ins has side
  // effects, so the folded value is what every evaluation would compute.
  Node Finish(StepPtr step, Type type, bool all_constant) const {
    if (!all_constant) return Node{std::move(step), std::move(type)};
    // Constant subtrees read no variables; a folded comprehension still writes its own
    // iteration slot.
    std::vector<Value> locals(max_slots_);
    Frame frame;
    frame.locals = locals.data();
    Value v = step->Eval(frame);
    return Node{MakeConstant(std::move(v)), std::move(type)};
  }

  size_t PushLocal(const std::string& name, Type type) {
    size_t slot = next_slot_++;
    max_slots_ = std::max(max_slots_, next_slot_);
    scope_.push_back(Local{name, slot, std::move(type)});
    return slot;
  }

  void PopLocal() {
    scope_.pop_back();
    --next_slot_;
  }

  MaybeNode VisitIdent(const Expr& e) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
      if (it->name == e.name) return Node{MakeLocal(it->slot), it->type};
    }
    if (std::optional<size_t> slot = env_.FindVariable(e.name)) {
      return Node{MakeVariable(*slot, e.name), env_.variable(*slot).type};
    }
    for (const char* t : kTypeNames) {
      if (e.name == t) return Node{MakeConstant(Value::Type(t)), Type::TypeOfTypes()};
    }
    return Fail(e.offset, "undeclared reference to '" + e.name + "' (in container '')");
  }

  MaybeNode VisitSelect(const Expr& e) {
    MaybeNode operand = Visit(*e.args[0]);
    if (!operand) return std::nullopt;
    const Type& t = operand->type;
    Type result;
    switch (t.kind()) {
      case TypeKind::kDyn:
        break;
      case TypeKind::kMap:
        result = t.value();
        break;
      case TypeKind::kObject: {
        const Type::Field* field = t.FindField(e.name);
        if (field == nullptr) return Fail(e.offset, "undefined field '" + e.name + "'");
        result = field->type;
        break;
      }
      default:
        return Fail(e.offset, "type '" + t.ToString() + "' does not support field selection");
    }
    bool constant = IsConstant(*operand);
    if (e.kind == ExprKind::kHas) {
      return Finish(MakeHas(std::move(operand->step), e.name), Type::Bool(), constant);
    }
    return Finish(MakeSelect(std::move(operand->step), e.name), std::move(result), constant);
  }

  // Visits every argument; false after the first failure.
  bool VisitArgs(const Expr& e, std::vector<Node>* nodes, std::vector<Type>* types,
                 bool* all_constant) {
    *all_constant = true;
    for (const auto& a : e.args) {
      MaybeNode n = Visit(*a);
      if (!n) return false;
      *all_constant = *all_constant && IsConstant(*n);
      types->push_back(n->type);
      nodes->push_back(std::move(*n));
    }
    return true;
  }

  MaybeNode VisitCall(const Expr& e) {
    std::vector<Node> args;
    std::vector<Type> types;
    bool all_constant = true;
    if (!VisitArgs(e, &args, &types, &all_constant)) return std::nullopt;
    if (!e.receiver) {
      if (std::optional<MaybeNode> op = VisitOperator(e, args, types, all_constant)) {
        return std::move(*op);
      }
    }
    return VisitFunction(e, std::move(args), types, all_constant);
  }

  // Operators; nullopt when e is not one.
  std::optional<MaybeNode> VisitOperator(const Expr& e, std::vector<Node>& args,
                                         const std::vector<Type>& types, bool all_constant) {
    const std::string& n = e.name;
    if (n == "_&&_" || n == "_||_") {
      if (!IsBoolish(types[0]) || !IsBoolish(types[1])) return NoOverload(e, types);
      const bool is_and = n == "_&&_";
      // A constant false (&&) or true (||) decides the result whatever the other side is.
      for (const Node& a : args) {
        const Value* c = a.step->constant();
        if (c != nullptr && c->kind() == ValueKind::kBool && c->bool_value() != is_and) {
          return Node{MakeConstant(*c), Type::Bool()};
        }
      }
      StepPtr step = is_and ? MakeAnd(std::move(args[0].step), std::move(args[1].step))
                            : MakeOr(std::move(args[0].step), std::move(args[1].step));
      return Finish(std::move(step), Type::Bool(), all_constant);
    }
    if (n == "!_") {
      if (!IsBoolish(types[0])) return NoOverload(e, types);
      return Finish(MakeUnary(LogicalNot, std::move(args[0].step)), Type::Bool(), all_constant);
    }
    if (n == "-_") {
      TypeKind k = types[0].kind();
      if (k != TypeKind::kDyn && k != TypeKind::kInt && k != TypeKind::kDouble) {
        return NoOverload(e, types);
      }
      return Finish(MakeUnary(Negate, std::move(args[0].step)), types[0], all_constant);
    }
    if (n == "_?_:_") {
      if (!IsBoolish(types[0])) return NoOverload(e, types);
      if (!Compatible(types[1], types[2]) && types[1].kind() != TypeKind::kNull &&
          types[2].kind() != TypeKind::kNull) {
        return NoOverload(e, types);
      }
      Type result = Join(types[1], types[2]);
      if (const Value* c = args[0].step->constant();
          c != nullptr && c->kind() == ValueKind::kBool) {
        Node& chosen = c->bool_value() ? args[1] : args[2];
        return Node{std::move(chosen.step), std::move(result)};
      }
      return Finish(
          MakeTernary(std::move(args[0].step), std::move(args[1].step), std::move(args[2].step)),
          std::move(result), all_constant);
    }
    if (n == "_==_" || n == "_!=_") {
      if (!EqualityComparable(types[0], types[1])) return NoOverload(e, types);
      return Finish(MakeBinary(n == "_==_" ? Equal : NotEqual, std::move(args[0].step),
                               std::move(args[1].step)),
                    Type::Bool(), all_constant);
    }
    if (n == "_<_" || n == "_<=_" || n == "_>_" || n == "_>=_") {
      TypeKind a = types[0].kind();
      TypeKind b = types[1].kind();
      bool ok = (a == TypeKind::kDyn && (b == TypeKind::kDyn || Orderable(b))) ||
                (b == TypeKind::kDyn && Orderable(a)) || (IsNumeric(a) && IsNumeric(b)) ||
                (a == b && Orderable(a));
      if (!ok) return NoOverload(e, types);
      BinaryOperator op = n == "_<_"    ? Less
                          : n == "_<=_" ? LessEqual
                          : n == "_>_"  ? Greater
                                        : GreaterEqual;
      return Finish(MakeBinary(op, std::move(args[0].step), std::move(args[1].step)), Type::Bool(),
                    all_constant);
    }
    if (n == "_+_" || n == "_-_" || n == "_*_" || n == "_/_" || n == "_%_") {
      std::optional<Type> result = ArithmeticResult(n, types[0], types[1]);
      if (!result) return NoOverload(e, types);
      if (n == "_+_") {
        return Finish(MakeAdd(std::move(args[0].step), std::move(args[1].step)), std::move(*result),
                      all_constant);
      }
      BinaryOperator op = n == "_-_"   ? Subtract
                          : n == "_*_" ? Multiply
                          : n == "_/_" ? Divide
                                       : Modulo;
      return Finish(MakeBinary(op, std::move(args[0].step), std::move(args[1].step)),
                    std::move(*result), all_constant);
    }
    if (n == "_[_]") {
      const Type& c = types[0];
      const Type& i = types[1];
      Type result;
      if (c.kind() == TypeKind::kList) {
        if (!i.is_dyn() && i.kind() != TypeKind::kInt) return NoOverload(e, types);
        result = c.elem();
      } else if (c.kind() == TypeKind::kMap) {
        if (!EqualityComparable(c.key(), i) || i.kind() == TypeKind::kNull) {
          return NoOverload(e, types);
        }
        result = c.value();
      } else if (!c.is_dyn()) {
        return NoOverload(e, types);
      }
      return Finish(MakeBinary(Index, std::move(args[0].step), std::move(args[1].step)),
                    std::move(result), all_constant);
    }
    if (n == "@in") {
      const Type& c = types[1];
      bool ok = c.is_dyn() ||
                (c.kind() == TypeKind::kList && EqualityComparable(types[0], c.elem())) ||
                (c.kind() == TypeKind::kMap && EqualityComparable(types[0], c.key()));
      if (!ok) return NoOverload(e, types);
      return Finish(MakeBinary(In, std::move(args[0].step), std::move(args[1].step)), Type::Bool(),
                    all_constant);
    }
    return std::nullopt;
  }

  static std::optional<Type> ArithmeticResult(const std::string& op, const Type& a, const Type& b) {
    auto allowed = [&](TypeKind k) {
      if (k == TypeKind::kInt || k == TypeKind::kUint) return true;
      if (k == TypeKind::kDouble) return op != "_%_";
      if (k == TypeKind::kString || k == TypeKind::kBytes || k == TypeKind::kList) {
        return op == "_+_";
      }
      return false;
    };
    if (a.is_dyn() && b.is_dyn()) return Type::Dyn();
    if (a.is_dyn() || b.is_dyn()) {
      const Type& known = a.is_dyn() ? b : a;
      if (!allowed(known.kind())) return std::nullopt;
      return known.kind() == TypeKind::kList ? Type::List(Type::Dyn()) : known;
    }
    if (a.kind() != b.kind() || !allowed(a.kind())) return std::nullopt;
    if (a.kind() == TypeKind::kList) {
      if (!Compatible(a.elem(), b.elem())) return std::nullopt;
      return Type::List(Join(a.elem(), b.elem()));
    }
    return a;
  }

  // A host function (Environment::AddFunction); nullopt when e names none. Overloads are
  // narrowed by static types as for built-ins, and the call is never folded.
  std::optional<MaybeNode> VisitHostFunction(const Expr& e, std::vector<Node>& args,
                                             const std::vector<Type>& types) {
    bool known = false;
    std::vector<const FunctionDecl*> candidates;
    for (const FunctionDecl& f : env_.functions()) {
      if (f.name != e.name) continue;
      known = true;
      if (f.receiver != e.receiver || f.params.size() != args.size()) continue;
      bool fits = true;
      for (size_t i = 0; i < args.size() && fits; ++i) {
        const Type& param = f.params[i];
        fits = param.is_dyn() || types[i].is_dyn() || Compatible(param, types[i]) ||
               (param.kind() == TypeKind::kMap && types[i].kind() == TypeKind::kObject);
      }
      if (fits) candidates.push_back(&f);
    }
    if (!known) return std::nullopt;
    if (candidates.empty()) return NoOverload(e, types, e.receiver);
    Type result = candidates[0]->result;
    for (const FunctionDecl* f : candidates) {
      if (!(f->result == result)) result = Type::Dyn();
    }
    std::vector<StepPtr> steps;
    steps.reserve(args.size());
    for (Node& n : args) steps.push_back(std::move(n.step));
    return Node{MakeHostCall(e.name, e.receiver, std::move(candidates), std::move(steps)),
                std::move(result)};
  }

  MaybeNode VisitFunction(const Expr& e, std::vector<Node> args, const std::vector<Type>& types,
                          bool all_constant) {
    if (std::optional<MaybeNode> host = VisitHostFunction(e, args, types)) {
      return std::move(*host);
    }
    bool known = false;
    std::vector<const Overload*> candidates;
    for (const Overload& o : BuiltinOverloads()) {
      if (o.function != e.name) continue;
      known = true;
      if (o.receiver != e.receiver || o.arity != args.size()) continue;
      bool fits = true;
      for (size_t i = 0; i < args.size() && fits; ++i) fits = ParamAccepts(o.params[i], types[i]);
      if (fits) candidates.push_back(&o);
    }
    if (!known) {
      return Fail(e.offset, "undeclared reference to '" + e.name + "' (in container '')");
    }
    if (candidates.empty()) return NoOverload(e, types, e.receiver);

    Type result = FromKind(candidates[0]->result);
    for (const Overload* o : candidates) {
      if (o->result != candidates[0]->result) result = Type::Dyn();
    }

    // matches() with a constant pattern: compile the regex now, and report a bad one as a
    // compile error at the pattern.
    if (e.name == "matches" && args.size() == 2) {
      const Value* pattern = args[1].step->constant();
      if (pattern != nullptr && pattern->kind() == ValueKind::kString) {
        core::Result<std::unique_ptr<Regex>> re = Regex::Compile(pattern->string_value());
        if (!re.has_value()) return Fail(e.args[1]->offset, re.error().message());
        bool text_constant = IsConstant(args[0]);
        return Finish(MakeMatchesConstant(std::move(args[0].step), std::move(re).value()),
                      Type::Bool(), text_constant);
      }
    }

    std::vector<StepPtr> steps;
    steps.reserve(args.size());
    for (Node& n : args) steps.push_back(std::move(n.step));
    return Finish(MakeCall(e.name, e.receiver, std::move(candidates), std::move(steps)),
                  std::move(result), all_constant);
  }

  MaybeNode VisitList(const Expr& e) {
    std::vector<Node> items;
    std::vector<Type> types;
    bool all_constant = true;
    if (!VisitArgs(e, &items, &types, &all_constant)) return std::nullopt;
    Type elem = types.empty() ? Type::Dyn() : types[0];
    for (const Type& t : types) elem = Join(elem, t);
    std::vector<StepPtr> steps;
    for (Node& n : items) steps.push_back(std::move(n.step));
    return Finish(MakeList(std::move(steps)), Type::List(std::move(elem)), all_constant);
  }

  MaybeNode VisitMap(const Expr& e) {
    std::vector<Node> items;
    std::vector<Type> types;
    bool all_constant = true;
    if (!VisitArgs(e, &items, &types, &all_constant)) return std::nullopt;
    Type key = types.empty() ? Type::Dyn() : types[0];
    Type value = types.size() < 2 ? Type::Dyn() : types[1];
    for (size_t i = 0; i + 1 < types.size(); i += 2) {
      TypeKind k = types[i].kind();
      if (k != TypeKind::kDyn && k != TypeKind::kBool && k != TypeKind::kInt &&
          k != TypeKind::kUint && k != TypeKind::kString) {
        return Fail(e.args[i]->offset, "unsupported map key type: " + types[i].ToString());
      }
      key = Join(key, types[i]);
      value = Join(value, types[i + 1]);
    }
    std::vector<StepPtr> steps;
    for (Node& n : items) steps.push_back(std::move(n.step));
    return Finish(MakeMap(std::move(steps)), Type::Map(std::move(key), std::move(value)),
                  all_constant);
  }

  MaybeNode VisitComprehension(const Expr& e) {
    MaybeNode range = Visit(*e.args[0]);
    if (!range) return std::nullopt;
    Type iter;
    switch (range->type.kind()) {
      case TypeKind::kList:
        iter = range->type.elem();
        break;
      case TypeKind::kMap:
        iter = range->type.key();
        break;
      case TypeKind::kDyn:
        break;
      default:
        return Fail(e.args[0]->offset, "expression of type '" + range->type.ToString() +
                                           "' cannot be range of a comprehension (must be list, "
                                           "map, or dynamic)");
    }
    size_t slot = PushLocal(e.name, iter);
    MaybeNode first = Visit(*e.args[1]);
    MaybeNode second;
    if (first && e.args.size() > 2) second = Visit(*e.args[2]);
    PopLocal();
    if (!first || (e.args.size() > 2 && !second)) return std::nullopt;

    Type result = Type::Bool();
    switch (e.macro) {
      case MacroKind::kAll:
      case MacroKind::kExists:
        if (!IsBoolish(first->type)) {
          return Fail(e.args[1]->offset, std::string("found no matching overload for '") +
                                             (e.macro == MacroKind::kAll ? "_&&_" : "_||_") +
                                             "' applied to '(bool, " + first->type.ToString() +
                                             ")'");
        }
        break;
      case MacroKind::kExistsOne:
      case MacroKind::kFilter:
      case MacroKind::kMapFilter:
        if (!IsBoolish(first->type)) {
          return Fail(e.args[1]->offset, "found no matching overload for '_?_:_' applied to '(" +
                                             first->type.ToString() + ", dyn, dyn)'");
        }
        if (e.macro == MacroKind::kFilter) result = Type::List(iter);
        if (e.macro == MacroKind::kMapFilter) result = Type::List(second->type);
        break;
      case MacroKind::kMap:
        result = Type::List(first->type);
        break;
    }
    bool all_constant =
        IsConstant(*range) && IsConstant(*first) && (!second || IsConstant(*second));
    return Finish(MakeComprehension(e.macro, slot, std::move(range->step), std::move(first->step),
                                    second ? std::move(second->step) : nullptr),
                  std::move(result), all_constant);
  }

  MaybeNode VisitBind(const Expr& e) {
    MaybeNode init = Visit(*e.args[0]);
    if (!init) return std::nullopt;
    size_t slot = PushLocal(e.name, init->type);
    MaybeNode body = Visit(*e.args[1]);
    PopLocal();
    if (!body) return std::nullopt;
    if (IsConstant(*body)) return body;
    return Node{MakeBind(slot, std::move(init->step), std::move(body->step)), body->type};
  }

  const Environment& env_;
  SyntaxIssue* issue_;
  std::vector<Local> scope_;
  size_t next_slot_ = 0;
  size_t max_slots_ = 0;
};

}  // namespace

bool PlanExpr(const Expr& expr, const Environment& env, Plan* plan, SyntaxIssue* issue) {
  Planner planner(env, issue);
  MaybeNode root = planner.Visit(expr);
  if (!root) return false;
  plan->root = std::move(root->step);
  plan->type = std::move(root->type);
  plan->local_count = planner.local_count();
  return true;
}

}  // namespace berth::cel::internal
