// data/gpus.json: every GPU present with a source for every number; name matching; errors.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "test_support.hpp"

namespace {

using test_support::gpu_specs;

using roofkit::exit_code;
using roofkit::gpu_spec;

// Runs f, expects a roofkit::error with the given code, and returns its message.
template <class F> std::string error_of(F&& f, exit_code code = exit_code::usage) {
  try {
    f();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no roofkit::error thrown";
  return {};
}

TEST(gpu_specs, has_every_required_gpu) {
  for (const char* name : {"H100 SXM", "H100 PCIe", "H200 SXM", "A100 SXM 80GB", "A100 PCIe 40GB",
                           "L40S", "RTX 4090", "RTX 3090", "V100 SXM2", "T4", "B200"}) {
    const auto it = std::find_if(gpu_specs().begin(), gpu_specs().end(),
                                 [&](const gpu_spec& s) { return s.name == name; });
    EXPECT_NE(it, gpu_specs().end()) << name;
  }
}

TEST(gpu_specs, every_number_has_a_source) {
  for (const auto& s : gpu_specs()) {
    SCOPED_TRACE(s.name);
    std::vector<std::string> fields{"cc",          "sm_count",       "boost_clock_mhz",
                                    "memory_type", "bus_width_bits", "memory_clock_mhz",
                                    "l2_bytes",    "dram_gbs"};
    if (s.tensor_clock_mhz > 0)
      fields.push_back("tensor_clock_mhz");
    if (s.memory_gb > 0)
      fields.push_back("memory_gb");
    for (const auto& [p, v] : s.datasheet_flops)
      fields.push_back(roofkit::to_string(p));
    for (const auto& f : fields) {
      const auto it = s.sources.find(f);
      ASSERT_NE(it, s.sources.end()) << "no source for " << f;
      EXPECT_GT(it->second.size(), 10u) << f;
    }
    EXPECT_GT(s.datasheet_flops.count(roofkit::precision::fp32), 0u);
    EXPECT_GT(s.datasheet_dram_bandwidth, 1e11);
    EXPECT_FALSE(s.aliases.empty());
  }
}

TEST(gpu_specs, values_of_the_h100_sxm) {
  const auto h = roofkit::find_gpu("H100 SXM", gpu_specs());
  EXPECT_EQ(h.cc_major, 9);
  EXPECT_EQ(h.cc_minor, 0);
  EXPECT_EQ(h.sm_count, 132);
  EXPECT_DOUBLE_EQ(h.boost_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(h.tensor_clock_mhz, 1830);
  EXPECT_EQ(h.bus_width_bits, 5120);
  EXPECT_DOUBLE_EQ(h.memory_clock_mhz, 2619);
  EXPECT_EQ(h.l2_bytes, 50 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(h.datasheet_flops.at(roofkit::precision::tensor_fp16), 989.4e12);
  EXPECT_DOUBLE_EQ(h.datasheet_dram_bandwidth, 3350e9);
  EXPECT_EQ(h.segment, "datacenter");
}

TEST(gpu_names, normalize) {
  EXPECT_EQ(roofkit::normalize_gpu_name("NVIDIA H100-SXM_5 "), "h100sxm5");
  EXPECT_EQ(roofkit::normalize_gpu_name("h100 sxm"), "h100sxm");
  EXPECT_EQ(roofkit::normalize_gpu_name("nvidia"), "nvidia");
  EXPECT_EQ(roofkit::normalize_gpu_name(" - _"), "");
}

TEST(gpu_names, exact_and_spelling_variants) {
  for (const char* n :
       {"H100 SXM", "h100 sxm", "h100-sxm", "H100_SXM", "h100sxm", "NVIDIA H100 SXM"})
    EXPECT_EQ(roofkit::find_gpu(n, gpu_specs()).name, "H100 SXM") << n;
  EXPECT_EQ(roofkit::find_gpu("t4", gpu_specs()).name, "T4");
  EXPECT_EQ(roofkit::find_gpu("B200", gpu_specs()).name, "B200");
}

TEST(gpu_names, aliases_include_the_nvidia_smi_names) {
  EXPECT_EQ(roofkit::find_gpu("NVIDIA H100 80GB HBM3", gpu_specs()).name, "H100 SXM");
  EXPECT_EQ(roofkit::find_gpu("NVIDIA GeForce RTX 4090", gpu_specs()).name, "RTX 4090");
  EXPECT_EQ(roofkit::find_gpu("NVIDIA A100-SXM4-80GB", gpu_specs()).name, "A100 SXM 80GB");
  EXPECT_EQ(roofkit::find_gpu("Tesla V100-SXM2-32GB", gpu_specs()).name, "V100 SXM2");
  EXPECT_EQ(roofkit::find_gpu("NVIDIA H200", gpu_specs()).name, "H200 SXM");
  // match_gpu (used for live devices) takes exact names only.
  ASSERT_TRUE(roofkit::match_gpu("NVIDIA H100 80GB HBM3", gpu_specs()));
  EXPECT_EQ(roofkit::match_gpu("NVIDIA H100 80GB HBM3", gpu_specs())->name, "H100 SXM");
  EXPECT_FALSE(roofkit::match_gpu("NVIDIA H100", gpu_specs()));
  EXPECT_FALSE(roofkit::match_gpu("", gpu_specs()));
}

TEST(gpu_names, unambiguous_prefix) {
  EXPECT_EQ(roofkit::find_gpu("h200", gpu_specs()).name, "H200 SXM");
  EXPECT_EQ(roofkit::find_gpu("l40", gpu_specs()).name, "L40S");
  EXPECT_EQ(roofkit::find_gpu("rtx 40", gpu_specs()).name, "RTX 4090");
  EXPECT_EQ(roofkit::find_gpu("a100 pc", gpu_specs()).name, "A100 PCIe 40GB");
  EXPECT_EQ(roofkit::find_gpu("v100", gpu_specs()).name, "V100 SXM2");
}

TEST(gpu_names, ambiguous_prefix_lists_the_candidates) {
  const auto msg = error_of([] { roofkit::find_gpu("h100", gpu_specs()); });
  EXPECT_NE(msg.find("'h100' is ambiguous"), std::string::npos) << msg;
  EXPECT_NE(msg.find("H100 SXM"), std::string::npos) << msg;
  EXPECT_NE(msg.find("H100 PCIe"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("H200"), std::string::npos) << msg;
  const auto rtx = error_of([] { roofkit::find_gpu("RTX", gpu_specs()); });
  EXPECT_NE(rtx.find("RTX 4090, RTX 3090"), std::string::npos) << rtx;
  const auto a100 = error_of([] { roofkit::find_gpu("a100", gpu_specs()); });
  EXPECT_NE(a100.find("A100 SXM 80GB, A100 PCIe 40GB"), std::string::npos) << a100;
}

TEST(gpu_names, unknown_or_empty_lists_every_name) {
  const auto msg = error_of([] { roofkit::find_gpu("MI300X", gpu_specs()); });
  EXPECT_NE(msg.find("unknown GPU 'MI300X'"), std::string::npos) << msg;
  for (const auto& s : gpu_specs())
    EXPECT_NE(msg.find(s.name), std::string::npos) << s.name;
  const auto empty = error_of([] { roofkit::find_gpu(" - ", gpu_specs()); });
  EXPECT_NE(empty.find("empty GPU name"), std::string::npos) << empty;
}

// A valid one-GPU file; the malformed cases below each break one thing.
std::string minimal(const std::string& gpu_extra = "", const std::string& top_extra = "") {
  return R"({"schema": "roofkit.gpus/1", )" + top_extra +
         R"("sources": {"s": "a source text"}, "gpus": [{"name": "X1", "aliases": ["Ex One"],
          "cc": "9.0", "sm_count": 10, "boost_clock_mhz": 1000, "memory_type": "HBM3",
          "bus_width_bits": 1024, "memory_clock_mhz": 1000, "l2_bytes": 1048576,
          "datasheet": {"dram_gbs": 256, "tflops": {"fp32": 2.56}},
          "sources": {"sm_count": ["s"]})" +
         gpu_extra + "}]}";
}

TEST(gpu_specs_file, minimal_file_parses) {
  const auto s = roofkit::parse_gpu_specs(minimal(), "mini.json");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "X1");
  EXPECT_DOUBLE_EQ(s[0].datasheet_flops.at(roofkit::precision::fp32), 2.56e12);
  EXPECT_EQ(s[0].sources.at("sm_count"), "a source text");
}

TEST(gpu_specs_file, malformed_files_give_clear_errors) {
  auto msg = error_of([] { roofkit::parse_gpu_specs(R"({"schema": )", "bad.json"); });
  EXPECT_NE(msg.find("bad.json: malformed JSON"), std::string::npos) << msg;
  msg = error_of([] { roofkit::parse_gpu_specs("[]", "bad.json"); });
  EXPECT_NE(msg.find("top level"), std::string::npos) << msg;
  std::string text = minimal();
  text.replace(text.find("roofkit.gpus/1"), 14, "roofkit.gpus/2");
  msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("unsupported schema 'roofkit.gpus/2'"), std::string::npos) << msg;
  text = minimal();
  text.replace(text.find(R"("sm_count": 10)"), 14, R"("sm_count": -3)");
  msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("GPU 'X1': \"sm_count\" is -3"), std::string::npos) << msg;
  text = minimal();
  text.replace(text.find(R"("cc": "9.0")"), 11, R"("cc": "nine")");
  msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("\"cc\" is 'nine'"), std::string::npos) << msg;
  text = minimal();
  text.replace(text.find(R"(["s"])"), 5, R"(["nope"])");
  msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("unknown source \"nope\""), std::string::npos) << msg;
  text = minimal();
  text.replace(text.find(R"({"fp32")"), 7, R"({"fp31")");
  msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("unknown precision 'fp31'"), std::string::npos) << msg;
  msg =
      error_of([] { roofkit::parse_gpu_specs(minimal(R"(, "unconfirmed": ["l2_bytes"])"), "b"); });
  EXPECT_NE(msg.find("unconfirmed field"), std::string::npos) << msg;
  text = minimal();
  text.replace(text.find(R"("memory_type": "HBM3",)"), 22, "");
  msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("\"memory_type\""), std::string::npos) << msg;
}

TEST(gpu_specs_file, duplicate_names_across_entries_are_rejected) {
  std::string text = minimal();
  const auto gpu_begin = text.find(R"({"name": "X1")");
  const auto gpu = text.substr(gpu_begin, text.size() - 2 - gpu_begin);
  std::string second = gpu;
  second.replace(second.find(R"("X1")"), 4, R"("X2")");
  second.replace(second.find(R"("Ex One")"), 8, R"("x-1")");
  text.insert(text.size() - 2, ", " + second);
  const auto msg = error_of([&] { roofkit::parse_gpu_specs(text, "bad.json"); });
  EXPECT_NE(msg.find("'x-1' is already used by GPU 'X1'"), std::string::npos) << msg;
}

} // namespace
