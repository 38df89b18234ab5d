// Fuzz target: the size-like command-line values: shared-memory sizes ("48K", "1.5KB"),
// carveouts ("25%", "max_l1") and architecture names ("sm_90a", "9.0"). Each is accepted within
// its valid range or rejected with a usage error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofkit/arch.hpp"
#include "roofkit/occupancy.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::int64_t bytes = -1;
  if (roofkit::fuzz::accepts("parse_size", [&] { bytes = roofkit::parse_size(text, "size"); }))
    roofkit::fuzz::check(bytes >= 0 && bytes <= (std::int64_t{1} << 40),
                         "a size is within 0..1 TiB");
  int carveout = -2;
  if (roofkit::fuzz::accepts("parse_carveout", [&] { carveout = roofkit::parse_carveout(text); }))
    roofkit::fuzz::check(carveout >= -1 && carveout <= 100, "a carveout is within -1..100");
  const roofkit::arch_spec* arch = nullptr;
  if (roofkit::fuzz::accepts("find_arch", [&] { arch = &roofkit::find_arch(text); }))
    roofkit::fuzz::check(arch->max_threads_per_block > 0, "a found architecture is complete");
  return 0;
}
