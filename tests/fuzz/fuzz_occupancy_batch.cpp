// Fuzz target: the batch CSV (`occupancy-calc batch FILE.csv`). Bad rows become {"line":N,
// "error":...} objects; every output line is one valid JSON object, one per data row.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "roofkit/occupancy.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string jsonl;
  roofkit::batch_summary summary;
  if (!roofkit::fuzz::accepts("run_occupancy_batch",
                              [&] { summary = roofkit::run_occupancy_batch(text, jsonl); }))
    return 0;
  std::size_t lines = 0;
  std::size_t errors = 0;
  std::size_t pos = 0;
  while (pos < jsonl.size()) {
    const std::size_t eol = jsonl.find('\n', pos);
    roofkit::fuzz::check(eol != std::string::npos, "every output line ends with a newline");
    const auto row = nlohmann::json::parse(jsonl.substr(pos, eol - pos), nullptr, false);
    roofkit::fuzz::check(!row.is_discarded() && row.is_object(), "each line is a JSON object");
    roofkit::fuzz::check(row.contains("line") && row["line"].is_number_unsigned(),
                         "each object has its line number");
    if (row.contains("error")) {
      ++errors;
    } else {
      const double occupancy = row.at("occupancy").get<double>();
      roofkit::fuzz::check(occupancy >= 0 && occupancy <= 1, "occupancy is within 0..1");
    }
    ++lines;
    pos = eol + 1;
  }
  roofkit::fuzz::check(lines == summary.rows, "one output line per data row");
  roofkit::fuzz::check(errors == summary.invalid, "one error object per invalid row");
  return 0;
}
