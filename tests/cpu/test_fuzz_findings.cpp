// Bugs the fuzz targets (tests/fuzz/) found in parsers of user input, kept as regression tests.
// The inputs that found them are in tests/fuzz/corpus/ too.
#include <climits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/occupancy.hpp"

namespace {

// `occupancy-calc batch` echoes a bad field in its error object; bytes that are not UTF-8 made
// the line invalid JSON. They now become U+FFFD, and valid UTF-8 is kept.
TEST(FuzzFindings, BatchErrorWithInvalidUtf8IsValidJson) {
  const std::string csv = "arch,threads,regs,smem_static,smem_dynamic,carveout\n"
                          "sm\x9d\x9d_90,256,32,0,0,-1\n"
                          "sm_\xc3\xa9,256,32,0,0,-1\n"
                          "sm_\xed\xa0\x80,256,32,0,0,-1\n";
  std::string jsonl;
  const auto summary = roofkit::run_occupancy_batch(csv, jsonl);
  EXPECT_EQ(summary.rows, 3u);
  EXPECT_EQ(summary.invalid, 3u);
  std::size_t pos = 0;
  std::vector<std::string> errors;
  while (pos < jsonl.size()) {
    const auto eol = jsonl.find('\n', pos);
    ASSERT_NE(eol, std::string::npos);
    const auto row = nlohmann::json::parse(jsonl.substr(pos, eol - pos), nullptr, false);
    ASSERT_FALSE(row.is_discarded()) << jsonl.substr(pos, eol - pos);
    errors.push_back(row.at("error").get<std::string>());
    pos = eol + 1;
  }
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_NE(errors[0].find("'sm\xef\xbf\xbd\xef\xbf\xbd_90'"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("'sm_\xc3\xa9'"), std::string::npos) << errors[1]; // kept: é
  EXPECT_NE(errors[2].find("'sm_\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd'"), std::string::npos)
      << errors[2]; // a UTF-16 surrogate is not UTF-8
}

// A "Compiling entry function" line without a quoted name gave a kernel with no name.
TEST(FuzzFindings, PtxasEntryWithoutNameIsNotAKernel) {
  const auto kernels =
      roofkit::parse_ptxas_log("ptxas info    : Compiling entry function for 'sm_80'\n"
                               "ptxas info    : Used 40 registers, used 1 barriers\n"
                               "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
                               "ptxas info    : Used 32 registers, used 0 barriers\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].mangled_name, "_Z1kv");
  EXPECT_EQ(kernels[0].registers, 32);
}

// A register or barrier count beyond int wrapped to a negative number.
TEST(FuzzFindings, PtxasHugeCountsAreIgnored) {
  const auto kernels =
      roofkit::parse_ptxas_log("ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
                               "ptxas info    : Used 4294967295 registers, used 4294967296 "
                               "barriers\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].registers, 0);
  EXPECT_EQ(kernels[0].barriers, -1);
}

// A "Function properties for" line that ends there threw std::out_of_range (an internal error,
// exit 1, for a bad log).
TEST(FuzzFindings, PtxasPropertiesLineWithoutName) {
  const auto kernels =
      roofkit::parse_ptxas_log("ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
                               "ptxas info    : Function properties for\n"
                               "ptxas info    : Used 32 registers, used 0 barriers");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].registers, 32);
}

} // namespace
