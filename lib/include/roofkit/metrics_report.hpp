#pragma once
// Tables describing the metric sets (offline, no GPU needed).
#include <optional>
#include <string>
#include <vector>

#include "roofkit/metrics.hpp"
#include "roofkit/printer.hpp"

namespace roofkit {

/// The sets without a chip: name, description, number of metrics (table id "sets").
table metric_sets_table();

/// For resolved sets: the sets with their pass counts (id "sets") and every metric with its
/// CUPTI name, role, weight, whether it is collected, why not, and descriptions (id "metrics").
std::vector<table> metric_tables(const std::vector<resolved_set>& sets);

/// Resolves the named set (or every built-in set) offline for `chip` with the host API;
/// usage_error for an unknown chip or set.
std::vector<resolved_set> resolve_offline(const std::string& chip,
                                          const std::optional<std::string>& set);

} // namespace roofkit
