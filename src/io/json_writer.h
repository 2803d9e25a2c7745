// JsonWriter: a small streaming, pretty-printing JSON writer for berth's own documents (the
// `berth inventory -o json` report, and any command output that is not a Kubernetes object):
// two-space indentation, one member per line, keys in the order written, empty containers
// as {} and []. Kubernetes objects are written by writer.h, which patches the bytes read.
// Not thread-safe; one writer per stream. The caller keeps Begin*/End* balanced (an End
// without its Begin is BERTH_CHECKed) and puts a Key before every value inside an object.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace berth::io {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view key);
  void String(std::string_view v);
  void Int(int64_t v);
  // Up to three decimals, trailing zeros dropped ("56.063", "0.5", "12"); a value that is not
  // finite is null (JSON has no NaN).
  void Double(double v);
  void Bool(bool v);
  void Null();

  // Key then value.
  void Field(std::string_view key, std::string_view v) {
    Key(key);
    String(v);
  }
  void Field(std::string_view key, int64_t v) {
    Key(key);
    Int(v);
  }
  void FieldBool(std::string_view key, bool v) {
    Key(key);
    Bool(v);
  }

  // Ends the document with a newline.
  void Finish() { out_ << '\n'; }

 private:
  void Separate();
  void Open(char c);
  void Close(char c);
  void Quote(std::string_view s);

  std::ostream& out_;
  std::vector<bool> stack_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace berth::io
