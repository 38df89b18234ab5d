#pragma once
// A kernel launch as seen in a CUPTI driver callback: decoded from the API's parameters, and
// re-issued unchanged for a profiling pass; and the memsets a batch of launches re-issues too.
#include <cuda.h>
#include <cupti.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

/// A launch copied out of its callback: the parameter values, the packed-argument buffer and
/// the launch configuration are owned, so the launch can be re-issued after the application's
/// call returned. Not copyable or movable: args() points into the object.
class captured_launch {
public:
  /// Copies `a`; null when the parameters' sizes cannot be read from the driver
  /// (cuFuncGetParamInfo, cuKernelGetParamInfo) or `extra` holds an unknown entry.
  static std::unique_ptr<captured_launch> copy(const launch_args& a);
  captured_launch(const captured_launch&) = delete;
  captured_launch& operator=(const captured_launch&) = delete;
  /// The launch, with every pointer into this object.
  const launch_args& args() const { return args_; }
  /// Launches it again with the function's settable attributes (maximum dynamic shared memory,
  /// carveout, cluster ones) as they were at the application's launch, and puts back the values
  /// found: libraries such as cuDNN set them before each launch, so a later launch's values may
  /// make this one invalid.
  CUresult relaunch() const;
  /// "grid (x,y,z), block (x,y,z), N B dynamic shared memory", and how it was launched.
  std::string describe() const;
  /// The parameter values as the kernel finds them (each at its offset), or the packed buffer.
  const std::vector<std::uint8_t>& param_bytes() const {
    return packed_.empty() ? param_bytes_ : packed_;
  }

private:
  captured_launch() = default;
  launch_args args_;
  std::vector<std::uint8_t> param_bytes_;
  std::vector<void*> param_ptrs_;
  std::vector<std::uint8_t> packed_;
  std::size_t packed_size_ = 0;
  std::array<void*, 5> extra_{};
  CUlaunchConfig config_{};
  std::vector<CUlaunchAttribute> attrs_;
  std::vector<std::pair<CUfunction_attribute, int>> function_attributes_;
};

/// Decodes a launch callback's parameters (is_kernel_launch(cbid) must hold: batch_calls.hpp).
launch_args decode_launch(CUpti_CallbackId cbid, const void* params);
/// Launches the same function with the same configuration and parameters again.
CUresult relaunch(const launch_args& a);

/// For a one-dimensional memset (cuMemsetD8/D16/D32, synchronous or not, any stream form), the
/// same memset again, to re-issue inside a batch's replays; empty for any other call. The
/// parameters are copied.
std::function<CUresult()> memset_step(CUpti_CallbackId cbid, const void* params);

/// For a device-to-device copy (cuMemcpyDtoD, synchronous or not, any stream form) whose source
/// and destination are both plain device memory of `ctx` (not managed, not another context's),
/// the same copy again, to re-issue inside a batch's replays; empty for any other call or memory.
/// The parameters are copied. Asks the driver about both pointers: call it in the tool's scope.
std::function<CUresult()> device_copy_step(CUpti_CallbackId cbid, const void* params,
                                           CUcontext ctx);

/// For a copy from host memory (not managed) to plain device memory of `ctx` (cuMemcpyHtoD,
/// synchronous or not, any stream form) of at most `max_bytes`, the same copy again, from a copy
/// of the host bytes taken now (the host may rewrite its buffer before the replay), to re-issue
/// inside a batch's replays; empty for any other call, memory, size or a capturing stream. From
/// page-locked memory, which the device may still be filling, the context is synchronised first.
/// Asks the driver about the pointers: call it in the tool's scope.
std::function<CUresult()> host_copy_step(CUpti_CallbackId cbid, const void* params, CUcontext ctx,
                                         std::size_t max_bytes);

} // namespace roofkit::inject
