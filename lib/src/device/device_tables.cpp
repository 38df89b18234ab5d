// Printer tables of a device model, its ceilings, and the known GPUs.
#include <fmt/format.h>

#include "roofkit/device.hpp"

namespace roofkit {

namespace {

std::string human_bytes(std::int64_t b) {
  if (b <= 0)
    return "";
  if (b >= (std::int64_t{1} << 30))
    return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1 << 30));
  if (b >= (1 << 20))
    return fmt::format("{:g} MiB", static_cast<double>(b) / (1 << 20));
  if (b >= 1024)
    return fmt::format("{:g} KiB", static_cast<double>(b) / 1024);
  return fmt::format("{} B", b);
}

struct row_builder {
  table& t;
  void add(std::string key, std::string label, cell value, std::string unit = {},
           std::string note = {}) {
    t.rows.push_back(
        {std::move(key), std::move(label), std::move(value), std::move(unit), std::move(note)});
  }
  void bytes(std::string key, std::string label, std::int64_t v) {
    add(std::move(key), std::move(label), v, "bytes", human_bytes(v));
  }
};

bool is_int8(const ceiling& c) { return !c.is_memory && c.prec == precision::tensor_int8; }

} // namespace

table device_table(const device_model& m) {
  table t;
  t.id = "device";
  t.title = fmt::format("Device: {}", m.name);
  t.columns = {{"key", "Key"},
               {"property", "Property"},
               {"value", "Value", "", 0},
               {"unit", "Unit"},
               {"note", "Note"}};
  row_builder r{t};
  r.add("name", "Name", m.name);
  r.add("origin", "Model from", to_string(m.origin), "",
        m.origin == model_origin::live ? "CUDA runtime and driver attributes"
                                       : "data/gpus.json and the per-CC tables");
  r.add("spec", "Matching spec", m.spec_name, "",
        m.spec_name.empty() ? "not in data/gpus.json" : "data/gpus.json");
  if (m.origin == model_origin::live)
    r.add("ordinal", "Device ordinal", std::int64_t{m.ordinal});
  r.add("cc", "Compute capability", fmt::format("{}.{}", m.cc_major, m.cc_minor));
  r.add("sm_count", "SMs", std::int64_t{m.sm_count});
  r.add("sm_clock_mhz", "SM clock (max boost)", m.sm_clock_mhz, "MHz");
  r.add("tensor_clock_mhz", "Tensor roof clock", m.tensor_clock_mhz, "MHz",
        m.tensor_clock_mhz != m.sm_clock_mhz ? "datasheet tensor clock" : "");
  r.add("memory_type", "Memory type", m.memory_type);
  r.add("memory_clock_mhz", "Memory clock", m.memory_clock_mhz, "MHz",
        "CUDA convention: half the per-pin data rate");
  r.add("bus_width_bits", "Memory bus width", std::int64_t{m.bus_width_bits}, "bits");
  r.add("dram_bandwidth_gbs", "DRAM bandwidth (theoretical)", dram_bandwidth(m) / 1e9, "GB/s",
        "2 x memory clock x bus width / 8");
  // Device memory in the vendor's decimal GB, with GiB beside it (an "80 GB" card holds
  // 74.5 GiB): both units named, never one mistaken for the other.
  r.add("global_memory_bytes", "Device memory", m.global_memory_bytes, "bytes",
        m.global_memory_bytes > 0
            ? fmt::format("{:.1f} GB ({:.1f} GiB)", m.global_memory_bytes / 1e9,
                          static_cast<double>(m.global_memory_bytes) / (1 << 30))
            : "");
  r.bytes("l2_bytes", "L2 cache", m.l2_bytes);
  r.bytes("l1_shared_bytes_per_sm", "L1 + shared per SM", m.l1_shared_bytes_per_sm);
  r.bytes("shared_memory_per_sm_bytes", "Shared memory per SM", m.shared_memory_per_sm_bytes);
  r.bytes("shared_memory_per_block_bytes", "Shared memory per block",
          m.shared_memory_per_block_bytes);
  r.bytes("shared_memory_per_block_optin_bytes", "Shared memory per block (opt-in)",
          m.shared_memory_per_block_optin_bytes);
  r.bytes("reserved_shared_memory_per_block_bytes", "Shared memory reserved per block",
          m.reserved_shared_memory_per_block_bytes);
  r.add("registers_per_sm", "Registers per SM", std::int64_t{m.registers_per_sm});
  r.add("registers_per_block", "Registers per block", std::int64_t{m.registers_per_block});
  r.add("max_threads_per_sm", "Max threads per SM", std::int64_t{m.max_threads_per_sm});
  r.add("max_threads_per_block", "Max threads per block", std::int64_t{m.max_threads_per_block});
  r.add("max_blocks_per_sm", "Max blocks per SM", std::int64_t{m.max_blocks_per_sm});
  r.add("warp_size", "Warp size", std::int64_t{m.warp_size});
  r.add("consumer_tensor_rates", "GeForce tensor rates", m.consumer_tensor_rates, "",
        m.consumer_tensor_rates ? "TF32/FP16/FP8 tensor at half rate" : "");
  if (m.origin == model_origin::live) {
    r.add("driver_version", "Driver (CUDA version)", m.driver_version);
    r.add("runtime_version", "Runtime version", m.runtime_version);
  }
  return t;
}

table ceilings_table(const std::vector<ceiling>& ceilings, const gpu_spec* spec) {
  table t;
  t.id = "ceilings";
  t.title = "Theoretical ceilings";
  t.columns = {{"key", "Key"},
               {"roof", "Roof"},
               {"value", "Value", "", 2},
               {"unit", "Unit"},
               {"datasheet", "Datasheet", "", 2},
               {"vs_datasheet_pct", "Derived/datasheet", "%", 1},
               {"sm_clock_mhz", "SM clock", "MHz", 0},
               {"mem_clock_mhz", "Mem clock", "MHz", 0},
               {"method", "Method"}};
  for (const auto& c : ceilings) {
    const double scale = c.is_memory ? 1e9 : 1e12;
    const std::string unit = c.is_memory ? "GB/s" : (is_int8(c) ? "TOP/s" : "TFLOP/s");
    cell datasheet;
    cell ratio;
    if (spec) {
      double ds = 0;
      if (c.is_memory && c.level == memory_level::dram)
        ds = spec->datasheet_dram_bandwidth;
      else if (!c.is_memory) {
        if (auto it = spec->datasheet_flops.find(c.prec); it != spec->datasheet_flops.end())
          ds = it->second;
      }
      if (ds > 0) {
        datasheet = ds / scale;
        ratio = 100.0 * c.value / ds;
      }
    }
    t.rows.push_back({c.is_memory ? to_string(c.level) : to_string(c.prec),
                      c.is_memory ? label(c.level) : label(c.prec), c.value / scale, unit,
                      datasheet, ratio, c.sm_clock_mhz > 0 ? cell{c.sm_clock_mhz} : cell{},
                      c.mem_clock_mhz > 0 ? cell{c.mem_clock_mhz} : cell{}, c.method});
  }
  t.notes.push_back("Dense peaks at the clocks shown. 'estimate:' marks roofs without a "
                    "published per-clock figure; measured ceilings replace them.");
  if (spec && !spec->unconfirmed.empty()) {
    std::string list;
    for (const auto& f : spec->unconfirmed)
      list += (list.empty() ? "" : ", ") + f;
    t.notes.push_back(fmt::format("UNCONFIRMED datasheet values of the {} (a secondary source, a "
                                  "product name only, or an inference; data/gpus.json): {}",
                                  spec->name, list));
  }
  return t;
}

table gpu_list_table(const std::vector<gpu_spec>& specs) {
  table t;
  t.id = "gpus";
  t.title = "Known GPUs (data/gpus.json)";
  t.columns = {{"name", "Name"},
               {"cc", "CC"},
               {"sm_count", "SMs"},
               {"boost_clock_mhz", "Boost", "MHz", 0},
               {"memory", "Memory"},
               {"dram_gbs", "DRAM", "GB/s", 0},
               {"fp32_tflops", "FP32", "TFLOP/s", 1},
               {"tensor_fp16_tflops", "Tensor FP16", "TFLOP/s", 1},
               {"unconfirmed", "Unconfirmed"},
               {"aliases", "Aliases"}};
  for (const auto& s : specs) {
    std::string aliases;
    for (const auto& a : s.aliases)
      aliases += (aliases.empty() ? "" : "; ") + a;
    std::string unconfirmed;
    for (const auto& f : s.unconfirmed)
      unconfirmed += (unconfirmed.empty() ? "" : ", ") + f;
    auto peak = [&](precision p) -> cell {
      if (auto it = s.datasheet_flops.find(p); it != s.datasheet_flops.end())
        return it->second / 1e12;
      return {};
    };
    t.rows.push_back({s.name, fmt::format("{}.{}", s.cc_major, s.cc_minor),
                      std::int64_t{s.sm_count}, s.boost_clock_mhz,
                      fmt::format("{:g} GB {}", s.memory_gb, s.memory_type),
                      s.datasheet_dram_bandwidth / 1e9, peak(precision::fp32),
                      peak(precision::tensor_fp16), unconfirmed, aliases});
  }
  return t;
}

} // namespace roofkit
