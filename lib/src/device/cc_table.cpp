// Per-SM throughput and resource sizes per compute capability: the first-principles half of
// the device model. Every rate is dense, per SM, per clock; sources in docs/device-model.md.
#include <array>

#include "cc_limits.hpp"
#include "roofkit/arch.hpp"
#include "roofkit/device.hpp"

namespace roofkit {

namespace {

constexpr double na = 0; // no such unit on this CC

struct cc_row {
  int major;
  int minor;
  // FP64, FP32, FP16, BF16 (CUDA cores); tensor FP64, TF32, FP16/BF16, FP8, INT8
  std::array<double, 9> flop;
  double l2_bytes_per_clk; // per SM
  bool l2_published;
  const char* tensor_source;
};

// CUDA-core rates: 2 x the FMA results per clock per SM of the CUDA C++ Programming Guide's
// arithmetic-throughput table (FP16 and BF16 count half2/bfloat162 lanes; BF16 from CC 8.0). Tensor
// rates: the datasheet peaks of data/gpus.json divided by SMs and clock (professional parts;
// GeForce halves the float tensor rates), cross-checked by tests/cpu/test_device_model.cpp.
constexpr double a100_l2 = 5120.0 / 108; // A100 whitepaper: 5120 B/clk for 108 SMs
constexpr double v100_l2 = 2048.0 / 80;  // A100 whitepaper: V100 2048 B/clk for 80 SMs

constexpr const char* guide = "CUDA Programming Guide throughput table";

constexpr std::array<cc_row, 8> rows{{
    {7, 0, {64, 128, 256, na, na, na, 1024, na, na}, v100_l2, true, "V100 datasheet"},
    {7, 5, {4, 128, 256, na, na, na, 1024, na, 2048}, a100_l2, false, "T4 datasheet"},
    {8, 0, {64, 128, 512, 512, 128, 1024, 2048, na, 4096}, a100_l2, true, "A100 whitepaper"},
    {8, 6, {4, 256, 256, 256, na, 512, 1024, na, 2048}, a100_l2, false, "GA102 whitepaper"},
    {8, 9, {4, 256, 256, 256, na, 512, 1024, 2048, 2048}, a100_l2, false, "L40S datasheet"},
    {9, 0, {128, 256, 512, 512, 256, 2048, 4096, 8192, 8192}, a100_l2, false, "H100 datasheet"},
    {10,
     0,
     {128, 256, 512, 512, 128, 4096, 8192, 16384, 16384},
     a100_l2,
     false,
     "HGX B200 datasheet"},
    {12, 0, {4, 256, 256, 256, na, na, na, na, na}, a100_l2, false, "no tensor rates tabulated"},
}};
// The one size the architecture table (data/arch) does not hold: the combined L1/shared-memory
// array per SM (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability";
// Volta and later, where the two share one array).
struct l1_row {
  int major;
  int minor;
  int bytes;
};
constexpr std::array<l1_row, 8> l1_rows{{
    {7, 0, 131072},
    {7, 5, 98304},
    {8, 0, 196608},
    {8, 6, 131072},
    {8, 9, 131072},
    {9, 0, 262144},
    {10, 0, 262144},
    {12, 0, 131072},
}};

int cc_key(int major, int minor) { return major * 10 + minor; }

} // namespace

std::optional<sm_throughput> throughput_for_cc(int cc_major, int cc_minor, bool consumer) {
  const cc_row* row = nullptr;
  for (const auto& r : rows)
    if (cc_key(r.major, r.minor) <= cc_key(cc_major, cc_minor))
      row = &r;
  if (!row)
    return std::nullopt;
  sm_throughput t;
  t.cc_major = cc_major;
  t.cc_minor = cc_minor;
  t.exact = row->major == cc_major && row->minor == cc_minor;
  for (std::size_t i = 0; i < all_precisions.size(); ++i) {
    double rate = row->flop[i];
    const precision p = all_precisions[i];
    const bool float_tensor =
        p == precision::tensor_tf32 || p == precision::tensor_fp16 || p == precision::tensor_fp8;
    if (consumer && float_tensor)
      rate /= 2;
    if (rate > 0)
      t.flop_per_clk[p] = rate;
  }
  t.l1_bytes_per_clk = 128; // 32 banks x 4 bytes per clock
  t.l2_bytes_per_clk = row->l2_bytes_per_clk;
  t.l2_published = row->l2_published && t.exact;
  t.source = guide;
  t.tensor_source = row->tensor_source;
  if (consumer)
    t.tensor_source += "; GeForce: TF32/FP16/FP8 at half rate (FP32 accumulate)";
  t.l2_source = t.l2_published
                    ? "A100 whitepaper: L2 read bandwidth 5120 B/clk (A100) and 2048 B/clk (V100)"
                    : "the A100's 5120 B/clk scaled per SM; no published figure for this CC";
  return t;
}

namespace detail {

std::optional<cc_limits> limits_for_cc(int cc_major, int cc_minor) {
  const arch_spec* best = nullptr;
  for (const auto& a : all_archs())
    if (cc_key(a.cc_major, a.cc_minor) <= cc_key(cc_major, cc_minor))
      best = &a;
  if (!best || best->cc_major < 7)
    return std::nullopt;
  cc_limits out;
  out.cc_major = cc_major;
  out.cc_minor = cc_minor;
  out.exact = best->cc_major == cc_major && best->cc_minor == cc_minor;
  out.shared_memory_per_sm = static_cast<int>(best->shared_memory_per_sm);
  out.shared_memory_per_block_optin = static_cast<int>(best->shared_memory_per_block_optin);
  out.reserved_shared_memory_per_block = static_cast<int>(best->reserved_shared_memory_per_block);
  out.registers_per_sm = best->registers_per_sm;
  out.registers_per_block = best->max_registers_per_block;
  out.max_threads_per_sm = best->max_threads_per_sm;
  out.max_threads_per_block = best->max_threads_per_block;
  out.max_blocks_per_sm = best->max_blocks_per_sm;
  for (const auto& r : l1_rows)
    if (cc_key(r.major, r.minor) <= cc_key(cc_major, cc_minor))
      out.l1_shared_per_sm = r.bytes;
  return out;
}

} // namespace detail

} // namespace roofkit
