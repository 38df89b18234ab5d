#pragma once
// The NVML entry points roofkit uses, declared from NVML's documentation and loaded at run time
// (dlopen of libnvidia-ml.so.1), so that nothing in the build links NVML or needs its header.
#include <dlfcn.h>

#include <string>

#include <fmt/format.h>

namespace roofkit::nvml {

using return_t = int; ///< nvmlReturn_t: 0 NVML_SUCCESS
using device_t = void*;
inline constexpr int clock_sm = 1; ///< NVML_CLOCK_SM

/// nvmlValue_t
union value_t {
  double d;
  unsigned int ui;
  unsigned long ul;
  unsigned long long ull;
  long long sll;
};
/// nvmlFieldValue_t
struct field_value_t {
  unsigned int field_id = 0;
  unsigned int scope_id = 0;
  long long timestamp = 0;
  long long latency_usec = 0;
  int value_type = 0; ///< nvmlValueType_t: 0 double, 1 uint, 2 ulong, 3 ulonglong, 4 slonglong
  return_t status = 0;
  value_t value{};
};
static_assert(sizeof(field_value_t) == 40, "nvmlFieldValue_t's layout");

/// The library and its entry points; each is null when this driver's NVML lacks it.
struct api {
  void* lib = nullptr;
  return_t (*init)() = nullptr;
  return_t (*shutdown)() = nullptr;
  const char* (*error_string)(return_t) = nullptr;
  return_t (*by_pci)(const char*, device_t*) = nullptr;
  return_t (*default_app_clock)(device_t, int, unsigned*) = nullptr;
  return_t (*lock)(device_t, unsigned, unsigned) = nullptr;
  return_t (*reset)(device_t) = nullptr;
  return_t (*field_values)(device_t, int, field_value_t*) = nullptr;
  return_t (*driver_version)(char*, unsigned) = nullptr;

  api() = default;
  api(const api&) = delete;
  api& operator=(const api&) = delete;
  ~api() {
    if (lib)
      dlclose(lib);
  }

  /// Loads the library; false when it, or one of init, shutdown and the PCI lookup, is missing.
  bool open() {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return false;
    load(error_string, "nvmlErrorString");
    load(default_app_clock, "nvmlDeviceGetDefaultApplicationsClock");
    load(lock, "nvmlDeviceSetGpuLockedClocks");
    load(reset, "nvmlDeviceResetGpuLockedClocks");
    load(field_values, "nvmlDeviceGetFieldValues");
    load(driver_version, "nvmlSystemGetDriverVersion");
    return load(init, "nvmlInit_v2") && load(shutdown, "nvmlShutdown") &&
           load(by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
  }
  /// NVML's text for `r`.
  std::string why(return_t r) const {
    return error_string ? error_string(r) : fmt::format("NVML error {}", r);
  }

private:
  template <class F> bool load(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
  }
};

} // namespace roofkit::nvml
