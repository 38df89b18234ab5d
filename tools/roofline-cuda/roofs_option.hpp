#pragma once
// The `--ceilings` option of bench and profile: which roofs a run uses (arguments only; the
// choice, the cache and the checks are roofkit::choose_roofs).
#include <string>

#include "roofkit/ceilings.hpp"
#include "roofkit/run.hpp"

namespace roofkit::cli {

/// The help text of `--ceilings` and `--ceilings-any-gpu`.
inline const char* const ceilings_option_help =
    "Roofs: measured on this GPU once and cached (default), 'theoretical', or a machine file "
    "from `ceilings --save`";
inline const char* const ceilings_any_gpu_help =
    "Accept a --ceilings machine file measured on another GPU (noted in the run)";

/// The roofs `--ceilings VALUE` asks for on `device` ("" : measured and cached), with progress
/// on stderr when `show_progress`, warnings always.
chosen_roofs roofs_for_run(const std::string& value, bool any_gpu, int device, bool show_progress);

/// Records in the run which roofs it used and when they were measured.
void note_roofs(run& r, const chosen_roofs& roofs);

} // namespace roofkit::cli
