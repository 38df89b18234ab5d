#pragma once
// The `roofkit.run/1` document of a run as a JSON value, internal to the library: to_json_text
// dumps it, and the profile's run file adds its own section to it without a round trip through
// text.
#include <string>

#include <nlohmann/json.hpp>

#include "roofkit/run.hpp"

namespace roofkit::detail {

/// The run's document, as to_json_text writes it (by value: a caller done with its run moves
/// it in).
nlohmann::ordered_json run_document(run r);

/// `doc` as JSON text: two-space indent, invalid UTF-8 replaced, a final newline.
std::string run_json_text(const nlohmann::ordered_json& doc);

} // namespace roofkit::detail
