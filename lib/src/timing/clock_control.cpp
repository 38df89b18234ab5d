// Clock control "base": the SM clock locked to the device's default application clock through
// NVML, loaded at run time (nothing links libnvidia-ml), and unlocked again on destruction.
#include <dlfcn.h>

#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

// The few NVML entry points used here, declared by their documented C signatures.
using nvml_return = int;
using nvml_device = void*;
constexpr int nvml_clock_sm = 1;

struct nvml_api {
  void* lib = nullptr;
  nvml_return (*init)() = nullptr;
  nvml_return (*shutdown)() = nullptr;
  const char* (*error_string)(nvml_return) = nullptr;
  nvml_return (*by_pci)(const char*, nvml_device*) = nullptr;
  nvml_return (*default_app_clock)(nvml_device, int, unsigned*) = nullptr;
  nvml_return (*lock)(nvml_device, unsigned, unsigned) = nullptr;
  nvml_return (*reset)(nvml_device) = nullptr;

  template <class F> bool load(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
  }
  bool open() {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    return lib && load(init, "nvmlInit_v2") && load(shutdown, "nvmlShutdown") &&
           load(error_string, "nvmlErrorString") &&
           load(by_pci, "nvmlDeviceGetHandleByPciBusId_v2") &&
           load(default_app_clock, "nvmlDeviceGetDefaultApplicationsClock") &&
           load(lock, "nvmlDeviceSetGpuLockedClocks") &&
           load(reset, "nvmlDeviceResetGpuLockedClocks");
  }
  std::string why(nvml_return r) const {
    return error_string ? error_string(r) : fmt::format("NVML error {}", r);
  }
};

} // namespace

struct clock_lock::state {
  nvml_api api;
  nvml_device dev = nullptr;
  bool initialised = false;
};

clock_lock::clock_lock(int device) : state_(std::make_unique<state>()) {
  auto& s = *state_;
  if (!s.api.open()) {
    message_ = "clock control 'base' needs NVML (libnvidia-ml.so.1), which was not found";
    return;
  }
  if (nvml_return r = s.api.init(); r != 0) {
    message_ = "clock control 'base': NVML did not start: " + s.api.why(r);
    return;
  }
  s.initialised = true;
  char bus[32] = {};
  ROOFKIT_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  if (nvml_return r = s.api.by_pci(bus, &s.dev); r != 0) {
    message_ = fmt::format("clock control 'base': NVML does not know device {} ({}): {}", device,
                           bus, s.api.why(r));
    return;
  }
  unsigned mhz = 0;
  if (nvml_return r = s.api.default_app_clock(s.dev, nvml_clock_sm, &mhz); r != 0 || mhz == 0) {
    message_ = "clock control 'base': the base clock is unknown: " + s.api.why(r);
    return;
  }
  if (nvml_return r = s.api.lock(s.dev, mhz, mhz); r != 0) {
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
  if (s.api.lib)
    dlclose(s.api.lib);
}

} // namespace roofkit
