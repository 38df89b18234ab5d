// Device model from a spec, and the theoretical ceilings derived from first principles.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

#include "cc_limits.hpp"
#include "roofkit/device.hpp"

namespace roofkit {

namespace {

bool is_tensor(precision p) {
  return p == precision::tensor_fp64 || p == precision::tensor_tf32 ||
         p == precision::tensor_fp16 || p == precision::tensor_fp8 || p == precision::tensor_int8;
}

// Datasheets quote FP64 tensor peaks at the boost clock and the lower-precision tensor peaks
// at a lower "tensor" clock (H100: 1830 vs 1980 MHz).
double clock_for(const device_model& m, precision p) {
  if (is_tensor(p) && p != precision::tensor_fp64 && m.tensor_clock_mhz > 0)
    return m.tensor_clock_mhz;
  return m.sm_clock_mhz;
}

std::string fmt_rate(double v) {
  const auto whole = static_cast<long long>(v);
  return v == static_cast<double>(whole) ? fmt::format("{}", whole) : fmt::format("{:.1f}", v);
}

} // namespace

std::string to_string(model_origin o) { return o == model_origin::live ? "live" : "spec"; }

double transfers_per_clock(std::string_view memory_type) {
  // CUDA reports every DRAM type's clock as half its per-pin data rate: HBM2/2e/3/3e (DDR),
  // GDDR6 (QDR data on a half-rate clock), GDDR6X (PAM4) and GDDR7 (PAM3) alike.
  (void)memory_type;
  return 2.0;
}

double dram_bandwidth(const device_model& m) {
  return transfers_per_clock(m.memory_type) * m.memory_clock_mhz * 1e6 * m.bus_width_bits / 8.0;
}

device_model model_from_spec(const gpu_spec& spec) {
  device_model m;
  m.name = spec.name;
  m.spec_name = spec.name;
  m.unconfirmed = spec.unconfirmed;
  m.origin = model_origin::spec;
  m.cc_major = spec.cc_major;
  m.cc_minor = spec.cc_minor;
  m.sm_count = spec.sm_count;
  m.sm_clock_mhz = spec.boost_clock_mhz;
  m.tensor_clock_mhz = spec.tensor_clock_mhz > 0 ? spec.tensor_clock_mhz : spec.boost_clock_mhz;
  m.memory_clock_mhz = spec.memory_clock_mhz;
  m.bus_width_bits = spec.bus_width_bits;
  m.memory_type = spec.memory_type;
  m.global_memory_bytes = static_cast<std::int64_t>(spec.memory_gb * 1e9);
  m.l2_bytes = spec.l2_bytes;
  m.consumer_tensor_rates = spec.segment == "geforce";
  m.shared_memory_per_block_bytes = 48 * 1024;
  if (auto lim = detail::limits_for_cc(spec.cc_major, spec.cc_minor)) {
    m.l1_shared_bytes_per_sm = lim->l1_shared_per_sm;
    m.shared_memory_per_sm_bytes = lim->shared_memory_per_sm;
    m.shared_memory_per_block_optin_bytes = lim->shared_memory_per_block_optin;
    m.reserved_shared_memory_per_block_bytes = lim->reserved_shared_memory_per_block;
    m.registers_per_sm = lim->registers_per_sm;
    m.registers_per_block = lim->registers_per_block;
    m.max_threads_per_sm = lim->max_threads_per_sm;
    m.max_threads_per_block = lim->max_threads_per_block;
    m.max_blocks_per_sm = lim->max_blocks_per_sm;
  }
  return m;
}

namespace {

// " [unconfirmed in data/gpus.json: ...]" for the spec fields a roof rests on that no primary
// source confirms; "" when all are confirmed.
std::string unconfirmed_mark(const device_model& m, std::initializer_list<std::string> fields) {
  std::string list;
  for (const auto& f : fields)
    if (std::find(m.unconfirmed.begin(), m.unconfirmed.end(), f) != m.unconfirmed.end())
      list += (list.empty() ? "" : ", ") + f;
  return list.empty() ? list : " [unconfirmed in data/gpus.json: " + list + "]";
}

} // namespace

std::vector<ceiling> theoretical_ceilings(const device_model& m) {
  std::vector<ceiling> out;
  const auto rates = throughput_for_cc(m.cc_major, m.cc_minor, m.consumer_tensor_rates);
  const std::string cc = fmt::format("{}.{}", m.cc_major, m.cc_minor);
  const std::string fallback =
      rates && !rates->exact
          ? fmt::format("estimate: CC {} is not in the table, rates of the nearest lower CC; ", cc)
          : "";
  if (rates && m.sm_count > 0 && m.sm_clock_mhz > 0) {
    for (const precision p : all_precisions) {
      const auto it = rates->flop_per_clk.find(p);
      if (it == rates->flop_per_clk.end())
        continue;
      ceiling c;
      c.is_memory = false;
      c.prec = p;
      c.sm_clock_mhz = clock_for(m, p);
      c.value = m.sm_count * it->second * c.sm_clock_mhz * 1e6;
      const bool tensor_clock = c.sm_clock_mhz != m.sm_clock_mhz;
      c.method =
          fmt::format("{}theoretical: {} SMs x {} {}/clk/SM x {} MHz{} [CC {}: {}]", fallback,
                      m.sm_count, fmt_rate(it->second), p == precision::tensor_int8 ? "op" : "FLOP",
                      fmt_rate(c.sm_clock_mhz), tensor_clock ? " (datasheet tensor clock)" : "", cc,
                      is_tensor(p) ? rates->tensor_source : rates->source);
      if (p == precision::fp16 || p == precision::bf16) {
        const auto fp32 = rates->flop_per_clk.find(precision::fp32);
        if (fp32 != rates->flop_per_clk.end() && it->second > fp32->second)
          c.method += "; above the FP32 rate only with HFMA2.MMA issued beside HFMA2 (two pipes), "
                      "which ptxas emits only when both packed operands are whole registers, not "
                      "one half read twice (validation/data/hfma2-pipes-h100.json)";
      }
      c.method += unconfirmed_mark(
          m, {to_string(p), tensor_clock ? "tensor_clock_mhz" : "boost_clock_mhz"});
      out.push_back(std::move(c));
    }
  }
  for (const memory_level level : all_memory_levels) {
    ceiling c;
    c.is_memory = true;
    c.level = level;
    if (level == memory_level::dram) {
      if (m.memory_clock_mhz <= 0 || m.bus_width_bits <= 0)
        continue;
      c.value = dram_bandwidth(m);
      c.mem_clock_mhz = m.memory_clock_mhz;
      c.method = fmt::format(
          "theoretical: {} x {} MHz x {}-bit / 8 ({}; CUDA's memory clock is half the per-pin "
          "data rate)",
          fmt_rate(transfers_per_clock(m.memory_type)), fmt_rate(m.memory_clock_mhz),
          m.bus_width_bits, m.memory_type.empty() ? "memory type unknown" : m.memory_type);
    } else {
      if (!rates || m.sm_count <= 0 || m.sm_clock_mhz <= 0)
        continue;
      c.sm_clock_mhz = m.sm_clock_mhz;
      if (level == memory_level::l2) {
        c.value = rates->l2_bytes_per_clk * m.sm_count * m.sm_clock_mhz * 1e6;
        c.method = fmt::format(
            "{}{}: {:.1f} B/clk/SM x {} SMs x {} MHz [{}]{}", rates->l2_published ? fallback : "",
            rates->l2_published ? "theoretical" : "estimate", rates->l2_bytes_per_clk, m.sm_count,
            fmt_rate(m.sm_clock_mhz), rates->l2_source,
            rates->l2_published
                ? ""
                : "; an upper bound the hardware may not reach (an H100's L2 read plateau is "
                  "about 2/3 of it): a ceiling microbenchmark measures it");
      } else {
        c.value = rates->l1_bytes_per_clk * m.sm_count * m.sm_clock_mhz * 1e6;
        c.method =
            fmt::format("estimate: {} B/clk/SM x {} SMs x {} MHz [shared memory: 32 banks "
                        "x 4 B per clock; L1 hits assumed the same]",
                        fmt_rate(rates->l1_bytes_per_clk), m.sm_count, fmt_rate(m.sm_clock_mhz));
      }
    }
    c.method += level == memory_level::dram ? unconfirmed_mark(m, {"memory_clock_mhz", "dram_gbs"})
                                            : unconfirmed_mark(m, {"boost_clock_mhz"});
    out.push_back(std::move(c));
  }
  return out;
}

} // namespace roofkit
