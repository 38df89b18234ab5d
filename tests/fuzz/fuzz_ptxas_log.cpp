// Fuzz target: the ptxas log parser (`occupancy-calc --ptxas FILE`). It never throws; every
// kernel it returns has a name, an architecture and non-negative resource counts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofkit/occupancy.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<roofkit::ptxas_kernel> kernels;
  roofkit::fuzz::check(
      roofkit::fuzz::accepts("parse_ptxas_log", [&] { kernels = roofkit::parse_ptxas_log(text); }),
      "parse_ptxas_log never rejects a log");
  for (const auto& k : kernels) {
    roofkit::fuzz::check(!k.mangled_name.empty(), "a kernel has a name");
    roofkit::fuzz::check(k.registers >= 0 && k.static_smem >= 0 && k.stack_frame >= 0 &&
                             k.spill_stores >= 0 && k.spill_loads >= 0 && k.barriers >= -1,
                         "resource counts are not negative");
  }
  return 0;
}
