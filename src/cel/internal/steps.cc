// The Step kinds. Each Eval returns the first error among the operands it had to evaluate,
// except the logical operators, which absorb errors the way CEL specifies.
#include "cel/internal/steps.h"

#include <array>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cel/internal/operators.h"
#include "cel/internal/value_access.h"

namespace berth::cel::internal {

namespace {

class ConstantStep final : public Step {
 public:
  explicit ConstantStep(Value value)
      : owned_(ValueAccess::MakeOwned(value)), borrowed_(ValueAccess::Borrow(owned_)) {}
  Value Eval(Frame&) const override { return borrowed_; }
  const Value* constant() const override { return &owned_; }

 private:
  Value owned_;
  Value borrowed_;
};

class VariableStep final : public Step {
 public:
  VariableStep(size_t slot, std::string name) : slot_(slot), name_(std::move(name)) {}
  Value Eval(Frame& frame) const override {
    const Value* v = frame.activation->Find(slot_);
    if (v == nullptr) return Value::Error("no such attribute(s): " + name_);
    return *v;
  }

 private:
  size_t slot_;
  std::string name_;
};

class LocalStep final : public Step {
 public:
  explicit LocalStep(size_t slot) : slot_(slot) {}
  Value Eval(Frame& frame) const override { return frame.locals[slot_]; }

 private:
  size_t slot_;
};

class SelectStep final : public Step {
 public:
  SelectStep(StepPtr operand, std::string field, bool test_only)
      : operand_(std::move(operand)), field_(std::move(field)), test_only_(test_only) {
    key_ = Value::StringView(field_);
  }
  Value Eval(Frame& frame) const override {
    Value v = operand_->Eval(frame);
    return test_only_ ? HasField(v, key_) : SelectField(v, key_);
  }

 private:
  StepPtr operand_;
  std::string field_;
  Value key_;  // borrows field_
  bool test_only_;
};

class UnaryStep final : public Step {
 public:
  UnaryStep(UnaryOperator op, StepPtr operand) : op_(op), operand_(std::move(operand)) {}
  Value Eval(Frame& frame) const override { return op_(operand_->Eval(frame)); }

 private:
  UnaryOperator op_;
  StepPtr operand_;
};

class BinaryStep final : public Step {
 public:
  BinaryStep(BinaryOperator op, StepPtr lhs, StepPtr rhs)
      : op_(op), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value Eval(Frame& frame) const override {
    Value a = lhs_->Eval(frame);
    Value b = rhs_->Eval(frame);
    return op_(a, b);
  }

 private:
  BinaryOperator op_;
  StepPtr lhs_;
  StepPtr rhs_;
};

class AddStep final : public Step {
 public:
  AddStep(StepPtr lhs, StepPtr rhs) : lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value Eval(Frame& frame) const override {
    Value a = lhs_->Eval(frame);
    Value b = rhs_->Eval(frame);
    Value sum = Add(a, b);
    uint64_t built = 0;
    switch (sum.kind()) {
      case ValueKind::kString:
        built = sum.string_value().size();
        break;
      case ValueKind::kBytes:
        built = sum.bytes_value().size();
        break;
      case ValueKind::kList:
        built = sum.list_value().Size();
        break;
      default:
        return sum;
    }
    if (!frame.Charge(built)) return Value::Error(kCostLimitMessage);
    return sum;
  }

 private:
  StepPtr lhs_;
  StepPtr rhs_;
};

// The result of a logical operator when neither operand decided it.
Value LogicalFallback(const char* op, const Value& a, const Value& b, bool both_value) {
  if (a.kind() == ValueKind::kBool && b.kind() == ValueKind::kBool) return Value::Bool(both_value);
  if (a.is_error()) return a;
  if (b.is_error()) return b;
  return NoMatchingOverload(op, a, b);
}

// _&&_ (kDecider false) and _||_ (kDecider true): an operand equal to kDecider decides the
// result, whichever side it is on (an error on the other side is absorbed, as in cel-go).
template <bool kDecider>
class LogicalStep final : public Step {
 public:
  LogicalStep(StepPtr lhs, StepPtr rhs) : lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value Eval(Frame& frame) const override {
    Value a = lhs_->Eval(frame);
    if (Decides(a)) return a;
    Value b = rhs_->Eval(frame);
    if (Decides(b)) return b;
    return LogicalFallback(kDecider ? "_||_" : "_&&_", a, b, !kDecider);
  }

 private:
  static bool Decides(const Value& v) {
    return v.kind() == ValueKind::kBool && v.bool_value() == kDecider;
  }

  StepPtr lhs_;
  StepPtr rhs_;
};
using AndStep = LogicalStep<false>;
using OrStep = LogicalStep<true>;

class TernaryStep final : public Step {
 public:
  TernaryStep(StepPtr cond, StepPtr then_step, StepPtr else_step)
      : cond_(std::move(cond)), then_(std::move(then_step)), else_(std::move(else_step)) {}
  Value Eval(Frame& frame) const override {
    Value c = cond_->Eval(frame);
    if (c.kind() == ValueKind::kBool)
      return c.bool_value() ? then_->Eval(frame) : else_->Eval(frame);
    if (c.is_error()) return c;
    return NoMatchingOverload("_?_:_", c);
  }

 private:
  StepPtr cond_;
  StepPtr then_;
  StepPtr else_;
};

class ListStep final : public Step {
 public:
  explicit ListStep(std::vector<StepPtr> items) : items_(std::move(items)) {}
  Value Eval(Frame& frame) const override {
    std::vector<Value> values;
    values.reserve(items_.size());
    for (const StepPtr& item : items_) {
      Value v = item->Eval(frame);
      if (v.is_error()) return v;
      values.push_back(std::move(v));
    }
    return Value::List(std::move(values));
  }

 private:
  std::vector<StepPtr> items_;
};

class MapStep final : public Step {
 public:
  explicit MapStep(std::vector<StepPtr> kv) : kv_(std::move(kv)) {}
  Value Eval(Frame& frame) const override {
    std::vector<std::pair<Value, Value>> entries;
    entries.reserve(kv_.size() / 2);
    for (size_t i = 0; i + 1 < kv_.size(); i += 2) {
      Value k = kv_[i]->Eval(frame);
      if (k.is_error()) return k;
      Value v = kv_[i + 1]->Eval(frame);
      if (v.is_error()) return v;
      entries.emplace_back(std::move(k), std::move(v));
    }
    return Value::Map(std::move(entries));
  }

 private:
  std::vector<StepPtr> kv_;
};

class CallStep final : public Step {
 public:
  CallStep(std::string function, bool receiver, std::vector<const Overload*> candidates,
           std::vector<StepPtr> args)
      : function_(std::move(function)),
        receiver_(receiver),
        candidates_(std::move(candidates)),
        args_(std::move(args)) {}

  Value Eval(Frame& frame) const override {
    std::array<Value, kMaxArity> argv;
    const size_t n = args_.size();
    for (size_t i = 0; i < n; ++i) {
      argv[i] = args_[i]->Eval(frame);
      if (argv[i].is_error()) return argv[i];
    }
    for (const Overload* o : candidates_) {
      bool fits = true;
      for (size_t i = 0; i < n && fits; ++i) fits = KindAccepts(o->params[i], argv[i].kind());
      if (fits) return o->impl(argv.data());
    }
    return NoMatchingOverload(function_, argv.data(), n, receiver_);
  }

 private:
  std::string function_;
  bool receiver_;
  std::vector<const Overload*> candidates_;
  std::vector<StepPtr> args_;
};

class HostCallStep final : public Step {
 public:
  HostCallStep(std::string function, bool receiver,
               const std::vector<const FunctionDecl*>& candidates, std::vector<StepPtr> args)
      : function_(std::move(function)), receiver_(receiver), args_(std::move(args)) {
    // Copies what a call needs, so the step does not depend on where the Environment keeps
    // its declarations.
    for (const FunctionDecl* f : candidates) {
      Candidate& c = candidates_.emplace_back();
      c.impl = f->impl;
      for (const Type& t : f->params) c.params.push_back(t.kind());
    }
  }

  Value Eval(Frame& frame) const override {
    std::array<Value, kMaxArity> argv;
    const size_t n = args_.size();
    for (size_t i = 0; i < n; ++i) {
      argv[i] = args_[i]->Eval(frame);
      if (argv[i].is_error()) return argv[i];
    }
    for (const Candidate& c : candidates_) {
      bool fits = true;
      for (size_t i = 0; i < n && fits; ++i) fits = KindAccepts(c.params[i], argv[i].kind());
      if (fits) return c.impl->Call(std::span<const Value>(argv.data(), n));
    }
    return NoMatchingOverload(function_, argv.data(), n, receiver_);
  }

 private:
  struct Candidate {
    std::vector<TypeKind> params;
    const HostFunction* impl = nullptr;
  };

  std::string function_;
  bool receiver_;
  std::vector<Candidate> candidates_;
  std::vector<StepPtr> args_;
};

class MatchesConstantStep final : public Step {
 public:
  MatchesConstantStep(StepPtr text, std::unique_ptr<Regex> regex)
      : text_(std::move(text)), regex_(std::move(regex)) {}
  Value Eval(Frame& frame) const override {
    Value t = text_->Eval(frame);
    if (t.kind() == ValueKind::kString) return Value::Bool(regex_->PartialMatch(t.string_value()));
    if (t.is_error()) return t;
    return NoMatchingOverload("matches", t, Value::StringView("<pattern>"));
  }

 private:
  StepPtr text_;
  std::unique_ptr<Regex> regex_;
};

class ComprehensionStep final : public Step {
 public:
  ComprehensionStep(MacroKind macro, size_t slot, StepPtr range, StepPtr first, StepPtr second)
      : macro_(macro),
        slot_(slot),
        range_(std::move(range)),
        first_(std::move(first)),
        second_(std::move(second)) {}

  Value Eval(Frame& frame) const override {
    Value range = range_->Eval(frame);
    if (range.is_error()) return range;
    const ListValue* list = nullptr;
    const MapValue* map = nullptr;
    size_t n = 0;
    if (range.kind() == ValueKind::kList) {
      list = &range.list_value();
      n = list->Size();
    } else if (range.kind() == ValueKind::kMap) {
      map = &range.map_value();
      n = map->Size();
    } else {
      return Value::Error("expression of type '" + std::string(ValueKindName(range.kind())) +
                          "' cannot be range of a comprehension (must be list, map, or dynamic)");
    }
    Value& var = frame.locals[slot_];
    auto element = [&](size_t i) { return list != nullptr ? list->At(i) : map->KeyAt(i); };

    switch (macro_) {
      case MacroKind::kAll:
      case MacroKind::kExists: {
        // all: a false wins over errors; exists: a true wins over errors.
        const bool decisive = macro_ == MacroKind::kExists;
        Value error;
        for (size_t i = 0; i < n; ++i) {
          if (!frame.Charge(1)) return Value::Error(kCostLimitMessage);
          var = element(i);
          Value p = first_->Eval(frame);
          if (p.kind() == ValueKind::kBool) {
            if (p.bool_value() == decisive) return p;
          } else if (error.is_null()) {
            error = p.is_error()
                        ? p
                        : NoMatchingOverload(decisive ? "_||_" : "_&&_", Value::Bool(!decisive), p);
          }
        }
        if (!error.is_null()) return error;
        return Value::Bool(!decisive);
      }
      case MacroKind::kExistsOne: {
        int64_t count = 0;
        for (size_t i = 0; i < n; ++i) {
          if (!frame.Charge(1)) return Value::Error(kCostLimitMessage);
          var = element(i);
          Value p = first_->Eval(frame);
          if (p.kind() != ValueKind::kBool) {
            return p.is_error() ? p : NoMatchingOverload("_?_:_", p);
          }
          if (p.bool_value()) ++count;
        }
        return Value::Bool(count == 1);
      }
      case MacroKind::kMap:
      case MacroKind::kMapFilter:
      case MacroKind::kFilter: {
        std::vector<Value> out;
        for (size_t i = 0; i < n; ++i) {
          if (!frame.Charge(1)) return Value::Error(kCostLimitMessage);
          Value item = element(i);
          var = item;
          if (macro_ != MacroKind::kMap) {
            Value p = first_->Eval(frame);
            if (p.kind() != ValueKind::kBool) {
              return p.is_error() ? p : NoMatchingOverload("_?_:_", p);
            }
            if (!p.bool_value()) continue;
          }
          if (macro_ == MacroKind::kFilter) {
            out.push_back(std::move(item));
            continue;
          }
          Value t = (macro_ == MacroKind::kMap ? first_ : second_)->Eval(frame);
          if (t.is_error()) return t;
          out.push_back(std::move(t));
        }
        return Value::List(std::move(out));
      }
    }
    return Value::Error("unknown macro");
  }

 private:
  MacroKind macro_;
  size_t slot_;
  StepPtr range_;
  StepPtr first_;
  StepPtr second_;
};

class BindStep final : public Step {
 public:
  BindStep(size_t slot, StepPtr init, StepPtr body)
      : slot_(slot), init_(std::move(init)), body_(std::move(body)) {}
  Value Eval(Frame& frame) const override {
    frame.locals[slot_] = init_->Eval(frame);
    return body_->Eval(frame);
  }

 private:
  size_t slot_;
  StepPtr init_;
  StepPtr body_;
};

}  // namespace

StepPtr MakeConstant(Value value) { return std::make_unique<ConstantStep>(std::move(value)); }
StepPtr MakeVariable(size_t slot, std::string name) {
  return std::make_unique<VariableStep>(slot, std::move(name));
}
StepPtr MakeLocal(size_t slot) { return std::make_unique<LocalStep>(slot); }
StepPtr MakeSelect(StepPtr operand, std::string field) {
  return std::make_unique<SelectStep>(std::move(operand), std::move(field), false);
}
StepPtr MakeHas(StepPtr operand, std::string field) {
  return std::make_unique<SelectStep>(std::move(operand), std::move(field), true);
}
StepPtr MakeUnary(UnaryOperator op, StepPtr operand) {
  return std::make_unique<UnaryStep>(op, std::move(operand));
}
StepPtr MakeBinary(BinaryOperator op, StepPtr lhs, StepPtr rhs) {
  return std::make_unique<BinaryStep>(op, std::move(lhs), std::move(rhs));
}
StepPtr MakeAdd(StepPtr lhs, StepPtr rhs) {
  return std::make_unique<AddStep>(std::move(lhs), std::move(rhs));
}
StepPtr MakeAnd(StepPtr lhs, StepPtr rhs) {
  return std::make_unique<AndStep>(std::move(lhs), std::move(rhs));
}
StepPtr MakeOr(StepPtr lhs, StepPtr rhs) {
  return std::make_unique<OrStep>(std::move(lhs), std::move(rhs));
}
StepPtr MakeTernary(StepPtr cond, StepPtr then_step, StepPtr else_step) {
  return std::make_unique<TernaryStep>(std::move(cond), std::move(then_step), std::move(else_step));
}
StepPtr MakeList(std::vector<StepPtr> items) {
  return std::make_unique<ListStep>(std::move(items));
}
StepPtr MakeMap(std::vector<StepPtr> keys_and_values) {
  return std::make_unique<MapStep>(std::move(keys_and_values));
}
StepPtr MakeCall(std::string function, bool receiver, std::vector<const Overload*> candidates,
                 std::vector<StepPtr> args) {
  return std::make_unique<CallStep>(std::move(function), receiver, std::move(candidates),
                                    std::move(args));
}
StepPtr MakeHostCall(std::string function, bool receiver,
                     std::vector<const FunctionDecl*> candidates, std::vector<StepPtr> args) {
  return std::make_unique<HostCallStep>(std::move(function), receiver, candidates, std::move(args));
}
StepPtr MakeMatchesConstant(StepPtr text, std::unique_ptr<Regex> regex) {
  return std::make_unique<MatchesConstantStep>(std::move(text), std::move(regex));
}
StepPtr MakeComprehension(MacroKind macro, size_t iter_slot, StepPtr range, StepPtr first,
                          StepPtr second) {
  return std::make_unique<ComprehensionStep>(macro, iter_slot, std::move(range), std::move(first),
                                             std::move(second));
}
StepPtr MakeBind(size_t slot, StepPtr init, StepPtr body) {
  return std::make_unique<BindStep>(slot, std::move(init), std::move(body));
}

}  // namespace berth::cel::internal
