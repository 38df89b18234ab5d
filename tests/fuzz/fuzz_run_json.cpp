// Fuzz target: the run JSON reader (`roofline-cuda report|plot|compare|claims RUN.json`). A run
// that parses must place on the roofline and, once written and read, write the same JSON again
// (invalid UTF-8 in names is replaced on the first write).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofkit/results.hpp"
#include "roofkit/roofline.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  roofkit::run r;
  if (!roofkit::fuzz::accepts("parse_run", [&] { r = roofkit::parse_run(text, "fuzz.json"); }))
    return 0;
  (void)roofkit::analyze(r);
  const std::string written = roofkit::to_json_text(r);
  roofkit::run back;
  roofkit::fuzz::check(
      roofkit::fuzz::accepts("parse_run", [&] { back = roofkit::parse_run(written, "x"); }),
      "a run that parsed reads back after writing");
  roofkit::fuzz::check(roofkit::to_json_text(back) == roofkit::to_json_text(roofkit::parse_run(
                                                          roofkit::to_json_text(back), "y")),
                       "a run written, read and written again is a fixed point");
  return 0;
}
