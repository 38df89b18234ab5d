#pragma once
// The bundled suite's claims document (docs/seed-claims.md): the seed articles' claims measured
// against a run.
#include <map>
#include <string>
#include <vector>

#include "roofkit/bench.hpp"
#include "roofkit/run.hpp"

namespace roofkit::kernels {

/// The text of docs/seed-claims.md: provenance, one row per claim (seed figure, our figure,
/// verdict, evidence), and how each figure is computed. `command` is the command that generated
/// the document, named in its header; `run_file` the run it measured. `notes` (claim id -> text)
/// add a reviewer's reading of the counters for claims of this run; the JSON file of that map is
/// named in `notes_file` ("" when none).
std::string claims_markdown(const run& r, const std::vector<claim_outcome>& outcomes,
                            const std::string& run_file, const std::string& command,
                            const std::map<std::string, std::string>& notes = {},
                            const std::string& notes_file = "");

} // namespace roofkit::kernels
