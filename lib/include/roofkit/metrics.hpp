#pragma once
// Metric sets: what roofkit collects through CUPTI, and how a set is resolved for one chip.
// Pure data and logic; the CUPTI host API is reached only through metric_catalog.
#include <optional>
#include <string>
#include <vector>

#include "roofkit/run.hpp"

namespace roofkit {

/// What a metric's value means to the roofline model.
enum class metric_role {
  flops,      ///< instructions or operations; times `weight` gives FLOPs of `prec`
  bytes,      ///< bytes moved at `level`
  time,       ///< kernel duration in nanoseconds
  sm_cycles,  ///< SM cycles elapsed (average over SMs)
  sm_clock,   ///< SM clock in Hz
  dram_clock, ///< DRAM clock in Hz
  occupancy,  ///< achieved occupancy in percent of the SM's warp slots
  count,      ///< a plain count (requests, sectors, wavefronts, conflicts, instructions)
};

/// One quantity of a set, with the CUPTI names (rollup included) that spell it on different
/// chips. The first name the chip knows is used; none -> the metric is dropped with a warning.
struct metric_spec {
  std::string key;                ///< stable short name ("ffma", "dram_read", ...)
  std::vector<std::string> names; ///< candidate CUPTI names, in order of preference
  std::string description;        ///< what it is, in roofkit's words
  metric_role role = metric_role::count;
  precision prec = precision::fp32; ///< for role flops
  double weight = 1; ///< FLOPs per counted instruction/op (flops), bytes per count (bytes)
  memory_level level = memory_level::dram; ///< for role bytes
  bool optional = false;                   ///< kept only while the set stays within its pass budget
  /// Chips that have the hardware path (name prefixes, "AD10" = AD102..AD107); empty = every
  /// chip that knows a name. CUPTI lists some counters on chips without the unit (DMMA on AD102).
  std::vector<std::string> chips;
};

/// A named metric set.
struct metric_set_def {
  std::string name;
  std::string description;
  std::vector<metric_spec> metrics;
  int pass_budget = 0; ///< optional metrics are added while passes <= budget (0: no budget)
};

/// The built-in sets: "roofline", "roofline-full", "tensor", "coalescing".
const std::vector<metric_set_def>& metric_sets();
/// A built-in set by name; throws usage_error listing the valid names.
const metric_set_def& find_metric_set(const std::string& name);
/// A set made of raw CUPTI metric names (each its own key, role count, all required).
metric_set_def custom_metric_set(const std::vector<std::string>& names);

/// What the chip knows: implemented with the CUPTI host API (profiler_host.hpp) or by a fake in
/// tests.
class metric_catalog {
public:
  virtual ~metric_catalog() = default;
  /// The chip name ("GH100").
  virtual std::string chip() const = 0;
  /// True when the chip has this metric (with its rollup).
  virtual bool has(const std::string& name) const = 0;
  /// NVIDIA's description of the metric ("" when unknown).
  virtual std::string description(const std::string& name) const = 0;
  /// Replay passes needed to collect all the names together.
  virtual int passes(const std::vector<std::string>& names) const = 0;
};

/// A metric of a resolved set.
struct resolved_metric {
  metric_spec spec;
  std::string name; ///< the CUPTI name chosen for this chip
  std::string nvidia_description;
};

/// Why a metric of a set is not collected.
enum class drop_reason {
  not_on_chip, ///< no candidate name exists on the chip
  over_budget, ///< optional, and adding it would exceed the pass budget
};

/// A metric left out, and why.
struct dropped_metric {
  metric_spec spec;
  drop_reason reason = drop_reason::not_on_chip;
};

/// A metric set as collected on one chip.
struct resolved_set {
  std::string set;
  std::string chip;
  std::vector<resolved_metric> metrics;
  std::vector<dropped_metric> dropped;
  int passes = 0;
  /// One line per required metric the chip lacks (for stderr).
  std::vector<std::string> warnings() const;
  /// One line naming the optional metrics left out to keep within the pass budget, if any.
  std::vector<std::string> notes() const;
  /// The chosen CUPTI names, in order.
  std::vector<std::string> names() const;
  /// The resolved metric with this key, or nullptr.
  const resolved_metric* find(const std::string& key) const;
};

/// Resolves a set for the catalog's chip: picks each metric's name, drops what the chip lacks,
/// then adds optional metrics in order while the pass count stays within the budget.
resolved_set resolve_metric_set(const metric_set_def& def, const metric_catalog& catalog);

/// "not on chip" / "over pass budget".
std::string to_string(drop_reason r);
/// "flops", "bytes", "time", ...
std::string to_string(metric_role r);

} // namespace roofkit
