// Exit codes of the berth command and how problems reach stderr. Only cli maps errors to
// exit codes (STYLE.md): 0 when every object was good, 1 when some objects were bad but the
// others were planned, 2 when nothing could be planned (no readable input, every object bad,
// bad flags, an unknown pod). Stateless functions; thread-compatible.
#pragma once

#include <ostream>

#include "core/diagnostics.h"
#include "core/result.h"

namespace berth::cli {

// kInternal (sysexits' EX_SOFTWARE): berth found a bug in itself, e.g. a plan that breaks an
// invariant of engine/invariants.h when checks are on.
enum class ExitCode : int { kOk = 0, kPartial = 1, kFailed = 2, kInternal = 70 };

int ToInt(ExitCode code);

// The exit code of a pass that read `objects_read` objects and reported `diags`: kFailed
// when nothing was read, kPartial when some objects were bad, kOk otherwise. Warnings do not
// change it.
ExitCode ExitCodeFor(const core::Diagnostics& diags, size_t objects_read);

// "berth: error: <file>: <Kind/ns/name>: <field>: <message>", empty parts left out.
void PrintError(const core::Error& error, std::ostream& err);
// Every entry in reading order, errors as above and warnings as "berth: warning: ...".
void PrintDiagnostics(const core::Diagnostics& diags, std::ostream& err);

}  // namespace berth::cli
