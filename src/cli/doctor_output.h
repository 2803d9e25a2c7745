// How berth doctor prints a report: a table grouped by severity, the JSON document of
// DESIGN.md ("Diagnostics output"), or SARIF 2.1.0 for code-scanning UIs (one run, the
// catalogue's rules with help URIs, each result located by file, line and object).
#pragma once

#include <ostream>
#include <vector>

#include "diag/doctor.h"
#include "io/document_store.h"

namespace berth::cli {

void PrintDoctorTable(const diag::DoctorReport& report, const io::DocumentStore& documents,
                      std::ostream& out);
void PrintDoctorJson(const diag::DoctorReport& report, std::ostream& out);
// `rules`: the rules that ran (SARIF lists them even without results).
void PrintDoctorSarif(const diag::DoctorReport& report, const std::vector<const diag::Rule*>& rules,
                      const io::DocumentStore& documents, std::ostream& out);
void PrintRuleCatalogue(std::ostream& out);

// Where a finding's rule is documented: docs/doctor/<id>.md in berth's repository.
std::string RuleHelpUri(std::string_view id);

}  // namespace berth::cli
