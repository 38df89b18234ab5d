#pragma once
// What the driver knows of a launched function, as Nsight Compute reports it per launch.
#include "launch_args.hpp"
#include "roofkit/run.hpp"

namespace roofkit::inject {

/// The function `a` launches, in the current context: the runtime may pass a CUkernel where a
/// CUfunction is expected. Null when the driver knows neither.
CUfunction function_in_context(CUfunction f);

/// Fills `out` from the driver, for a function already loaded (with lazy loading, attributes
/// read before the load are zero): registers per thread, static shared memory, local memory per
/// thread, and the cluster shape (the launch's cluster attribute, else the function's required
/// cluster, else 1 x 1 x 1). Grid, block and dynamic shared memory come from the launch.
void read_launch_facts(const launch_args& a, launch_config& out);

} // namespace roofkit::inject
