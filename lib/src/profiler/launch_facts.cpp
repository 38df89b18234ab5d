// Launch facts shared by the bench and application profiles.
#include "roofkit/profiler.hpp"

namespace roofkit {

double waves_per_sm(const launch_config& launch, int sms, int blocks_per_sm) {
  if (sms <= 0 || blocks_per_sm <= 0)
    return 0;
  const double blocks = static_cast<double>(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  return blocks / (static_cast<double>(sms) * blocks_per_sm);
}

} // namespace roofkit
