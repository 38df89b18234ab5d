#pragma once
// Registers per thread as the hardware runs a function: CUPTI's kernel activity records. They can
// exceed CU_FUNC_ATTRIBUTE_NUM_REGS, the count the compiler wrote into the module (14 against 16
// for a libtorch fill kernel on the H200: validation/lab/regs.sh); Nsight Compute's
// launch__registers_per_thread gives the activity value.
#include <cstdint>
#include <map>
#include <string>

namespace roofkit::inject {

/// Receives each kernel activity record: the launch's correlation id (the driver call's), the
/// function's mangled name and the kernel's GPU start and end in nanoseconds. Called on CUPTI's
/// thread or the flushing one.
using kernel_span_sink = void (*)(void* user, std::uint32_t correlation, const char* name,
                                  std::uint64_t start_ns, std::uint64_t end_ns);

/// Starts kernel activity tracing (concurrent kernels, no serialisation), its records flushed
/// every `flush_ms` milliseconds and each passed to `sink` (with `user`) when one is given. False,
/// with `why`, when CUPTI refuses: launches then keep the function attribute's count.
bool start_launch_registers(std::string& why, kernel_span_sink sink = nullptr, void* user = nullptr,
                            std::uint32_t flush_ms = 200);

/// Flushes every activity buffer now, complete or not (the sink sees what they hold).
void flush_kernel_activity();

/// Kernel activity off while it lives, when `active`: the range profiler's SASS instruction
/// counters read 0 for launches made while kernel activity is traced.
class activity_pause {
public:
  explicit activity_pause(bool active);
  ~activity_pause();
  activity_pause(const activity_pause&) = delete;
  activity_pause& operator=(const activity_pause&) = delete;

private:
  bool active_;
};

/// Flushes the activity buffers and returns the registers per thread seen for each function
/// (mangled name). Call once, at exit.
std::map<std::string, unsigned> finish_launch_registers();

} // namespace roofkit::inject
