// Fuzz target: the ncu CSV importer (`roofline-cuda plot --import-ncu FILE`). An import that
// succeeds must give a run that analyze() places and that, once written and read, writes the
// same JSON again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofkit/ncu_import.hpp"
#include "roofkit/results.hpp"
#include "roofkit/roofline.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const bool packed : {true, false}) {
    roofkit::run r;
    roofkit::ncu_import_options options;
    options.half2_packed = packed;
    if (!roofkit::fuzz::accepts("import_ncu_csv",
                                [&] { r = roofkit::import_ncu_csv(text, "fuzz.csv", options); }))
      return 0;
    roofkit::fuzz::check(!r.kernels.empty(), "an imported run has at least one kernel");
    (void)roofkit::analyze(r);
    const std::string written = roofkit::to_json_text(r);
    roofkit::run back;
    roofkit::fuzz::check(
        roofkit::fuzz::accepts("parse_run", [&] { back = roofkit::parse_run(written, "x"); }),
        "an imported run reads back");
    roofkit::fuzz::check(roofkit::to_json_text(back) == roofkit::to_json_text(roofkit::parse_run(
                                                            roofkit::to_json_text(back), "y")),
                         "an imported run written, read and written again is a fixed point");
  }
  return 0;
}
