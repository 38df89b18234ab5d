// Fuzz target: the cliff file reader (`roofline-cuda cliff --from CLIFF.json`). A file that
// parses must analyze and, once written and read, write the same JSON again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofkit/cliff.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  roofkit::cliff_result r;
  if (!roofkit::fuzz::accepts("parse_cliff", [&] { r = roofkit::parse_cliff(text, "fuzz.json"); }))
    return 0;
  roofkit::analyze_cliffs(r);
  const std::string written = roofkit::to_json_text(r);
  roofkit::cliff_result back;
  roofkit::fuzz::check(
      roofkit::fuzz::accepts("parse_cliff", [&] { back = roofkit::parse_cliff(written, "x"); }),
      "a cliff file that parsed reads back after writing");
  roofkit::fuzz::check(roofkit::to_json_text(back) == roofkit::to_json_text(roofkit::parse_cliff(
                                                          roofkit::to_json_text(back), "y")),
                       "a cliff file written, read and written again is a fixed point");
  return 0;
}
