// The kernel driver's own write-back and invalidate of a GPU's whole L2, through a resource-
// manager (RM) client of our own on /dev/nvidiactl: the cache control Nsight Compute's
// `--cache-control all` matches (docs/metrics.md, "Cache control").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace roofkit::detail {

/// The ioctl request number of RM escape `nr` with an argument of `size` bytes (read and write,
/// type 'F'), as the NVIDIA kernel driver decodes it.
unsigned long rm_ioctl_request(unsigned nr, std::size_t size);

/// Flag word of FB_FLUSH_GPU_CACHE: video memory, write back, invalidate, the whole cache, then an
/// FB flush.
std::uint32_t rm_flush_all_flags();

/// A GPU's L2 written back and invalidated by the kernel driver (the subdevice control
/// FB_FLUSH_GPU_CACHE, which NVIDIA's open kernel modules mark non-privileged). Linux only.
class driver_l2_flush {
public:
  /// The flush of the GPU whose 16-byte UUID is `uuid` (cudaDeviceProp::uuid), found among the
  /// driver's devices by UUID; nullptr where it is not available, with the reason in `why_not`
  /// (no /dev/nvidiactl, a refused allocation, no device with that UUID, not Linux).
  static std::unique_ptr<driver_l2_flush> open(const std::array<unsigned char, 16>& uuid,
                                               std::string& why_not);
  /// The same for CUDA device `device`, found by its cudaDeviceProp::uuid.
  static std::unique_ptr<driver_l2_flush> open_device(int device, std::string& why_not);
  ~driver_l2_flush();
  driver_l2_flush(const driver_l2_flush&) = delete;
  driver_l2_flush& operator=(const driver_l2_flush&) = delete;

  /// Writes every dirty L2 line back to memory and invalidates the whole L2. Call it with the GPU
  /// idle (after a synchronisation); throws runtime_error with the driver's status on failure.
  void flush() const;

private:
  driver_l2_flush(int fd, std::uint32_t client, std::uint32_t subdevice);
  int fd_ = -1;
  std::uint32_t client_ = 0;
  std::uint32_t subdevice_ = 0;
};

} // namespace roofkit::detail
