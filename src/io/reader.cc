// Reading is one decode path: JSON goes straight to simdjson's DOM, YAML is turned into JSON
// text per document first (internal/yaml_to_json.h), and both end in HandleObject, which
// looks the apiVersion and kind up in the table of kinds (internal/kind_table.h) and decodes
// through the row's decoder. simdjson is used because a `kubectl get -A -o json` dump of a
// large cluster is hundreds of MB.
#include "io/reader.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/parts_hash.h"
#include "io/input_limits.h"
#include "io/internal/berth_name_check.h"
#include "io/internal/claim_templates.h"
#include "io/internal/decoded_object.h"
#include "io/internal/decoders.h"
#include "io/internal/expand.h"
#include "io/internal/fluid_decoders.h"
#include "io/internal/runtime_class_admission.h"
#include "io/internal/json_duplicates.h"
#include "io/internal/json_fields.h"
#include "io/internal/json_split.h"
#include "io/internal/kind_table.h"
#include "io/internal/trainjob_runtime.h"
#include "io/internal/kueue_workloads.h"
#include "io/internal/ownership.h"
#include "io/internal/yaml_to_json.h"

namespace berth::io {

namespace internal {

// Where an object was first read, to name both places when it is read again. Kept small
// (no strings): one per object of the input, built on the hot path.
struct FirstRead {
  model::SourceRef source;  // its document, whose text a second copy is compared with
  int32_t file = 0;         // into ReaderState::files
  int32_t doc_line = 0;     // the YAML document's first line; 0 for JSON
  int32_t item = -1;        // the index in a List; -1 outside one
};

// Identical copies of objects read again, counted per (file, first file) pair so that
// `-f DIR -f DIR` gives one warning per file, not one per object.
struct IdenticalRereads {
  int32_t file;
  int32_t first_file;
  std::string first_label;  // the object, when there is only one
  std::string first_place;
  size_t count = 0;
};

// FirstReads by key (never 0): open addressing with linear probing in one array, since a
// node per object (std::unordered_map) costs an allocation per object of a dump.
class FirstReadTable {
 public:
  const FirstRead* Find(uint64_t key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == 0) return nullptr;
    }
  }
  // Keeps the first value of a key.
  void Insert(uint64_t key, const FirstRead& value) {
    if ((used_ + 1) * 2 > slots_.size()) Grow();
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return;
      if (slots_[i].key == 0) {
        slots_[i] = {key, value};
        ++used_;
        return;
      }
    }
  }
  void Clear() {
    slots_ = {};
    used_ = 0;
    mask_ = 0;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    FirstRead value;
  };
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    used_ = 0;
    for (const Slot& slot : old) {
      if (slot.key != 0) Insert(slot.key, slot.value);
    }
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
  size_t mask_ = 0;
};

struct ReaderState {
  Input input;
  // Key: a 64-bit hash of group, kind, namespace, name and cluster; a hit is confirmed
  // against the first copy's document (kind, namespace, name, group).
  FirstReadTable first_reads;
  std::vector<std::string> files;  // the files FirstRead names
  std::unordered_map<std::string, int32_t> file_indices;

  std::vector<IdenticalRereads> identical_rereads;
  std::vector<bool> pod_has_priority;                       // parallel to snapshot.pods
  std::vector<std::vector<PodSetSource>> workload_sources;  // parallel to snapshot.workloads
  std::vector<UnknownKind> unknown_kinds;                   // in first-seen order
  simdjson::dom::parser parser;
  bool finished = false;
};

}  // namespace internal

namespace {

// The PodGroups the Volcano Job row made for its Jobs (no document) give way to the ones the
// input has: Volcano makes a Job's group only when it does not exist.
void DropMadeVolcanoPodGroupsGiven(model::Snapshot* snap) {
  std::unordered_map<std::string, bool> given;
  auto key = [](const model::PodGroup& g) {
    return g.cluster + '\x1f' + g.meta.namespace_ + '\x1f' + g.meta.name;
  };
  bool made = false;
  for (const model::PodGroup& g : snap->pod_groups) {
    if (g.source.valid()) {
      given.emplace(key(g), true);
    } else {
      made = true;
    }
  }
  if (!made) return;
  std::erase_if(snap->pod_groups, [&](const model::PodGroup& g) {
    return !g.source.valid() && given.count(key(g)) != 0;
  });
}

// Builds every TrainJob's pod sets from its runtime (internal/trainjob_runtime.h); a job whose
// runtime is missing is reported through `report` and removed with its sources.
template <typename Report>
void ResolveTrainJobs(const DocumentStore& documents, Report& report, model::Snapshot* snap,
                      std::vector<std::vector<internal::PodSetSource>>* sources) {
  std::vector<bool> drop(snap->workloads.size(), false);
  bool any = false;
  for (size_t w = 0; w < snap->workloads.size(); ++w) {
    model::WorkloadObject& job = snap->workloads[w];
    if (!internal::IsTrainJob(job)) continue;
    core::Status status = internal::ResolveTrainJob(documents, snap->training_runtimes,
                                                    snap->resources, &job, &(*sources)[w]);
    if (!status.ok()) {
      report(std::move(status).error(), job.source);
      drop[w] = true;
      any = true;
    }
  }
  if (!any) return;
  size_t kept = 0;
  for (size_t w = 0; w < drop.size(); ++w) {
    if (drop[w]) continue;
    if (kept != w) {
      snap->workloads[kept] = std::move(snap->workloads[w]);
      (*sources)[kept] = std::move((*sources)[w]);
    }
    ++kept;
  }
  snap->workloads.resize(kept);
  sources->resize(kept);
}

namespace dom = simdjson::dom;
using internal::ReaderState;

// Name and namespace for error messages, read leniently (decoding reports type errors).
void PeekName(dom::object obj, bool namespaced, std::string* ns, std::string* name) {
  dom::element md;
  dom::object md_obj;
  if (!internal::Find(obj, "metadata", &md) || md.get_object().get(md_obj)) return;
  std::string_view s;
  dom::element e;
  if (internal::Find(md_obj, "name", &e) && e.get_string().get(s) == simdjson::SUCCESS) {
    name->assign(s);
  }
  if (!namespaced) return;
  if (internal::Find(md_obj, "namespace", &e) && e.get_string().get(s) == simdjson::SUCCESS &&
      !s.empty()) {
    ns->assign(s);
  } else {
    *ns = "default";
  }
}

// Byte offset at which nlohmann's parser stops on malformed JSON, to turn simdjson's
// position-less errors into a line and column. Only run on the error path.
class ErrorOffsetSax : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    offset = position;
    return false;
  }
  std::size_t offset = std::string::npos;
};

// kMaxFileBytes passed (io/input_limits.h).
core::Error FileTooLarge(const std::string& file, uint64_t bytes) {
  return core::InvalidArgument(std::to_string(bytes) + " bytes exceed berth's limit of " +
                                   std::to_string(kMaxFileBytes) +
                                   " bytes per file; the file is not read",
                               core::Location{file, "", ""});
}

std::string PositionPrefix(std::string_view text, size_t offset) {
  if (offset == std::string::npos) return "";
  offset = std::min(offset, text.size());
  // nlohmann reports the position after the offending character.
  if (offset > 0) --offset;
  size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
  if (offset == 0) column = 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}

std::string JsonErrorMessage(std::string_view text, size_t doc_start, simdjson::error_code err) {
  size_t offset = std::string::npos;
  try {
    ErrorOffsetSax sax;
    std::string_view rest = text.substr(std::min(doc_start, text.size()));
    nlohmann::json::sax_parse(rest.begin(), rest.end(), &sax, nlohmann::json::input_format_t::json,
                              /*strict=*/false);
    if (sax.offset != std::string::npos) offset = doc_start + sax.offset;
  } catch (const std::exception&) {
    // No position then; the message still says what is wrong.
  }
  return PositionPrefix(text, offset) + "invalid JSON: " + simdjson::error_message(err);
}

class FileReader final : public internal::DecodeSink {
 public:
  // `buffer`, when given, owns the text ReadBuffer reads: stored documents may then view it
  // (the store keeps it alive) instead of copying their text.
  FileReader(ReaderState& state, core::Diagnostics& diags, const std::string& file,
             const ReadOptions& options, std::shared_ptr<const void> buffer = nullptr)
      : st_(state), diags_(diags), file_(file), options_(options), buffer_(std::move(buffer)) {}

  // `padded`: SIMDJSON_PADDING bytes after the text may be read (a simdjson::padded_string).
  void ReadBuffer(std::string_view text, bool padded) {
    if (static_cast<int64_t>(text.size()) > kMaxFileBytes) {
      diags_.Report(FileTooLarge(file_, text.size()));
      return;
    }
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return;
    if (text[first] == '{' || text[first] == '[') {
      ReadJson(text, padded);
    } else {
      ReadYaml(text);
    }
  }

 private:
  void ReportJsonError(std::string_view text, size_t doc_start, simdjson::error_code err) {
    diags_.Report(core::InvalidArgument(JsonErrorMessage(text, doc_start, err), {file_, "", ""}));
  }

  // Reports the duplicate keys of one JSON document (or List item) as kubectl does, worded
  // as for YAML input, with lines counted in the file.
  void ReportDuplicateKeys(std::string_view text,
                           const std::vector<internal::JsonDuplicateKey>& duplicates) {
    diags_.Report(core::InvalidArgument(internal::DuplicateKeysMessage(text, duplicates),
                                        {file_, item_ >= 0 ? Where() : "", ""}));
  }

  // A bound of io/input_limits.h passed in JSON text, at the bracket or quote that passed it.
  void ReportBreach(std::string_view text, const internal::JsonLimitBreach& breach) {
    diags_.Report(core::InvalidArgument(PositionPrefix(text, breach.offset + 1) + breach.message,
                                        {file_, item_ >= 0 ? Where() : "", ""}));
  }

  void ReadJson(std::string_view text, bool padded) {
    // Duplicate keys drop the document they are in (a List item, else the whole text), as
    // YAML documents with duplicates are dropped; simdjson alone would keep the first.
    // The same scan bounds nesting and strings (io/input_limits.h) before simdjson sees them.
    json_text_ = text;
    internal::JsonScan scan = internal::ScanJson(text);
    const std::vector<internal::JsonDuplicateKey>& duplicates = scan.duplicates;
    // A List is read item by item: each item's DOM is small and stays in cache.
    internal::JsonListSplit split;
    dom::element root;
    if (internal::SplitJsonList(text, &split) &&
        st_.parser.parse(split.shell.data(), split.shell.size()).get(root) == simdjson::SUCCESS) {
      // Duplicates outside every item (in the List itself) drop the whole List.
      size_t next_duplicate = 0;
      std::vector<internal::JsonDuplicateKey> in_item;
      auto item_of = [&](size_t offset) {
        for (std::string_view item : split.items) {
          const size_t begin = static_cast<size_t>(item.data() - text.data());
          if (offset >= begin && offset < begin + item.size()) return true;
        }
        return false;
      };
      std::vector<internal::JsonDuplicateKey> outside;
      for (const internal::JsonDuplicateKey& d : duplicates) {
        if (!item_of(d.offset)) outside.push_back(d);
      }
      if (!outside.empty()) {
        ReportDuplicateKeys(text, outside);
        return;
      }
      bool breach_outside = false;
      for (const internal::JsonLimitBreach& b : scan.breaches) {
        if (!item_of(b.offset)) {
          ReportBreach(text, b);
          breach_outside = true;
        }
      }
      if (breach_outside) return;
      size_t next_breach = 0;
      item_ = -1;
      for (std::string_view item : split.items) {
        ++item_;
        const size_t begin = static_cast<size_t>(item.data() - text.data());
        item_offset_ = begin;
        if (!CountObject()) return;
        bool breached = false;
        while (next_breach < scan.breaches.size() &&
               scan.breaches[next_breach].offset < begin + item.size()) {
          if (scan.breaches[next_breach].offset >= begin) {
            ReportBreach(text, scan.breaches[next_breach]);
            breached = true;
          }
          ++next_breach;
        }
        if (breached) continue;
        in_item.clear();
        while (next_duplicate < duplicates.size() &&
               duplicates[next_duplicate].offset < begin + item.size()) {
          if (duplicates[next_duplicate].offset >= begin) {
            in_item.push_back(duplicates[next_duplicate]);
          }
          ++next_duplicate;
        }
        if (!in_item.empty()) {
          ReportDuplicateKeys(text, in_item);
          continue;
        }
        // realloc_if_needed: the parser copies the item into its own padded buffer (reused).
        simdjson::error_code err = st_.parser.parse(item.data(), item.size(), true).get(root);
        if (err != simdjson::SUCCESS) {
          ReportJsonError(text, static_cast<size_t>(item.data() - text.data()), err);
          return;
        }
        HandleObject(root, item, /*raw_compact=*/false);
      }
      return;
    }
    item_ = -1;
    item_offset_ = std::string_view::npos;
    if (!scan.breaches.empty()) {
      for (const internal::JsonLimitBreach& b : scan.breaches) ReportBreach(text, b);
      return;
    }
    if (!duplicates.empty()) {
      ReportDuplicateKeys(text, duplicates);
      return;
    }
    simdjson::padded_string copy;
    if (!padded) {
      copy = simdjson::padded_string(text.data(), text.size());
      text = std::string_view(copy.data(), copy.size());
    }
    simdjson::error_code err =
        st_.parser.parse(text.data(), text.size(), /*realloc_if_needed=*/false).get(root);
    doc_index_ = 1;
    json_doc_offset_ = 0;
    if (err == simdjson::SUCCESS) {
      if (root.is_object() && !CountObject()) return;
      HandleRoot(root);
      return;
    }
    if (err != simdjson::TAPE_ERROR) {
      ReportJsonError(text, 0, err);
      return;
    }
    // Possibly a stream of JSON values ({...}{...}); simdjson reads those with parse_many.
    size_t batch = std::max<size_t>(text.size(), 1 << 20);
    dom::document_stream stream;
    err = st_.parser.parse_many(reinterpret_cast<const uint8_t*>(text.data()), text.size(), batch)
              .get(stream);
    if (err != simdjson::SUCCESS) {
      ReportJsonError(text, 0, err);
      return;
    }
    int stream_index = 0;
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      dom::element doc;
      err = (*it).get(doc);
      if (err != simdjson::SUCCESS) {
        ReportJsonError(text, it.current_index(), err);
        return;
      }
      doc_index_ = ++stream_index;
      json_doc_offset_ = it.current_index();
      item_ = -1;
      if (doc.is_object() && !CountObject()) return;
      HandleRoot(doc);
    }
    if (stream.truncated_bytes() > 0) {
      ReportJsonError(text, text.size() - stream.truncated_bytes(),
                      simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
    }
  }

  // Each YAML document is converted and read on its own (internal/yaml_to_json.h): one that
  // cannot be read is reported with its index and first line, and the next ones are read.
  void ReadYaml(std::string_view text) {
    auto bad_document = [this](core::Error error, const internal::YamlDocumentPlace& place) {
      error.WithFile(file_);
      error.WithObject(DocumentPlace(place.index, place.line));
      diags_.Report(std::move(error));
    };
    auto document = [this](std::string&& json, const internal::YamlDocumentPlace& place) {
      doc_index_ = place.index;
      doc_line_ = place.line;
      item_ = -1;
      item_offset_ = std::string_view::npos;
      dom::element root;
      simdjson::error_code err = st_.parser.parse(json.data(), json.size(), true).get(root);
      if (err != simdjson::SUCCESS) {
        diags_.Report(core::InvalidArgument(simdjson::error_message(err), {file_, Where(), ""}));
        return;
      }
      if (root.is_object()) {
        if (!CountObject()) return;
        HandleObject(root, json, /*raw_compact=*/true);  // the converter writes compact JSON
      } else {
        HandleRoot(root);
      }
    };
    core::Status status = internal::ConvertYamlDocuments(text, document, bad_document);
    if (!status.ok()) {
      core::Error error = std::move(status).error();
      error.WithFile(file_);
      diags_.Report(std::move(error));
    }
  }

  // A top-level value: an object, or an array of objects (a bare JSON array or YAML list).
  void HandleRoot(dom::element root) {
    if (root.is_null()) return;
    dom::array array;
    if (root.get_array().get(array) == simdjson::SUCCESS) {
      item_ = -1;
      for (dom::element item : array) {
        ++item_;
        if (!CountObject()) return;
        HandleObject(item, {}, false);
      }
      return;
    }
    HandleObject(root, {}, false);
  }

  // Counts a document or List item against kMaxObjectsPerFile; false (once reported) past it.
  bool CountObject() {
    if (++objects_ <= kMaxObjectsPerFile) return true;
    if (objects_ == kMaxObjectsPerFile + 1) {
      diags_.Report(core::InvalidArgument(
          "more than " + std::to_string(kMaxObjectsPerFile) +
              " documents and List items in one file (berth's limit); this one and the rest "
              "of the file are not read",
          {file_, Where(), ""}));
    }
    return false;
  }

  // Where the object being read is, for errors that cannot name it: "document 3 (line 41)"
  // for YAML (", item 4" inside a List), "item 4 (line 120)" for a JSON List item,
  // "document 2 (line 9)" for a document of a JSON stream.
  std::string Where() const {
    std::string place;
    if (doc_line_ > 0) {
      place = DocumentPlace(doc_index_, doc_line_);
      if (item_ >= 0) place += ", item " + std::to_string(item_);
    } else if (item_ >= 0) {
      place = "item " + std::to_string(item_);
      if (item_offset_ != std::string_view::npos) {
        place += " (line " + std::to_string(internal::LineOf(json_text_, item_offset_)) + ")";
      }
    } else if (doc_index_ > 0) {
      place = DocumentPlace(doc_index_, internal::LineOf(json_text_, json_doc_offset_));
    }
    return place;
  }

  static std::string DocumentPlace(int index, int line) {
    return "document " + std::to_string(index) + " (line " + std::to_string(line) + ")";
  }

  // `raw`, when not empty, is the object's own JSON text (compact already when
  // `raw_compact`), stored instead of re-serializing the DOM.
  void HandleObject(dom::element e, std::string_view raw, bool raw_compact) {
    dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) {
      diags_.Report(core::InvalidArgument("a document must be an object with apiVersion and kind",
                                          {file_, Where(), ""}));
      return;
    }
    std::string api_version;
    std::string kind;
    core::Status status = internal::GetString(obj, "apiVersion", &api_version);
    if (status.ok()) status = internal::GetString(obj, "kind", &kind);
    if (status.ok() && kind.empty()) {
      status = core::InvalidArgument("required value", {"", "", "kind"});
    }
    // As kubectl refuses it ("apiVersion not set"): without it the kind cannot be looked up,
    // and an unknown-kind warning would hide the mistake.
    if (status.ok() && api_version.empty()) {
      status = core::InvalidArgument("required value", {"", "", "apiVersion"});
    }
    if (!status.ok()) {
      Fail(std::move(status).error(), kind, obj, true);
      return;
    }
    // `kind: List` and the typed lists kubectl prints (PodList, NodeList, ...).
    dom::array items;
    if ((kind == "List" || kind.ends_with("List")) && internal::Find(obj, "items", &e) &&
        e.get_array().get(items) == simdjson::SUCCESS) {
      item_ = -1;
      for (dom::element item : items) {
        ++item_;
        if (!CountObject()) return;
        HandleObject(item, {}, false);
      }
      return;
    }
    const internal::KindEntry entry = LookUp(api_version, kind);
    if (entry.row == nullptr) {
      CountUnknown(api_version, kind);
      return;
    }
    raw_ = raw;
    raw_compact_ = raw_compact;
    Decode(entry, obj, api_version, kind);
  }

  // The kind's row, remembering the last one: the objects of a dump come in runs of one
  // kind (kubectl lists kind by kind), so most objects cost two string comparisons.
  const internal::KindEntry& LookUp(const std::string& api_version, const std::string& kind) {
    if (!last_lookup_valid_ || api_version != last_api_version_ || kind != last_kind_) {
      last_entry_ = internal::FindKindEntry(api_version, kind);
      last_api_version_ = api_version;
      last_kind_ = kind;
      last_lookup_valid_ = true;
    }
    return last_entry_;
  }

  // Decodes through the kind's row (internal/kind_table.h); a rejected object is reported
  // with its file and name and dropped.
  void Decode(const internal::KindEntry& entry, dom::object obj, const std::string& api_version,
              const std::string& kind) {
    object_ = obj;
    api_version_ = &api_version;
    kind_ = &kind;
    namespaced_ = entry.info->namespaced();
    uint64_t key = 0;
    if (!FirstReadOf(obj, api_version, kind, &key)) return;
    stored_ = model::SourceRef{};
    core::Status status = entry.row->decode(obj, api_version, *this);
    if (!status.ok()) return Fail(std::move(status).error(), kind, obj, namespaced_);
    ++st_.input.objects_read;
    WarnUnknownBerthNames(obj, kind);
    if (key != 0 && stored_.valid()) {
      st_.first_reads.Insert(key, internal::FirstRead{stored_, FileIndex(), doc_line_, item_});
    }
  }

  // A berth.dev/ label or annotation berth does not know: a warning naming the object and
  // the closest known name (model/berth_names.h).
  void WarnUnknownBerthNames(dom::object obj, const std::string& kind) {
    for (internal::UnknownBerthName& u : internal::UnknownBerthNames(obj)) {
      std::string ns;
      std::string name;
      PeekName(obj, namespaced_, &ns, &name);
      std::string message = "unknown berth.dev/ name \"" + u.key +
                            "\" is ignored; did you mean \"" + u.closest + "\"?";
      diags_.Warn(core::Error(core::ErrorCode::kInvalidArgument, std::move(message),
                              core::Location{file_, internal::ObjectLabel(kind, ns, name),
                                             std::move(u.field)}));
    }
  }

  int32_t FileIndex() {
    if (file_index_ < 0) {
      // A file read again (the same path given twice) keeps its index.
      auto [it, inserted] = st_.file_indices.emplace(file_, static_cast<int32_t>(st_.files.size()));
      if (inserted) st_.files.push_back(file_);
      file_index_ = it->second;
    }
    return file_index_;
  }

  // Where an object is: the file, and the YAML document's line or the List item.
  std::string Place(int32_t file, int32_t doc_line, int32_t item) const {
    std::string place = st_.files[static_cast<size_t>(file)];
    if (doc_line > 0 && item >= 0) {
      place +=
          " (document at line " + std::to_string(doc_line) + ", item " + std::to_string(item) + ")";
    } else if (doc_line > 0) {
      place += " (document at line " + std::to_string(doc_line) + ")";
    } else if (item >= 0) {
      place += " (item " + std::to_string(item) + ")";
    }
    return place;
  }

  static void HashPart(std::string_view part, uint64_t* h) {
    // FNV-1a, with a separator so that ("ab", "c") and ("a", "bc") differ.
    for (char c : part) {
      *h ^= static_cast<unsigned char>(c);
      *h *= 1099511628211ULL;
    }
    *h ^= 0x1f;
    *h *= 1099511628211ULL;
  }

  static std::string_view GroupOf(std::string_view api_version) {
    const size_t slash = api_version.find('/');
    return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
  }

  // The same object (group, kind, namespace, name, cluster) read twice would be planned
  // twice (`-f DIR -f DIR` doubled every node). A second copy is dropped: counted for one
  // warning when it is byte-identical to the first (as compact JSON text), an error naming
  // both places when it differs, since either copy may be the one meant. Returns false for
  // a second copy; else true, with `key` set for the caller to record once the object
  // decodes (0 for nameless objects, which the decoder reports). No allocation unless the
  // object is a second copy: this runs for every object of a dump.
  bool FirstReadOf(dom::object obj, const std::string& api_version, const std::string& kind,
                   uint64_t* key) {
    std::string_view ns;
    std::string_view name;
    std::string_view cluster = options_.cluster;
    dom::element e;
    dom::object md;
    if (!internal::Find(obj, "metadata", &e) || e.get_object().get(md)) return true;
    if (!internal::Find(md, "name", &e) || e.get_string().get(name) || name.empty()) return true;
    if (namespaced_) {
      if (!internal::Find(md, "namespace", &e) || e.get_string().get(ns) || ns.empty()) {
        ns = "default";
      }
    }
    dom::object annotations;
    std::string_view annotated;
    if (cluster.empty() && internal::Find(md, "annotations", &e) &&
        !e.get_object().get(annotations) &&
        internal::Find(annotations, model::kClusterAnnotation, &e) &&
        !e.get_string().get(annotated)) {
      cluster = annotated;
    }
    if (cluster.empty()) cluster = "default";
    const uint64_t h =
        core::PartsHash().Add(GroupOf(api_version)).Add(kind).Add(ns).Add(name).Add(cluster).value();
    *key = h == 0 ? 1 : h;
    const internal::FirstRead* found = st_.first_reads.Find(*key);
    if (found == nullptr) return true;
    const internal::FirstRead first = *found;
    const Document& first_doc = st_.input.documents.Get(first.source);
    if (first_doc.kind != kind || first_doc.namespace_ != ns || first_doc.name != name ||
        GroupOf(first_doc.api_version) != GroupOf(api_version)) {
      *key = 0;  // a hash collision: read it, unchecked
      return true;
    }
    const std::string label = internal::ObjectLabel(kind, ns, name);
    std::string text = raw_compact_ && !raw_.empty() ? std::string(raw_) : simdjson::minify(obj);
    if (first_doc.json.view() == std::string_view(text)) {
      NoteIdentical(first, label);
      return false;
    }
    diags_.Report(core::Error(core::ErrorCode::kAlreadyExists,
                              "already read from " + Place(first.file, first.doc_line, first.item) +
                                  "; this copy at " + Place(FileIndex(), doc_line_, item_) +
                                  " differs from it and is dropped (give each object once)",
                              core::Location{file_, label, ""}));
    return false;
  }

  void NoteIdentical(const internal::FirstRead& first, const std::string& label) {
    const int32_t file = FileIndex();
    for (internal::IdenticalRereads& r : st_.identical_rereads) {
      if (r.file == file && r.first_file == first.file) {
        ++r.count;
        return;
      }
    }
    st_.identical_rereads.push_back(
        {file, first.file, label, Place(first.file, first.doc_line, first.item), 1});
  }

  // internal::DecodeSink, for the object Decode is decoding.
  model::Snapshot& snapshot() override { return st_.input.snapshot; }
  model::SourceRef Store(const model::ObjectMeta& meta) override {
    stored_ = Store(object_, *api_version_, *kind_, meta);
    return stored_;
  }
  model::ObjectMeta PeekMeta(bool namespaced) override {
    model::ObjectMeta meta;
    PeekName(object_, namespaced, &meta.namespace_, &meta.name);
    return meta;
  }
  void AddedPod(bool has_priority) override { st_.pod_has_priority.push_back(has_priority); }
  void AddedWorkload(std::vector<internal::PodSetSource> sources) override {
    st_.workload_sources.push_back(std::move(sources));
  }

  std::string ClusterOf(const model::ObjectMeta& meta) const override {
    if (!options_.cluster.empty()) return options_.cluster;
    auto it = meta.annotations.find(model::kClusterAnnotation);
    if (it != meta.annotations.end() && !it->second.empty()) return it->second;
    return "default";
  }

  model::SourceRef Store(dom::object obj, const std::string& api_version, const std::string& kind,
                         const model::ObjectMeta& meta) {
    Document doc;
    doc.file = file_;
    doc.api_version = api_version;
    doc.kind = kind;
    doc.namespace_ = meta.namespace_;
    doc.name = meta.name;
    if (raw_.empty()) {
      doc.json = simdjson::minify(obj);
    } else if (raw_compact_) {
      doc.json = std::string(raw_);
    } else {
      // simdjson's text minifier: much faster than serializing the DOM, and it keeps the
      // text as written (number spellings, escapes).
      minify_buffer_.resize(raw_.size());
      size_t length = 0;
      if (simdjson::minify(raw_.data(), raw_.size(), minify_buffer_.data(), length) ==
          simdjson::SUCCESS) {
        if (length == raw_.size() && buffer_ != nullptr) {
          // Nothing was removed: the item is compact as written (a dump with one item per
          // line), so the store points into the file instead of holding a second copy of it.
          if (!buffer_kept_) st_.input.documents.KeepAlive(buffer_);
          buffer_kept_ = true;
          doc.json = DocumentText::ViewOf(raw_);
        } else {
          doc.json = std::string(minify_buffer_.data(), length);
        }
      } else {
        doc.json = simdjson::minify(obj);
      }
    }
    return st_.input.documents.Add(std::move(doc));
  }

  void Fail(core::Error error, const std::string& kind, dom::object obj, bool namespaced) {
    std::string ns;
    std::string name;
    PeekName(obj, namespaced, &ns, &name);
    error.WithFile(file_);
    std::string label = internal::ObjectLabel(kind.empty() ? "object" : kind, ns, name);
    // An object without kind or name is found by its place: "document 3 (line 41): object".
    // (Configurations have no name; an error in their other fields needs no place.)
    const std::string& field = error.location().field;
    if (kind.empty() ||
        (name.empty() && (field == "metadata" || field.starts_with("metadata.name")))) {
      if (std::string place = Where(); !place.empty()) label = place + ": " + label;
    }
    error.WithObject(std::move(label));
    diags_.Report(std::move(error));
  }

  void CountUnknown(const std::string& api_version, const std::string& kind) {
    internal::CountUnknownKind(&st_.unknown_kinds, api_version, kind, file_);
  }

  ReaderState& st_;
  core::Diagnostics& diags_;
  const std::string& file_;
  const ReadOptions& options_;
  // LookUp's last answer.
  bool last_lookup_valid_ = false;
  std::string last_api_version_;
  std::string last_kind_;
  internal::KindEntry last_entry_;
  // The object being decoded (set by Decode for the DecodeSink calls).
  dom::object object_;
  const std::string* api_version_ = nullptr;
  const std::string* kind_ = nullptr;
  bool namespaced_ = true;
  model::SourceRef stored_;     // the document Store gave the object being decoded
  int doc_line_ = 0;            // the YAML document's first line; 0 for JSON
  int item_ = -1;               // the index in the List or array being read; -1 outside one
  int doc_index_ = 0;           // the document's 1-based index in the file; 0 before one
  std::string_view json_text_;  // the JSON text being read, for lines
  size_t json_doc_offset_ = 0;  // of the JSON document being read
  size_t item_offset_ = std::string_view::npos;  // of the JSON List item, when split
  int64_t objects_ = 0;      // documents and List items so far (kMaxObjectsPerFile)
  int32_t file_index_ = -1;  // into ReaderState::files, once an object of this file is kept
  std::string_view raw_;     // the text of the object being decoded, when known
  bool raw_compact_ = false;
  std::string minify_buffer_;
  std::shared_ptr<const void> buffer_;  // owns the text read, when documents may view it
  bool buffer_kept_ = false;            // given to the store already
};

bool HasInputExtension(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

Reader::Reader(core::Diagnostics& diags)
    : diags_(diags), state_(std::make_unique<internal::ReaderState>()) {}

Reader::~Reader() = default;

namespace {

// Runs one file's read, so that running out of memory (an allocation the bounds of
// io/input_limits.h still allow, on a small machine) is an error naming the file instead of
// a bare std::bad_alloc out of main. The objects decoded before it are kept: the parallel
// vectors the decoders append to are cut back to the objects they have in common.
void ReadGuarded(internal::ReaderState& state, core::Diagnostics& diags, const std::string& file,
                 size_t bytes, const std::function<void()>& read) {
  try {
    read();
  } catch (const std::bad_alloc&) {
    model::Snapshot& snap = state.input.snapshot;
    const size_t pods = std::min(snap.pods.size(), state.pod_has_priority.size());
    snap.pods.resize(pods);
    state.pod_has_priority.resize(pods);
    const size_t workloads = std::min(snap.workloads.size(), state.workload_sources.size());
    snap.workloads.resize(workloads);
    state.workload_sources.resize(workloads);
    diags.Report(core::Error(core::ErrorCode::kResourceExhausted,
                             "out of memory reading this file (" + std::to_string(bytes) +
                                 " bytes); the objects after the ones read so far are dropped",
                             core::Location{file, "", ""}));
  }
}

}  // namespace

void Reader::ReadText(std::string_view text, const std::string& file_name,
                      const ReadOptions& options) {
  BERTH_CHECK(!state_->finished, "Reader used after Finish()");
  ReadGuarded(*state_, diags_, file_name, text.size(), [&] {
    FileReader(*state_, diags_, file_name, options).ReadBuffer(text, /*padded=*/false);
  });
}

namespace {

// Decodes one object on its own, into a state of its own whose resource ids come from the
// cache's catalog, and keeps what the decode left there.
std::shared_ptr<const internal::DecodedObject> DecodeAlone(std::string_view json,
                                                           internal::DecodeCacheState& cache,
                                                           const std::string& file) {
  internal::ReaderState state;
  std::swap(state.parser, cache.parser);
  std::swap(state.input.snapshot.resources, cache.catalog);
  core::Diagnostics diags;
  ReadGuarded(state, diags, file, json.size(), [&] {
    FileReader(state, diags, file, ReadOptions{}).ReadBuffer(json, /*padded=*/false);
  });
  std::swap(state.parser, cache.parser);
  std::swap(state.input.snapshot.resources, cache.catalog);
  auto out = std::make_shared<internal::DecodedObject>();
  out->singleton = state.input.snapshot.scheduler_config.has_value() ||
                   state.input.snapshot.kueue_config.has_value();
  out->lists = internal::ListsUsed(state.input.snapshot);
  out->extras = !state.pod_has_priority.empty() || !state.workload_sources.empty() ||
                !state.unknown_kinds.empty() || !diags.entries().empty();
  out->snapshot = std::move(state.input.snapshot);
  out->documents = std::move(state.input.documents);
  out->pod_has_priority = std::move(state.pod_has_priority);
  out->workload_sources = std::move(state.workload_sources);
  out->unknown_kinds = std::move(state.unknown_kinds);
  out->diagnostics = diags.entries();
  out->objects_read = state.input.objects_read;
  return out;
}

}  // namespace

void Reader::ReadCached(std::span<const SourceObject> objects, DecodeCache& cache,
                        const std::string& file_name) {
  BERTH_CHECK(!state_->finished, "Reader used after Finish()");
  BERTH_CHECK(state_->input.documents.size() == 0 && state_->input.objects_read == 0,
              "ReadCached must be a reader's only input");
  internal::DecodeCacheState& c = *cache.state_;
  const uint64_t generation = ++c.generation;
  c.last_decoded = 0;
  // 1. Decode what is new or changed. Entries are nodes of the map, so the pointers stay
  // valid while other keys are added and while the unread ones are swept.
  std::vector<const internal::DecodeCacheEntry*> entries;
  entries.reserve(objects.size());
  for (const SourceObject& object : objects) {
    auto it = c.entries.find(object.key);
    if (it == c.entries.end()) it = c.entries.try_emplace(std::string(object.key)).first;
    internal::DecodeCacheEntry& entry = it->second;
    BERTH_CHECK(entry.generation != generation, "ReadCached given one key twice");
    entry.generation = generation;
    if (entry.object == nullptr || entry.version != object.version) {
      entry.object = DecodeAlone(object.json, c, file_name);
      entry.version = object.version;
      ++c.last_decoded;
    }
    entries.push_back(&entry);
  }
  // Keys are unique, so the cache holds more than was read only when some went away.
  if (c.entries.size() > objects.size()) {
    std::erase_if(c.entries, [&](const auto& kv) { return kv.second.generation != generation; });
  }

  // 2. Append them in the order given, as reading them as one List would have.
  internal::ReaderState& st = *state_;
  model::Snapshot& snap = st.input.snapshot;
  snap.resources = c.catalog;
  // Room for one object per list each cached object uses (nearly always exact): growing
  // 100,000 Workloads by doubling would move them 17 times.
  std::array<size_t, internal::kMaxSnapshotLists> counts{};
  for (const internal::DecodeCacheEntry* entry : entries) {
    for (internal::ListMask lists = entry->object->lists; lists != 0; lists &= lists - 1) {
      ++counts[static_cast<size_t>(std::countr_zero(lists))];
    }
  }
  internal::ReserveLists(counts, &snap);
  for (size_t i = 0; i < objects.size(); ++i) {
    const internal::DecodedObject& d = *entries[i]->object;
    if (d.singleton) {
      ReadGuarded(st, diags_, file_name, objects[i].json.size(), [&] {
        FileReader(st, diags_, file_name, ReadOptions{}).ReadBuffer(objects[i].json, false);
      });
      continue;
    }
    const auto offset = static_cast<int32_t>(st.input.documents.size());
    for (size_t doc = 0; doc < d.documents.size(); ++doc) {
      // The cached object's own document, kept alive by the Input's store.
      st.input.documents.AddShared(entries[i]->object,
                                   &d.documents.Get(model::SourceRef{static_cast<int32_t>(doc)}));
    }
    internal::AppendLists(d.snapshot, d.lists, offset, &snap);
    st.input.objects_read += d.objects_read;
    if (!d.extras) continue;
    st.pod_has_priority.insert(st.pod_has_priority.end(), d.pod_has_priority.begin(),
                               d.pod_has_priority.end());
    st.workload_sources.insert(st.workload_sources.end(), d.workload_sources.begin(),
                               d.workload_sources.end());
    for (const internal::UnknownKind& u : d.unknown_kinds) {
      internal::CountUnknownKind(&st.unknown_kinds, u.api_version, u.kind, u.file, u.count);
    }
    for (const core::Diagnostic& diagnostic : d.diagnostics) {
      if (diagnostic.severity == core::Severity::kError) {
        diags_.Report(diagnostic.error);
      } else {
        diags_.Warn(diagnostic.error);
      }
    }
  }
}

core::Status Reader::ReadPath(const std::string& path, const ReadOptions& options) {
  BERTH_CHECK(!state_->finished, "Reader used after Finish()");
  if (path == "-") {
    const std::string file = "<stdin>";
    // Read in blocks up to one byte past kMaxFileBytes, so an endless stdin is refused
    // without holding more than the limit.
    auto text = std::make_shared<std::string>();
    std::array<char, 1 << 16> block{};
    while (static_cast<int64_t>(text->size()) <= kMaxFileBytes &&
           std::cin.read(block.data(), block.size()).gcount() > 0) {
      text->append(block.data(), static_cast<size_t>(std::cin.gcount()));
    }
    const std::string_view view = *text;
    // Shared with the store, as a file's text is: the documents of a compact dump view it.
    ReadGuarded(*state_, diags_, file, view.size(), [&] {
      FileReader(*state_, diags_, file, options, std::shared_ptr<const std::string>(text))
          .ReadBuffer(view, /*padded=*/false);
    });
    return core::OkStatus();
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    return core::NotFound("no such file or directory", core::Location{path, "", ""});
  }
  std::vector<std::string> files;
  if (fs::is_directory(status)) {
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code file_ec;
      if (it->is_regular_file(file_ec) && HasInputExtension(it->path())) {
        files.push_back(it->path().string());
      }
    }
    if (ec) {
      return core::NotFound("cannot list directory: " + ec.message(), core::Location{path, "", ""});
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  for (const std::string& file : files) {
    // Refused before it is loaded: a file over the limit costs no memory.
    std::error_code size_ec;
    const uintmax_t bytes = fs::file_size(file, size_ec);
    if (!size_ec && bytes > static_cast<uintmax_t>(kMaxFileBytes)) {
      diags_.Report(FileTooLarge(file, bytes));
      continue;
    }
    auto content = std::make_shared<simdjson::padded_string>();
    if (simdjson::padded_string::load(file).get(*content) != simdjson::SUCCESS) {
      core::Error error = core::NotFound("cannot read file", core::Location{file, "", ""});
      if (file == path) return error;
      diags_.Report(std::move(error));
      continue;
    }
    const std::string_view text(content->data(), content->size());
    ReadGuarded(*state_, diags_, file, text.size(), [&] {
      FileReader(*state_, diags_, file, options, std::move(content))
          .ReadBuffer(text, /*padded=*/true);
    });
  }
  return core::OkStatus();
}

size_t Reader::ObjectsRead() const { return state_->input.objects_read; }

Input Reader::Finish(const ExpansionLimits& limits) {
  BERTH_CHECK(!state_->finished, "Reader::Finish() called twice");
  state_->finished = true;
  Input& input = state_->input;
  model::Snapshot& snap = input.snapshot;

  for (const internal::UnknownKind& u : state_->unknown_kinds) {
    diags_.Warn(core::Unimplemented("skipped " + std::to_string(u.count) + " object" +
                                        (u.count == 1 ? "" : "s") + " of unknown kind " + u.kind +
                                        " (" + u.api_version + ")",
                                    core::Location{u.file, "", ""}));
  }

  for (const internal::IdenticalRereads& r : state_->identical_rereads) {
    const std::string& file = state_->files[static_cast<size_t>(r.file)];
    const std::string objects = std::to_string(r.count) + " object" + (r.count == 1 ? "" : "s");
    if (r.file == r.first_file) {
      // The same path given twice (`-f DIR -f DIR`), or a file repeating its own objects.
      diags_.Warn(core::Error(
          core::ErrorCode::kAlreadyExists,
          "read twice: " + objects + " identical to their first copy in this file; each read once",
          core::Location{file, r.count == 1 ? r.first_label : "", ""}));
    } else if (r.count == 1) {
      diags_.Warn(
          core::Error(core::ErrorCode::kAlreadyExists,
                      "identical to the copy already read from " + r.first_place + "; read once",
                      core::Location{file, r.first_label, ""}));
    } else {
      diags_.Warn(core::Error(core::ErrorCode::kAlreadyExists,
                              objects + " identical to the ones already read from " +
                                  state_->files[static_cast<size_t>(r.first_file)] +
                                  "; each read once",
                              core::Location{file, "", ""}));
    }
  }
  state_->first_reads.Clear();
  state_->files = {};
  state_->file_indices = {};

  internal::PriorityResolver priorities(snap.priority_classes);
  const internal::RuntimeClassAdmission runtime_classes(snap.runtime_classes);
  auto error_for = [&](core::Error error, model::SourceRef source) {
    const Document& doc = input.documents.Get(source);
    error.WithFile(doc.file);
    error.WithObject(internal::ObjectLabel(doc.kind, doc.namespace_, doc.name));
    diags_.Report(std::move(error));
  };

  // Given pods: a pod naming a missing class is dropped, as admission would reject it. The
  // RuntimeClass admission applies to the pods not yet bound: a bound pod exists and keeps
  // what it has, whatever became of its class since.
  std::vector<model::Pod> pods;
  pods.reserve(snap.pods.size());
  for (size_t i = 0; i < snap.pods.size(); ++i) {
    model::Pod& pod = snap.pods[i];
    core::Status status = priorities.Resolve(&pod, state_->pod_has_priority[i]);
    if (status.ok() && !pod.IsBound() && !pod.IsTerminal()) status = runtime_classes.Admit(&pod);
    if (!status.ok()) {
      error_for(std::move(status).error(), pod.source);
      continue;
    }
    pods.push_back(std::move(pod));
  }
  snap.pods = std::move(pods);

  // TrainJobs get their pod sets from the runtime they name, read anywhere in the input; one
  // naming no runtime is reported and dropped (its trainer could make no JobSet).
  ResolveTrainJobs(input.documents, error_for, &snap, &state_->workload_sources);

  // Datasets no cache runtime serves are reported and dropped (fluid_decoders.h).
  if (!snap.datasets.empty()) {
    std::vector<std::pair<size_t, core::Error>> orphans = internal::DatasetsWithoutRuntime(snap);
    std::vector<bool> drop(snap.datasets.size(), false);
    for (auto& [i, error] : orphans) {
      drop[i] = true;
      error_for(std::move(error), snap.datasets[i].source);
    }
    size_t kept = 0;
    for (size_t i = 0; i < snap.datasets.size(); ++i) {
      if (drop[i]) continue;
      if (kept != i) snap.datasets[kept] = std::move(snap.datasets[i]);
      ++kept;
    }
    snap.datasets.resize(kept);
  }

  // Workloads: resolve their templates' priorities, then expand the ones not suspended and
  // the queued ones (Kueue keeps those suspended until admitted; their pods are what the job
  // would create, and the Kueue Workload made for the job lists them).
  std::unordered_map<std::string, int32_t> existing;
  for (size_t i = 0; i < snap.pods.size(); ++i) {
    existing.emplace(internal::PodKey(snap.pods[i]), static_cast<int32_t>(i));
  }
  internal::WorkloadCreator creator(&snap, &input.documents, priorities);
  struct PendingJob {
    model::Workload workload;
    int32_t owner;
    std::vector<std::vector<int32_t>> pods;
    size_t source_index;  // into state_->workload_sources
    std::string file;
  };
  std::vector<PendingJob> pending_jobs;
  std::vector<model::WorkloadObject> workloads;
  workloads.reserve(snap.workloads.size());
  // What each workload already has in the input (internal/ownership.h): a nested one (a
  // Deployment's ReplicaSet, a JobSet's Job) is kept as read but neither expanded nor
  // queued; the others get only their missing pods.
  const internal::Ownership ownership(snap);
  int64_t pods_to_expand = 0;  // what the workloads read so far may create (docs/limits.md)
  for (size_t w = 0; w < snap.workloads.size(); ++w) {
    model::WorkloadObject& workload = snap.workloads[w];
    const std::vector<internal::PodSetSource>& sources = state_->workload_sources[w];
    if (ownership.Nested(w)) {
      workloads.push_back(std::move(workload));
      continue;
    }
    // Replica counts are bounded before any pod is made: a typo of 2000000000 replicas must
    // be one error, not an expansion that never ends.
    int64_t pods = 0;
    for (const model::PodSetTemplate& set : workload.pod_sets) pods += set.count;
    if (pods > limits.pods_per_workload || pods_to_expand + pods > limits.pods) {
      error_for(core::InvalidArgument(
                    pods > limits.pods_per_workload
                        ? std::to_string(pods) + " pods exceed berth's limit of " +
                              std::to_string(limits.pods_per_workload) + " pods per workload"
                        : "its " + std::to_string(pods) + " pods would exceed berth's limit of " +
                              std::to_string(limits.pods) + " pods created from one input",
                    core::Location{"", "", "spec"}),
                workload.source);
      continue;
    }
    pods_to_expand += pods;
    bool ok = true;
    for (size_t s = 0; s < workload.pod_sets.size() && ok; ++s) {
      model::Pod& pod_template = workload.pod_sets[s].pod_template;
      core::Status status = priorities.Resolve(&pod_template, sources[s].has_priority);
      // The pods the controller creates pass the RuntimeClass admission; one refused is a
      // FailedCreate, reported here on the workload's template (docs/limits.md).
      if (status.ok()) status = runtime_classes.Admit(&pod_template);
      if (!status.ok()) {
        core::Error error = std::move(status).error();
        error.WithFieldPrefix(sources[s].template_field);
        error_for(std::move(error), workload.source);
        ok = false;
      }
    }
    if (!ok) continue;
    std::optional<model::Workload> queued;
    const internal::KindRow* row =
        internal::FindKindRow(model::ApiGroupOf(workload.api_version), workload.kind);
    if (internal::IsQueued(workload.meta.labels) && (row == nullptr || row->kueue_integration)) {
      auto created = creator.ForJob(workload, sources);
      if (!created.has_value()) {
        error_for(std::move(created).error(), workload.source);
        continue;
      }
      queued = std::move(*created);
    }
    // A copy: the pending job below keeps it.
    std::string file = input.documents.Get(workload.source).file;
    std::vector<std::vector<int32_t>> pod_indices;
    if (!workload.suspended || queued.has_value()) {
      internal::ExistingPods owned;
      const bool has_owned = ownership.Existing(w, workload, sources, snap, &owned);
      if (!limits.create_missing_pods) {
        // Only the pods that exist: their controller makes the others.
        for (std::vector<int32_t>& missing : owned.missing) missing.clear();
        if (!has_owned) owned.live.assign(workload.pod_sets.size(), {});
        if (owned.missing.size() < workload.pod_sets.size()) owned.missing.resize(workload.pod_sets.size());
      }
      internal::ExpandWorkload(workload, sources, file, &existing, &snap, &input.documents,
                               &pod_indices, has_owned || !limits.create_missing_pods ? &owned : nullptr);
    }
    workloads.push_back(std::move(workload));
    if (queued.has_value()) {
      // Indices into `workloads`, which becomes snap.workloads below; AddForJob reads the
      // job through snap.workloads, so it runs after the swap.
      pending_jobs.push_back({std::move(*queued), static_cast<int32_t>(workloads.size() - 1),
                              std::move(pod_indices), w, std::move(file)});
    }
  }
  snap.workloads = std::move(workloads);
  DropMadeVolcanoPodGroupsGiven(&snap);
  for (PendingJob& job : pending_jobs) {
    creator.AddForJob(std::move(job.workload), job.owner, std::move(job.pods),
                      state_->workload_sources[job.source_index], job.file);
  }
  creator.AddForPods(diags_);

  // Pods (given and expanded) that use a ResourceClaimTemplate get their claim, as the
  // resourceclaim controller creates it.
  internal::ResolveClaimTemplates(&snap, &input.documents, diags_);
  return std::move(input);
}

}  // namespace berth::io
