// The interconnect roof's CPU parts: where libnccl is looked for, the datasheet NVLink figure,
// and the report of a measured node.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/interconnect.hpp"

namespace {

using namespace roofkit;

TEST(interconnect, nccl_library_candidates_in_order) {
  auto c = nccl_library_candidates("", "/opt/nccl/libnccl.so.2", {"/py/site-packages"});
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], "/opt/nccl/libnccl.so.2");
  EXPECT_EQ(c[1], "libnccl.so.2");
  EXPECT_EQ(c[2], "/py/site-packages/nvidia/nccl/lib/libnccl.so.2");
  c = nccl_library_candidates("/mine/libnccl.so", "/opt/nccl/libnccl.so.2", {"/py"});
  ASSERT_EQ(c.size(), 1u); // an explicit path is the only one tried
  EXPECT_EQ(c[0], "/mine/libnccl.so");
}

TEST(interconnect, theoretical_nvlink) {
  auto h200 = theoretical_nvlink("NVIDIA H200", 9, 0);
  ASSERT_TRUE(h200);
  EXPECT_EQ(h200->links, 18);
  EXPECT_DOUBLE_EQ(h200->per_direction_bps, 450e9);
  EXPECT_NE(h200->source.find("NVLink 4"), std::string::npos);
  auto h100 = theoretical_nvlink("NVIDIA H100 80GB HBM3", 9, 0);
  ASSERT_TRUE(h100);
  EXPECT_DOUBLE_EQ(h100->per_direction_bps, 450e9);
  auto a100 = theoretical_nvlink("NVIDIA A100-SXM4-80GB", 8, 0);
  ASSERT_TRUE(a100);
  EXPECT_DOUBLE_EQ(a100->per_direction_bps, 300e9);
  EXPECT_FALSE(theoretical_nvlink("NVIDIA H100 PCIe", 9, 0));
  EXPECT_FALSE(theoretical_nvlink("NVIDIA GeForce RTX 4090", 8, 9));
}

TEST(interconnect, report_of_a_node) {
  interconnect_result r;
  r.gpus = 2;
  r.device_name = "NVIDIA H200";
  r.theoretical = theoretical_nvlink(r.device_name, 9, 0);
  r.pairs.push_back({0, 1, true, 512.0 * 1048576, 380e9, 720e9});
  r.all_reduce.push_back({1048576, 20e-6, 1048576 / 20e-6, 1048576 / 20e-6});
  r.nccl_library = "libnccl.so.2";
  r.nccl_version = 22805;
  const auto j = nlohmann::json::parse(interconnect_json(r));
  EXPECT_EQ(j.at("gpus"), 2);
  EXPECT_DOUBLE_EQ(j.at("peer_copies")[0].at("both_ways_bytes_per_s").get<double>(), 720e9);
  EXPECT_DOUBLE_EQ(j.at("theoretical_nvlink").at("per_direction_bytes_per_s").get<double>(), 450e9);
  EXPECT_EQ(j.at("all_reduce").size(), 1u);
  const auto t = interconnect_tables(r);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].rows.size(), 1u);
  EXPECT_NE(t[0].notes.at(0).find("450 GB/s per direction"), std::string::npos);
  EXPECT_NE(t[1].notes.at(0).find("22805"), std::string::npos);
  r.nccl_note = "NCCL not found";
  EXPECT_EQ(interconnect_tables(r)[1].notes.at(0), "NCCL not found");
}

} // namespace
