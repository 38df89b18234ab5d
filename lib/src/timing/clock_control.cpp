// Clock control "base": the SM clock locked to the device's default application clock through
// NVML, loaded at run time (nothing links libnvidia-ml), and unlocked again on destruction.
#include <fmt/format.h>

#include "internal/nvml_api.hpp"
#include "roofkit/core.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

struct clock_lock::state {
  nvml::api api;
  nvml::device_t dev = nullptr;
  bool initialised = false;
};

clock_lock::clock_lock(int device) : state_(std::make_unique<state>()) {
  auto& s = *state_;
  if (!s.api.open() || !s.api.default_app_clock || !s.api.lock || !s.api.reset) {
    message_ = "clock control 'base' needs NVML (libnvidia-ml.so.1), which was not found";
    return;
  }
  if (nvml::return_t r = s.api.init(); r != 0) {
    message_ = "clock control 'base': NVML did not start: " + s.api.why(r);
    return;
  }
  s.initialised = true;
  char bus[32] = {};
  ROOFKIT_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  if (nvml::return_t r = s.api.by_pci(bus, &s.dev); r != 0) {
    message_ = fmt::format("clock control 'base': NVML does not know device {} ({}): {}", device,
                           bus, s.api.why(r));
    return;
  }
  unsigned mhz = 0;
  if (nvml::return_t r = s.api.default_app_clock(s.dev, nvml::clock_sm, &mhz); r != 0 || mhz == 0) {
    message_ = "clock control 'base': the base clock is unknown: " + s.api.why(r);
    return;
  }
  if (nvml::return_t r = s.api.lock(s.dev, mhz, mhz); r != 0) {
    message_ = fmt::format("clock control 'base': locking the SM clock at {} MHz was refused "
                           "({}); locking clocks needs root or the admin's permission",
                           mhz, s.api.why(r));
    return;
  }
  locked_ = true;
  mhz_ = mhz;
  message_ = fmt::format("SM clock locked at the base clock, {} MHz", mhz);
}

clock_control_state apply_clock_control(clock_control mode, const std::vector<int>& devices) {
  clock_control_state out;
  if (mode == clock_control::none) {
    out.note = "clocks not locked: each kernel's roofs are taken at its own SM clock";
    return out;
  }
  for (const int device : devices) {
    auto lock = std::make_unique<clock_lock>(device);
    const std::string said = devices.size() > 1
                                 ? fmt::format("device {}: {}", device, lock->message())
                                 : lock->message();
    if (!lock->locked())
      throw no_device_error(said, "use clock control 'none' (each kernel's roofs at the clock it "
                                  "ran at) where clocks cannot be locked");
    out.note += (out.note.empty() ? "" : "; ") + said;
    out.locks.push_back(std::move(lock));
  }
  return out;
}

clock_lock::~clock_lock() {
  auto& s = *state_;
  if (locked_)
    s.api.reset(s.dev);
  if (s.initialised)
    s.api.shutdown();
}

} // namespace roofkit
