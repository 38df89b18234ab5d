#include "target.hpp"

#include <string>

#include <fmt/format.h>

#include "cli_errors.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"

namespace occupancy_calc {

namespace {

const roofkit::arch_spec& arch_of(int major, int minor, const std::string& what) {
  if (const auto* a = roofkit::find_arch(major, minor))
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
  t.sm_count_hint = "give --gpu or --device (or --sms N) for the SM count";
  return t;
}

roofkit::occupancy_target target_from_gpu(std::string_view name) {
  const roofkit::gpu_spec g = roofkit::find_gpu(name);
  roofkit::occupancy_target t;
  t.arch = &arch_of(g.cc_major, g.cc_minor, g.name);
  t.gpu_name = g.name;
  t.sm_count = g.sm_count;
  t.origin = "--gpu (data/gpus.json)";
  return t;
}

roofkit::occupancy_target target_from_device(int ordinal) {
  const roofkit::device_model m =
      roofkit::cli::hint_if_none(roofkit::exit_code::no_device, roofkit::cli::no_gpu_model_hint,
                                 [&] { return roofkit::query_device(ordinal); });
  roofkit::occupancy_target t;
  t.arch = &arch_of(m.cc_major, m.cc_minor, fmt::format("device {} ({})", ordinal, m.name));
  t.gpu_name = m.name;
  t.sm_count = m.sm_count;
  t.origin = fmt::format("--device {} (live)", ordinal);
  return t;
}

} // namespace occupancy_calc
