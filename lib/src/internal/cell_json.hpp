#pragma once
// A table cell as a JSON value, internal to the library: the JSON printer and the occupancy
// report's versioned document write cells the same way (non-finite numbers as null).
#include <nlohmann/json.hpp>

#include "roofkit/printer.hpp"

namespace roofkit::detail {

nlohmann::json cell_to_json(const cell& c);

} // namespace roofkit::detail
