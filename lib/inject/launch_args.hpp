#pragma once
// A kernel launch as seen in a CUPTI driver callback: decoded from the API's parameters, and
// re-issued unchanged for a profiling pass.
#include <cuda.h>
#include <cupti.h>

#include <array>

namespace roofkit::inject {

/// What a launch callback tells about the launch.
struct launch_args {
  CUfunction function = nullptr;
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  unsigned dynamic_smem = 0;
  CUstream stream = nullptr;
  void** params = nullptr;
  void** extra = nullptr;
  const CUlaunchConfig* config = nullptr; ///< cuLaunchKernelEx
  bool cooperative = false;
};

/// True for the driver callbacks that launch one kernel.
bool is_kernel_launch(CUpti_CallbackId cbid);
/// Decodes a launch callback's parameters (is_kernel_launch(cbid) must hold).
launch_args decode_launch(CUpti_CallbackId cbid, const void* params);
/// Launches the same function with the same configuration and parameters again.
CUresult relaunch(const launch_args& a);

} // namespace roofkit::inject
