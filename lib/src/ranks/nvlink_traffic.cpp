// A GPU's NVLink traffic from NVML's cumulative counters (ranks.hpp: nvlink_meter).
#include <chrono>
#include <limits>

#include <fmt/format.h>

#include "internal/nvml_api.hpp"
#include "roofkit/ranks.hpp"

namespace roofkit {

namespace {

// NVML's field ids (nvml.h): the data throughput since the driver loaded, in KiB, summed over
// the links for the scope UINT_MAX; else the byte counts of the drivers for NVLink 5.
struct nvlink_fields {
  unsigned tx = 0;
  unsigned rx = 0;
  double bytes_per_unit = 1;
  const char* name = "";
};
constexpr nvlink_fields nvlink_field_pairs[] = {
    {138, 139, 1024.0, "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX"},
    {202, 204, 1.0, "NVML_FI_DEV_NVLINK_COUNT_XMIT_BYTES/RCV_BYTES"}};

double field_number(const nvml::field_value_t& v) {
  switch (v.value_type) {
  case 0:
    return v.value.d;
  case 1:
    return static_cast<double>(v.value.ui);
  case 2:
    return static_cast<double>(v.value.ul);
  case 3:
    return static_cast<double>(v.value.ull);
  default:
    return static_cast<double>(v.value.sll);
  }
}

} // namespace

struct nvlink_meter::state {
  nvml::api api;
  nvml::device_t dev = nullptr;
  bool initialised = false;
  const nvlink_fields* fields = nullptr;
  std::string why;
  double tx0 = 0;
  double rx0 = 0;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  // Both counters of `f` in bytes; "" when read, else why not.
  std::string read(const nvlink_fields& f, double& tx, double& rx) const {
    nvml::field_value_t v[2];
    v[0].field_id = f.tx;
    v[1].field_id = f.rx;
    v[0].scope_id = v[1].scope_id = std::numeric_limits<unsigned>::max(); // all links
    if (const nvml::return_t r = api.field_values(dev, 2, v); r != 0)
      return fmt::format("{}: {}", f.name, api.why(r));
    for (const auto& one : v)
      if (one.status != 0)
        return fmt::format("{}: {}", f.name, api.why(one.status));
    tx = field_number(v[0]) * f.bytes_per_unit;
    rx = field_number(v[1]) * f.bytes_per_unit;
    return "";
  }

  // The first pair of fields this driver and GPU can read, with its first reading.
  void choose_fields() {
    for (const auto& f : nvlink_field_pairs) {
      const std::string failed = read(f, tx0, rx0);
      if (failed.empty()) {
        fields = &f;
        why.clear();
        return;
      }
      why += (why.empty() ? "" : "; ") + failed;
    }
  }
};

nvlink_meter::nvlink_meter(const std::string& pci_bus_id) : state_(std::make_unique<state>()) {
  auto& s = *state_;
  if (!s.api.open() || !s.api.field_values) {
    s.why = "NVML (libnvidia-ml.so.1) with nvmlDeviceGetFieldValues was not found";
    return;
  }
  if (const nvml::return_t r = s.api.init(); r != 0) {
    s.why = "NVML did not start: " + s.api.why(r);
    return;
  }
  s.initialised = true;
  if (const nvml::return_t r = s.api.by_pci(pci_bus_id.c_str(), &s.dev); r != 0) {
    s.why = fmt::format("NVML does not know the GPU at {}: {}", pci_bus_id, s.api.why(r));
    return;
  }
  s.choose_fields();
}

nvlink_meter::~nvlink_meter() {
  if (state_->initialised)
    state_->api.shutdown();
}

nvlink_traffic nvlink_meter::since_start() const {
  const auto& s = *state_;
  nvlink_traffic out;
  if (!s.fields) {
    out.why = s.why;
    return out;
  }
  double tx = 0;
  double rx = 0;
  if (std::string failed = s.read(*s.fields, tx, rx); !failed.empty()) {
    out.why = std::move(failed);
    return out;
  }
  out.counter = s.fields->name;
  out.tx_bytes = tx - s.tx0;
  out.rx_bytes = rx - s.rx0;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.t0).count();
  return out;
}

} // namespace roofkit
