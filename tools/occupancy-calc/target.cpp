#include "target.hpp"

#include <array>
#include <cctype>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "roofkit/driver_api.hpp"
#include "roofkit/error.hpp"

namespace occupancy_calc {

namespace {

// TEMPORARY built-in GPU list (name, compute capability, SMs) until data/gpus.json and
// roofkit::find_gpu exist. SM counts from NVIDIA's product briefs / whitepapers.
struct gpu_entry {
  std::string_view name;
  int cc_major;
  int cc_minor;
  int sm_count;
};
constexpr std::array<gpu_entry, 17> builtin_gpus{{
    {"H100 SXM", 9, 0, 132},
    {"H100 PCIe", 9, 0, 114},
    {"H200 SXM", 9, 0, 132},
    {"A100 SXM", 8, 0, 108},
    {"A100 PCIe", 8, 0, 108},
    {"RTX 4090", 8, 9, 128},
    {"L4", 8, 9, 58},
    {"L40S", 8, 9, 142},
    {"RTX 3090", 8, 6, 82},
    {"A10", 8, 6, 72},
    {"V100 SXM2", 7, 0, 80},
    {"T4", 7, 5, 40},
    {"B200", 10, 0, 148},
    {"RTX 5090", 12, 0, 170},
    {"Jetson AGX Orin", 8, 7, 16},
    {"P100 SXM2", 6, 0, 56},
    {"GTX 1080", 6, 1, 20},
}};

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto &c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const roofkit::arch_spec &arch_of(int major, int minor, const std::string &what) {
  if (const auto *a = roofkit::find_arch(major, minor))
    return *a;
  throw roofkit::usage_error(fmt::format("{} has compute capability '{}.{}', which has no table "
                                         "(valid: {})",
                                         what, major, minor, roofkit::valid_arch_names()));
}

} // namespace

roofkit::occupancy_target target_from_arch(std::string_view arch) {
  roofkit::occupancy_target t;
  t.arch = &roofkit::find_arch(arch);
  t.origin = "--arch " + std::string(arch);
  return t;
}

roofkit::occupancy_target target_from_gpu(std::string_view name) {
  const std::string wanted = lower(name);
  std::vector<const gpu_entry *> matches;
  for (const auto &g : builtin_gpus) {
    const std::string candidate = lower(g.name);
    if (candidate == wanted) {
      matches = {&g};
      break;
    }
    if (!wanted.empty() && candidate.rfind(wanted, 0) == 0)
      matches.push_back(&g);
  }
  if (matches.size() != 1) {
    std::string names;
    for (const auto *g : matches.empty() ? std::vector<const gpu_entry *>{} : matches)
      names += (names.empty() ? "" : ", ") + std::string(g->name);
    if (matches.empty())
      for (const auto &g : builtin_gpus)
        names += (names.empty() ? "" : ", ") + std::string(g.name);
    throw roofkit::usage_error(fmt::format("{} GPU name '{}' (valid: {})",
                                           matches.empty() ? "unknown" : "ambiguous", name, names));
  }
  const gpu_entry &g = *matches.front();
  roofkit::occupancy_target t;
  t.arch = &arch_of(g.cc_major, g.cc_minor, std::string(g.name));
  t.gpu_name = std::string(g.name);
  t.sm_count = g.sm_count;
  t.origin = "--gpu (built-in table)";
  return t;
}

roofkit::occupancy_target target_from_device(int ordinal) {
  const int count = roofkit::visible_device_count();
  if (count == 0)
    throw roofkit::no_device_error(
        fmt::format("--device {}: no CUDA device is visible", ordinal),
        "use --arch sm_XY or --gpu NAME for offline work; check nvidia-smi and "
        "CUDA_VISIBLE_DEVICES");
  if (ordinal < 0 || ordinal >= count)
    throw roofkit::usage_error(
        fmt::format("device '{}' out of range (valid: 0..{})", ordinal, count - 1));
  cudaDeviceProp prop{};
  ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  roofkit::occupancy_target t;
  t.arch = &arch_of(prop.major, prop.minor, fmt::format("device {} ({})", ordinal, prop.name));
  t.gpu_name = prop.name;
  t.sm_count = prop.multiProcessorCount;
  t.origin = fmt::format("--device {} (live)", ordinal);
  return t;
}

} // namespace occupancy_calc
