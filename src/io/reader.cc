// Reading is one decode path: JSON goes straight to simdjson's DOM, YAML is turned into JSON
// text per document first (internal/yaml_to_json.h), and both end in HandleObject, which
// looks the apiVersion and kind up in the table of kinds (internal/kind_table.h) and decodes
// through the row's decoder. simdjson is used because a `kubectl get -A -o json` dump of a
// large cluster is hundreds of MB.
#include "io/reader.h"

#include <simdjson.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "io/internal/claim_templates.h"
#include "io/internal/decoders.h"
#include "io/internal/expand.h"
#include "io/internal/json_fields.h"
#include "io/internal/json_split.h"
#include "io/internal/kind_table.h"
#include "io/internal/kueue_workloads.h"
#include "io/internal/ownership.h"
#include "io/internal/yaml_to_json.h"

namespace berth::io {

namespace internal {

struct UnknownKind {
  std::string api_version;
  std::string kind;
  std::string file;  // where it was first seen
  size_t count = 0;
};

struct ReaderState {
  Input input;
  std::vector<bool> pod_has_priority;                       // parallel to snapshot.pods
  std::vector<std::vector<PodSetSource>> workload_sources;  // parallel to snapshot.workloads
  std::vector<UnknownKind> unknown_kinds;                   // in first-seen order
  simdjson::dom::parser parser;
  bool finished = false;
};

}  // namespace internal

namespace {

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

  void ReadJson(std::string_view text, bool padded) {
    // A List is read item by item: each item's DOM is small and stays in cache.
    internal::JsonListSplit split;
    dom::element root;
    if (internal::SplitJsonList(text, &split) &&
        st_.parser.parse(split.shell.data(), split.shell.size()).get(root) == simdjson::SUCCESS) {
      for (std::string_view item : split.items) {
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
    simdjson::padded_string copy;
    if (!padded) {
      copy = simdjson::padded_string(text.data(), text.size());
      text = std::string_view(copy.data(), copy.size());
    }
    simdjson::error_code err =
        st_.parser.parse(text.data(), text.size(), /*realloc_if_needed=*/false).get(root);
    if (err == simdjson::SUCCESS) {
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
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      dom::element doc;
      err = (*it).get(doc);
      if (err != simdjson::SUCCESS) {
        ReportJsonError(text, it.current_index(), err);
        return;
      }
      HandleRoot(doc);
    }
    if (stream.truncated_bytes() > 0) {
      ReportJsonError(text, text.size() - stream.truncated_bytes(),
                      simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
    }
  }

  void ReadYaml(std::string_view text) {
    core::Status status = internal::ConvertYamlStream(text, [this](std::string&& json, int line) {
      dom::element root;
      simdjson::error_code err = st_.parser.parse(json.data(), json.size(), true).get(root);
      if (err != simdjson::SUCCESS) {
        diags_.Report(core::InvalidArgument(
            "document at line " + std::to_string(line) + ": " + simdjson::error_message(err),
            {file_, "", ""}));
        return;
      }
      if (root.is_object()) {
        HandleObject(root, json, /*raw_compact=*/true);  // the converter writes compact JSON
      } else {
        HandleRoot(root);
      }
    });
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
      for (dom::element item : array) HandleObject(item, {}, false);
      return;
    }
    HandleObject(root, {}, false);
  }

  // `raw`, when not empty, is the object's own JSON text (compact already when
  // `raw_compact`), stored instead of re-serializing the DOM.
  void HandleObject(dom::element e, std::string_view raw, bool raw_compact) {
    dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) {
      diags_.Report(core::InvalidArgument("a document must be an object with apiVersion and kind",
                                          {file_, "", ""}));
      return;
    }
    std::string api_version;
    std::string kind;
    core::Status status = internal::GetString(obj, "apiVersion", &api_version);
    if (status.ok()) status = internal::GetString(obj, "kind", &kind);
    if (status.ok() && kind.empty()) {
      status = core::InvalidArgument("required value", {"", "", "kind"});
    }
    if (!status.ok()) {
      Fail(std::move(status).error(), kind, obj, true);
      return;
    }
    // `kind: List` and the typed lists kubectl prints (PodList, NodeList, ...).
    dom::array items;
    if ((kind == "List" || kind.ends_with("List")) && internal::Find(obj, "items", &e) &&
        e.get_array().get(items) == simdjson::SUCCESS) {
      for (dom::element item : items) HandleObject(item, {}, false);
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
    core::Status status = entry.row->decode(obj, api_version, *this);
    if (!status.ok()) return Fail(std::move(status).error(), kind, obj, namespaced_);
    ++st_.input.objects_read;
  }

  // internal::DecodeSink, for the object Decode is decoding.
  model::Snapshot& snapshot() override { return st_.input.snapshot; }
  model::SourceRef Store(const model::ObjectMeta& meta) override {
    return Store(object_, *api_version_, *kind_, meta);
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
    error.WithObject(internal::ObjectLabel(kind.empty() ? "object" : kind, ns, name));
    diags_.Report(std::move(error));
  }

  void CountUnknown(const std::string& api_version, const std::string& kind) {
    for (internal::UnknownKind& u : st_.unknown_kinds) {
      if (u.api_version == api_version && u.kind == kind) {
        ++u.count;
        return;
      }
    }
    st_.unknown_kinds.push_back({api_version, kind, file_, 1});
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
  std::string_view raw_;  // the text of the object being decoded, when known
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

void Reader::ReadText(std::string_view text, const std::string& file_name,
                      const ReadOptions& options) {
  BERTH_CHECK(!state_->finished, "Reader used after Finish()");
  FileReader(*state_, diags_, file_name, options).ReadBuffer(text, /*padded=*/false);
}

core::Status Reader::ReadPath(const std::string& path, const ReadOptions& options) {
  BERTH_CHECK(!state_->finished, "Reader used after Finish()");
  if (path == "-") {
    // Shared with the store, as a file's text is: the documents of a compact dump view it.
    auto text = std::make_shared<const std::string>(std::istreambuf_iterator<char>(std::cin),
                                                    std::istreambuf_iterator<char>());
    const std::string file = "<stdin>";
    const std::string_view view = *text;
    FileReader(*state_, diags_, file, options, std::move(text)).ReadBuffer(view, /*padded=*/false);
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
    auto content = std::make_shared<simdjson::padded_string>();
    if (simdjson::padded_string::load(file).get(*content) != simdjson::SUCCESS) {
      core::Error error = core::NotFound("cannot read file", core::Location{file, "", ""});
      if (file == path) return error;
      diags_.Report(std::move(error));
      continue;
    }
    const std::string_view text(content->data(), content->size());
    FileReader(*state_, diags_, file, options, std::move(content))
        .ReadBuffer(text, /*padded=*/true);
  }
  return core::OkStatus();
}

Input Reader::Finish() {
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

  internal::PriorityResolver priorities(snap.priority_classes);
  auto error_for = [&](core::Error error, model::SourceRef source) {
    const Document& doc = input.documents.Get(source);
    error.WithFile(doc.file);
    error.WithObject(internal::ObjectLabel(doc.kind, doc.namespace_, doc.name));
    diags_.Report(std::move(error));
  };

  // Given pods: a pod naming a missing class is dropped, as admission would reject it.
  std::vector<model::Pod> pods;
  pods.reserve(snap.pods.size());
  for (size_t i = 0; i < snap.pods.size(); ++i) {
    model::Pod& pod = snap.pods[i];
    core::Status status = priorities.Resolve(&pod, state_->pod_has_priority[i]);
    if (!status.ok()) {
      error_for(std::move(status).error(), pod.source);
      continue;
    }
    pods.push_back(std::move(pod));
  }
  snap.pods = std::move(pods);

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
  for (size_t w = 0; w < snap.workloads.size(); ++w) {
    model::WorkloadObject& workload = snap.workloads[w];
    const std::vector<internal::PodSetSource>& sources = state_->workload_sources[w];
    if (ownership.Nested(w)) {
      workloads.push_back(std::move(workload));
      continue;
    }
    bool ok = true;
    for (size_t s = 0; s < workload.pod_sets.size() && ok; ++s) {
      core::Status status =
          priorities.Resolve(&workload.pod_sets[s].pod_template, sources[s].has_priority);
      if (!status.ok()) {
        core::Error error = std::move(status).error();
        error.WithFieldPrefix(sources[s].template_field);
        error_for(std::move(error), workload.source);
        ok = false;
      }
    }
    if (!ok) continue;
    std::optional<model::Workload> queued;
    if (internal::IsQueued(workload.meta.labels)) {
      auto created = creator.ForJob(workload, sources);
      if (!created.has_value()) {
        error_for(std::move(created).error(), workload.source);
        continue;
      }
      queued = std::move(*created);
    }
    // A copy: expansion adds documents, which may move the one this name lives in.
    std::string file = input.documents.Get(workload.source).file;
    std::vector<std::vector<int32_t>> pod_indices;
    if (!workload.suspended || queued.has_value()) {
      internal::ExistingPods owned;
      const bool has_owned = ownership.Existing(w, workload, sources, snap, &owned);
      internal::ExpandWorkload(workload, sources, file, &existing, &snap, &input.documents,
                               &pod_indices, has_owned ? &owned : nullptr);
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
