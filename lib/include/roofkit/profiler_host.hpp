#pragma once
// The CUPTI profiler host API (cupti_profiler_host.h): metric names, descriptions, pass counts
// and evaluation of counter data for a chip. Needs no GPU and no driver.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "roofkit/metrics.hpp"

namespace roofkit {

/// Chips the CUPTI host API knows ("GA100", "GH100", ...), no GPU needed.
std::vector<std::string> supported_chips();

/// Upper-cases a chip name and checks it against supported_chips(); throws usage_error naming
/// the valid chips otherwise.
std::string normalize_chip_name(const std::string& chip);

/// How many hardware metrics fit in one pass on the chip (a hint; SASS metrics and counter
/// multiplexing change the real number); 0 for a chip the range profiler does not support.
int max_metrics_per_pass(const std::string& chip);

/// metric_catalog backed by the CUPTI host API for one chip.
class cupti_catalog final : public metric_catalog {
public:
  /// A catalog for `chip`. `availability` is the device's counter-availability image (empty
  /// offline: pass counts are then those of a device with every counter available).
  explicit cupti_catalog(const std::string& chip, std::vector<std::uint8_t> availability = {});
  ~cupti_catalog() override;
  cupti_catalog(const cupti_catalog&) = delete;
  cupti_catalog& operator=(const cupti_catalog&) = delete;

  std::string chip() const override;
  bool has(const std::string& name) const override;
  std::string description(const std::string& name) const override;
  int passes(const std::vector<std::string>& names) const override;

  /// The config image that schedules `names` (for cuptiRangeProfilerSetConfig).
  std::vector<std::uint8_t> config_image(const std::vector<std::string>& names) const;
  /// Evaluates `names` for one range of a decoded counter-data image.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                               const std::vector<std::string>& names) const;
  /// The names of the ranges stored in a counter-data image.
  static std::vector<std::string> range_names(const std::vector<std::uint8_t>& counter_data);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace roofkit
