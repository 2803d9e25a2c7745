#include "cel/type.h"

#include <string>
#include <utility>
#include <vector>

namespace berth::cel {

struct Type::Detail {
  std::vector<Type> params;  // list: {elem}; map: {key, value}
  std::string name;          // object name
  std::vector<Field> fields;
};

Type Type::List(Type elem) {
  Type t(TypeKind::kList);
  auto d = std::make_shared<Detail>();
  d->params.push_back(std::move(elem));
  t.detail_ = std::move(d);
  return t;
}

Type Type::Map(Type key, Type value) {
  Type t(TypeKind::kMap);
  auto d = std::make_shared<Detail>();
  d->params.push_back(std::move(key));
  d->params.push_back(std::move(value));
  t.detail_ = std::move(d);
  return t;
}

Type Type::Object(std::string name, std::vector<Field> fields) {
  Type t(TypeKind::kObject);
  auto d = std::make_shared<Detail>();
  d->name = std::move(name);
  d->fields = std::move(fields);
  t.detail_ = std::move(d);
  return t;
}

Type Type::elem() const { return kind_ == TypeKind::kList ? detail_->params[0] : Type(); }

Type Type::key() const { return kind_ == TypeKind::kMap ? detail_->params[0] : Type(); }

Type Type::value() const { return kind_ == TypeKind::kMap ? detail_->params[1] : Type(); }

std::string_view Type::object_name() const {
  return kind_ == TypeKind::kObject ? std::string_view(detail_->name) : std::string_view();
}

std::span<const Type::Field> Type::fields() const {
  if (kind_ != TypeKind::kObject) return {};
  return detail_->fields;
}

const Type::Field* Type::FindField(std::string_view name) const {
  for (const Field& f : fields()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string Type::ToString() const {
  switch (kind_) {
    case TypeKind::kDyn:
      return "dyn";
    case TypeKind::kNull:
      return "null";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kInt:
      return "int";
    case TypeKind::kUint:
      return "uint";
    case TypeKind::kDouble:
      return "double";
    case TypeKind::kString:
      return "string";
    case TypeKind::kBytes:
      return "bytes";
    case TypeKind::kList:
      return "list(" + elem().ToString() + ")";
    case TypeKind::kMap:
      return "map(" + key().ToString() + ", " + value().ToString() + ")";
    case TypeKind::kQuantity:
      return "kubernetes.Quantity";
    case TypeKind::kSemver:
      return "kubernetes.Semver";
    case TypeKind::kType:
      return "type";
    case TypeKind::kObject:
      return std::string(object_name());
  }
  return "?";
}

bool Type::operator==(const Type& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case TypeKind::kList:
      return elem() == other.elem();
    case TypeKind::kMap:
      return key() == other.key() && value() == other.value();
    case TypeKind::kObject:
      return object_name() == other.object_name();
    default:
      return true;
  }
}

}  // namespace berth::cel
