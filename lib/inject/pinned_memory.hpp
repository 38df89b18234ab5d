#pragma once
// The application's page-locked host memory across a replay. A CUPTI checkpoint restore puts it
// back as it was at the save (kernels can write it), so what the host wrote into it while a batch
// was open would be lost: a replay copies it before its first restore and writes the copy back
// after its last pass. Pure bookkeeping over host memory, tested on the CPU.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include <cupti.h>

namespace roofkit::inject {

/// Page-locked host memory of the process (cuMemHostAlloc, cuMemAllocHost, cuMemHostRegister),
/// followed through the driver's callbacks, and one kept copy of it. Thread-safe.
class pinned_memory {
public:
  /// Follows the call `cbid` with parameters `params`, made in context `ctx`: an allocation or
  /// registration at its exit (`succeeded`; read-only and I/O registrations are not followed:
  /// they cannot be written back), a release at its entry (before the memory goes). Other calls
  /// are ignored.
  void on_call(CUpti_CallbackId cbid, const void* params, CUcontext ctx, bool entry,
               bool succeeded);
  /// Forgets the ranges of a context being destroyed (which frees them without a release call).
  void forget_context(CUcontext ctx);
  /// Bytes followed now.
  std::size_t bytes() const;
  /// True when an aligned 8-byte word of `bytes` (a launch's parameters) points into a range.
  bool holds_pointer(const std::vector<std::uint8_t>& bytes) const;
  /// Copies every range now (after the application's work has finished, before a restore).
  /// Returns the bytes copied.
  std::size_t keep();
  /// Writes the kept copy back where it came from, once. Returns the bytes written.
  std::size_t put_back();

private:
  struct range {
    std::size_t bytes = 0;
    CUcontext ctx = nullptr;
  };
  void add(const void* p, std::size_t bytes, CUcontext ctx);
  void remove(const void* p);

  static constexpr std::size_t max_idle_copy = std::size_t{64} << 20;

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, range> ranges_; ///< by start
  std::vector<std::pair<std::uintptr_t, std::size_t>> kept_ranges_;
  std::vector<std::byte> kept_;
};

} // namespace roofkit::inject
