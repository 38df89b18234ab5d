// Measured roofs by default: the quick ceilings of a GPU, measured once and cached per GPU
// (UUID, driver, clocks) in the user's cache directory; or theoretical roofs, or a machine file
// checked against the GPU it is applied to.
#include <cstdlib>
#include <filesystem>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "internal/nvml_api.hpp"
#include "roofkit/ceilings.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"

namespace roofkit {

namespace {

// The driver's own version string through NVML, loaded at run time; "" without NVML.
std::string nvml_driver_version() {
  nvml::api nv;
  if (!nv.open() || !nv.driver_version || nv.init() != 0)
    return "";
  char text[96] = {};
  std::string out = nv.driver_version(text, sizeof text) == 0 ? text : "";
  nv.shutdown();
  return out;
}

std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s)
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ? c : '_';
  return out;
}

std::string gpu_words(const gpu_identity& g) {
  return g.uuid.empty() ? g.name : fmt::format("{}, {}", g.name, g.uuid);
}

struct choice_context {
  const roofs_request& request;
  void warn(const std::string& s) const {
    if (request.warn)
      request.warn(s);
  }
  void info(const std::string& s) const {
    if (request.info)
      request.info(s);
  }
};

chosen_roofs from_file(const choice_context& cx, const std::function<gpu_identity(int)>& identify) {
  const roofs_request& rq = cx.request;
  chosen_roofs out;
  out.origin = "file";
  out.path = rq.ceilings;
  std::string accepted;
  machine_ceilings m;
  std::optional<gpu_identity> here;
  try {
    here = identify(rq.device);
  } catch (const error& e) { // nothing to check it against (a run rebuilt offline)
    if (e.code() != exit_code::no_device)
      throw;
  }
  if (here) {
    m = load_machine_file_for(rq.ceilings, *here, rq.any_gpu, &accepted);
  } else {
    m = parse_machine_ceilings(read_text_file(rq.ceilings), rq.ceilings);
    accepted = fmt::format("roofs of machine file '{}' not checked against a GPU (none visible)",
                           rq.ceilings);
  }
  if (!accepted.empty())
    cx.warn(accepted);
  out.measured = m.ceilings;
  out.date = m.date;
  const std::string on = m.gpu.name.empty() ? m.device_name : gpu_words(m.gpu);
  out.note =
      fmt::format("measured roofs from machine file '{}', measured {}{}", rq.ceilings,
                  m.date.empty() ? "at an unrecorded date" : m.date, on.empty() ? "" : " on " + on);
  if (!accepted.empty())
    out.note += "; " + accepted;
  return out;
}

// The cache file's roofs when it holds this GPU's key; nothing (and why, for a corrupt file, as
// a warning) otherwise.
std::optional<machine_ceilings>
read_cache(const choice_context& cx, const std::filesystem::path& path, const gpu_identity& here) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec))
    return std::nullopt;
  try {
    machine_ceilings m = parse_machine_ceilings(read_text_file(path), path.string());
    if (m.ceilings.empty())
      throw usage_error("it holds no roofs");
    if (ceilings_cache_key(m.gpu) == ceilings_cache_key(here))
      return m;
    cx.info(fmt::format("the cached roofs ({}) are for {}, this GPU is {}: measuring again",
                        path.string(), ceilings_cache_key(m.gpu), ceilings_cache_key(here)));
  } catch (const std::exception& e) {
    cx.warn(fmt::format("cached roofs '{}' are unreadable ({}); measuring them again",
                        path.string(), e.what()));
  }
  return std::nullopt;
}

chosen_roofs measure_and_cache(const choice_context& cx, const std::filesystem::path& path,
                               const gpu_identity& here, const std::vector<ceiling>& theoretical) {
  const roofs_request& rq = cx.request;
  cx.info(fmt::format("measuring this GPU's roofs once (quick ceilings, under 30 s){}",
                      path.empty() ? "" : "; they are cached in " + path.string()));
  ceilings_options co;
  co.device = rq.device;
  co.quick = true;
  co.progress = rq.progress;
  ceilings_result result =
      rq.measure ? rq.measure(co, theoretical) : measure_ceilings(co, theoretical);
  chosen_roofs out;
  out.origin = "measured";
  out.measured = result.ceilings;
  out.date = utc_timestamp();
  const auto failures = failed_checks(result);
  machine_ceilings m = make_machine_ceilings(result, here.name, result.cc_major, result.cc_minor,
                                             result.sm_count, rq.command);
  m.gpu = here;
  m.date = out.date;
  bool cached = false;
  if (!failures.empty()) {
    cx.warn(fmt::format("{} ceiling measurement(s) failed their checks (first: {}); the {} roofs "
                        "that passed are used and not cached",
                        failures.size(), failures.front(), result.ceilings.size()));
  } else if (!path.empty()) {
    try {
      std::filesystem::create_directories(path.parent_path());
      save_machine_ceilings(path, m);
      cached = true;
    } catch (const std::exception& e) {
      cx.warn(fmt::format("the measured roofs could not be cached ({})", e.what()));
    }
  }
  out.path = cached ? path.string() : "";
  out.note = fmt::format(
      "measured roofs of this GPU ({}), quick ceilings measured {} in {:.1f} s{}", gpu_words(here),
      out.date, result.elapsed_s, cached ? "; cached in " + path.string() : "; not cached");
  out.result = std::move(result);
  return out;
}

} // namespace

gpu_identity query_gpu_identity(int device) {
  if (visible_device_count() == 0)
    throw no_device_error("no CUDA GPU visible: a GPU's identity is read from the GPU");
  require_device(device);
  cudaDeviceProp prop{};
  ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  gpu_identity g;
  g.name = prop.name;
  g.uuid = format_gpu_uuid(prop.uuid.bytes);
  int khz = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  g.sm_clock_mhz = khz / 1000.0;
  ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
  g.mem_clock_mhz = khz / 1000.0;
  g.driver = nvml_driver_version();
  if (g.driver.empty()) {
    int v = 0;
    ROOFKIT_CUDA_CHECK(cudaDriverGetVersion(&v));
    g.driver = fmt::format("{}.{}", v / 1000, (v % 1000) / 10);
  }
  return g;
}

std::string ceilings_cache_key(const gpu_identity& g) {
  return fmt::format("{}, driver {}, SM {:.0f} MHz, memory {:.0f} MHz",
                     g.uuid.empty() ? g.name : g.uuid, g.driver.empty() ? "?" : g.driver,
                     g.sm_clock_mhz, g.mem_clock_mhz);
}

std::filesystem::path ceilings_cache_path(const std::filesystem::path& dir,
                                          const gpu_identity& gpu) {
  const std::string id = gpu.uuid.empty() ? normalize_gpu_name(gpu.name) : gpu.uuid;
  return dir / ("ceilings-" + file_safe(id.empty() ? "gpu" : id) + ".json");
}

chosen_roofs choose_roofs(const roofs_request& request, const std::vector<ceiling>& theoretical) {
  const choice_context cx{request};
  const std::function<gpu_identity(int)> identify =
      request.identify ? request.identify : query_gpu_identity;
  if (request.ceilings == "theoretical") {
    chosen_roofs out;
    out.origin = "theoretical";
    out.note = "theoretical roofs only (asked for); no measured roofs";
    return out;
  }
  if (!request.ceilings.empty())
    return from_file(cx, identify);
  const gpu_identity here = identify(request.device);
  const auto dir = request.cache_dir.empty() ? default_cache_dir() : request.cache_dir;
  const auto path = dir.empty() ? std::filesystem::path() : ceilings_cache_path(dir, here);
  if (path.empty())
    cx.warn("no cache directory (neither XDG_CACHE_HOME nor HOME is set): the roofs are "
            "measured for this run only");
  if (auto m = read_cache(cx, path, here)) {
    chosen_roofs out;
    out.origin = "cache";
    out.measured = m->ceilings;
    out.date = m->date;
    out.path = path.string();
    out.note = fmt::format("measured roofs of this GPU ({}), quick ceilings measured {}; from the "
                           "cache {}",
                           gpu_words(here), m->date, path.string());
    return out;
  }
  return measure_and_cache(cx, path, here, theoretical);
}

} // namespace roofkit
