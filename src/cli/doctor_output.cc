// The three report formats. SARIF results carry the file the object was read from and the
// line its document starts at (found by scanning that file once: the reader keeps objects,
// not positions), plus the object as a logical location, so a code-scanning UI can point at it.
#include "cli/doctor_output.h"

#include <fstream>
#include <map>
#include <sstream>

#include "cli/text_table.h"
#include "io/json_writer.h"

#ifndef BERTH_DOCS_DIR
#define BERTH_DOCS_DIR "/usr/local/share/doc/berth"
#endif

namespace berth::cli {

namespace {

std::string ObjectName(const diag::ObjectRef& o) {
  std::string s = o.kind + "/";
  if (!o.namespace_.empty()) s += o.namespace_ + "/";
  return s + o.name;
}

std::string FileOf(const diag::ObjectRef& o, const io::DocumentStore& documents) {
  if (!o.source.valid() || static_cast<size_t>(o.source.document) >= documents.size()) return "";
  return documents.Get(o.source).file;
}

// The 1-based line where the object's kind is written in `file`: the last "kind: K" line
// before a "name: N" line (YAML), or the line of `"name": "N"` after `"kind": "K"` (JSON).
// 1 when it cannot be found (the file is gone, or it was stdin or compiled in).
class LineFinder {
 public:
  int32_t Find(const std::string& file, const diag::ObjectRef& o) {
    if (file.empty() || file.front() == '<') return 1;
    auto [it, added] = files_.try_emplace(file);
    if (added) {
      std::ifstream in(file);
      std::string line;
      while (std::getline(in, line)) it->second.push_back(line);
    }
    const std::vector<std::string>& lines = it->second;
    int32_t kind_line = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (Names(l, "kind", o.kind)) kind_line = static_cast<int32_t>(i) + 1;
      if (kind_line > 0 && Names(l, "name", o.name)) return kind_line;
    }
    return 1;
  }

 private:
  // `key: value` or `"key": "value"` on this line, ignoring indentation and quotes.
  static bool Names(const std::string& line, std::string_view key, std::string_view value) {
    for (const std::string& form : {std::string(key) + ": " + std::string(value),
                                    std::string(key) + ": \"" + std::string(value) + "\"",
                                    "\"" + std::string(key) + "\": \"" + std::string(value) + "\""}) {
      const size_t at = line.find(form);
      if (at == std::string::npos) continue;
      const size_t end = at + form.size();
      const bool whole = end == line.size() || line[end] == ',' || line[end] == ' ' || line[end] == '}';
      const std::string_view before = std::string_view(line).substr(0, at);
      if (whole && before.find_first_not_of(" -{\t") == std::string_view::npos) return true;
    }
    return false;
  }
  std::map<std::string, std::vector<std::string>> files_;
};

const char* SarifLevel(diag::Severity s) {
  switch (s) {
    case diag::Severity::kError: return "error";
    case diag::Severity::kWarning: return "warning";
    case diag::Severity::kInfo: return "note";
  }
  return "error";
}

}  // namespace

std::string RuleHelpUri(std::string_view id) {
  return "file://" + std::string(BERTH_DOCS_DIR) + "/doctor/" + std::string(id) + ".md";
}

void PrintDoctorTable(const diag::DoctorReport& report, const io::DocumentStore& documents,
                      std::ostream& out) {
  const diag::Severity order[] = {diag::Severity::kError, diag::Severity::kWarning, diag::Severity::kInfo};
  const char* titles[] = {"ERRORS", "WARNINGS", "INFO"};
  bool first = true;
  for (int s = 0; s < 3; ++s) {
    std::vector<const diag::Finding*> group;
    for (const diag::Finding& f : report.findings) {
      if (f.severity == order[s]) group.push_back(&f);
    }
    if (group.empty()) continue;
    if (!first) out << "\n";
    first = false;
    out << titles[s] << " (" << group.size() << ")\n";
    for (const diag::Finding* f : group) {
      std::string where = ObjectName(f->object);
      if (f->object.cluster != "default") where = f->object.cluster + ": " + where;
      out << "  " << f->rule << "  " << where;
      if (!f->field.empty()) out << "  " << f->field;
      const std::string file = FileOf(f->object, documents);
      if (!file.empty()) out << "  (" << file << ")";
      out << "\n    " << f->message << "\n    fix: " << f->fix << "\n";
    }
  }
  if (!report.skipped.empty()) {
    // One line per unread object, naming the rules that could not see it.
    std::map<std::string, std::vector<std::string>> by_reason;
    for (const diag::SkippedRule& s : report.skipped) by_reason[s.reason].push_back(s.rule);
    out << (first ? "" : "\n") << "NOT CHECKED (" << by_reason.size() << ")\n";
    for (const auto& [reason, rules] : by_reason) {
      out << "  " << reason << ": " << rules.size() << (rules.size() == 1 ? " rule" : " rules")
          << " ran without it (";
      for (size_t i = 0; i < rules.size(); ++i) out << (i == 0 ? "" : ", ") << rules[i];
      out << ")\n";
    }
    first = false;
  }
  if (!first) out << "\n";
  out << report.errors << " error" << (report.errors == 1 ? "" : "s") << ", " << report.warnings
      << " warning" << (report.warnings == 1 ? "" : "s") << ", " << report.infos << " info ("
      << report.rules_run << " rules run)\n";
}

void PrintDoctorJson(const diag::DoctorReport& report, std::ostream& out) {
  io::JsonWriter w(out);
  w.BeginObject();
  w.Key("findings");
  w.BeginArray();
  for (const diag::Finding& f : report.findings) {
    w.BeginObject();
    w.Field("rule", f.rule);
    w.Field("severity", diag::SeverityName(f.severity));
    w.Key("object");
    w.BeginObject();
    w.Field("apiVersion", f.object.api_version);
    w.Field("kind", f.object.kind);
    w.Field("namespace", f.object.namespace_);
    w.Field("name", f.object.name);
    w.EndObject();
    w.Field("cluster", f.object.cluster);
    w.Field("field", f.field);
    w.Field("message", f.message);
    w.Field("fix", f.fix);
    w.EndObject();
  }
  w.EndArray();
  w.Key("summary");
  w.BeginObject();
  w.Field("error", int64_t{report.errors});
  w.Field("warning", int64_t{report.warnings});
  w.Field("info", int64_t{report.infos});
  w.EndObject();
  w.Key("skipped");
  w.BeginArray();
  for (const diag::SkippedRule& s : report.skipped) {
    w.BeginObject();
    w.Field("rule", s.rule);
    w.Field("reason", s.reason);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Finish();
}

void PrintDoctorSarif(const diag::DoctorReport& report, const std::vector<const diag::Rule*>& rules,
                      const io::DocumentStore& documents, std::ostream& out) {
  std::map<std::string_view, size_t> rule_index;
  for (size_t i = 0; i < rules.size(); ++i) rule_index[rules[i]->id] = i;
  io::JsonWriter w(out);
  w.BeginObject();
  w.Field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.Field("version", "2.1.0");
  w.Key("runs");
  w.BeginArray();
  w.BeginObject();
  w.Key("tool");
  w.BeginObject();
  w.Key("driver");
  w.BeginObject();
  w.Field("name", "berth doctor");
  w.Field("informationUri", "file://" + std::string(BERTH_DOCS_DIR) + "/doctor/README.md");
  w.Key("rules");
  w.BeginArray();
  for (const diag::Rule* r : rules) {
    w.BeginObject();
    w.Field("id", r->id);
    w.Key("shortDescription");
    w.BeginObject();
    w.Field("text", r->title);
    w.EndObject();
    w.Field("helpUri", RuleHelpUri(r->id));
    w.Key("defaultConfiguration");
    w.BeginObject();
    w.Field("level", SarifLevel(r->severity));
    w.EndObject();
    w.Key("properties");
    w.BeginObject();
    w.Field("area", r->area);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  w.Key("results");
  w.BeginArray();
  LineFinder lines;
  for (const diag::Finding& f : report.findings) {
    w.BeginObject();
    w.Field("ruleId", f.rule);
    if (auto it = rule_index.find(f.rule); it != rule_index.end()) {
      w.Field("ruleIndex", static_cast<int64_t>(it->second));
    }
    w.Field("level", SarifLevel(f.severity));
    w.Key("message");
    w.BeginObject();
    w.Field("text", f.message + " Fix: " + f.fix);
    w.EndObject();
    w.Key("locations");
    w.BeginArray();
    w.BeginObject();
    const std::string file = FileOf(f.object, documents);
    if (!file.empty() && file.front() != '<') {
      w.Key("physicalLocation");
      w.BeginObject();
      w.Key("artifactLocation");
      w.BeginObject();
      w.Field("uri", file);
      w.EndObject();
      w.Key("region");
      w.BeginObject();
      w.Field("startLine", int64_t{lines.Find(file, f.object)});
      w.EndObject();
      w.EndObject();
    }
    w.Key("logicalLocations");
    w.BeginArray();
    w.BeginObject();
    w.Field("fullyQualifiedName", (f.object.cluster == "default" ? "" : f.object.cluster + ":") +
                                      ObjectName(f.object) + (f.field.empty() ? "" : "#" + f.field));
    w.Field("kind", "object");
    w.EndObject();
    w.EndArray();
    w.EndObject();
    w.EndArray();
    w.Key("properties");
    w.BeginObject();
    w.Field("field", f.field);
    w.Field("cluster", f.object.cluster);
    w.Field("fix", f.fix);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndArray();
  w.EndObject();
  w.Finish();
}

void PrintRuleCatalogue(std::ostream& out) {
  TextTable table({TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kLeft,
                   TextTable::Align::kLeft});
  table.AddRow({"RULE", "SEVERITY", "AREA", "WHAT IT FINDS"});
  for (const diag::Rule& r : diag::AllRules()) {
    table.AddRow({std::string(r.id), std::string(diag::SeverityName(r.severity)), std::string(r.area),
                  std::string(r.title)});
  }
  table.Print(out, "");
  out << "\n" << diag::AllRules().size() << " rules; each is documented in docs/doctor/<rule>.md\n";
}

}  // namespace berth::cli
