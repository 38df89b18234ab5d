// `roofline-cuda profile` of processes that have ranks, on one GPU: a rank writes its own log and
// its run goes beside -o's file, merged with the job's other ranks listed as "no file"; two
// processes of one rank (the same environment) share its log and take turns as before.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// Runs `profile --sample all -o DIR/NAME.json -- env VARS APP ARGS` (every launch profiled);
/// the exit code and the stderr text.
int profile(const std::string& name, const std::string& vars, const std::string& app,
            const std::string& args, std::string& err) {
  const fs::path dir = fs::path(ROOFKIT_TEST_BINARY_DIR) / "profile_ranks_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path e = dir / (name + ".err");
  const std::string cmd = std::string("'") + ROOFKIT_TOOL + "' profile --sample all -o '" +
                          (dir / (name + ".json")).string() + "' -- env " + vars + " '" + app +
                          "' " + args + " >/dev/null 2>'" + e.string() + "'";
  const int status = std::system(cmd.c_str());
  err = roofkit::read_text_file(e);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

json load(const std::string& file) {
  return json::parse(
      roofkit::read_text_file(fs::path(ROOFKIT_TEST_BINARY_DIR) / "profile_ranks_test" / file));
}

TEST(profile_ranks, a_rank_has_its_own_run_and_the_merge_lists_the_others) {
  std::string err;
  ASSERT_EQ(profile("job", "RANK=3 LOCAL_RANK=0 WORLD_SIZE=4", ROOFKIT_APP_MANY_KERNELS, "20", err),
            0)
      << err;
  const json rank = load("job.rank3.json");
  const json& mg = rank.at("multi_gpu");
  EXPECT_EQ(mg.at("rank"), 3);
  EXPECT_EQ(mg.at("world_size"), 4);
  EXPECT_EQ(mg.at("rank_source"), "RANK");
  EXPECT_EQ(mg.at("device"), 0);
  EXPECT_EQ(mg.at("gpu_uuid").get<std::string>().rfind("GPU-", 0), 0u);
  EXPECT_EQ(mg.at("gpu_uuid"), roofkit::gpu_uuid(0));
  EXPECT_EQ(mg.at("status"), "ok");
  EXPECT_EQ(rank.at("profile").at("launches").size(), 20u);
  const json merged = load("job.json");
  const json& ranks = merged.at("multi_gpu").at("ranks");
  ASSERT_EQ(ranks.size(), 4u);
  EXPECT_EQ(ranks[0].at("status"), "no file");
  EXPECT_EQ(ranks[3].at("status"), "ok");
  EXPECT_EQ(ranks[3].at("profiled_launches"), 20);
  EXPECT_EQ(merged.at("multi_gpu").at("launches").size(), 20u);
  EXPECT_NE(err.find("rank 3: 20 launches, 20 profiled, 0 collective launches"), std::string::npos)
      << err;
}

TEST(profile_ranks, two_processes_of_one_rank_take_turns_in_its_log) {
  std::string err;
  ASSERT_EQ(profile("two", "RANK=0 WORLD_SIZE=1", ROOFKIT_APP_TWO_PROCESSES, "", err), 0) << err;
  const json rank = load("two.rank0.json");
  EXPECT_EQ(rank.at("profile").at("processes"), 2);
  EXPECT_EQ(rank.at("profile").at("launches").size(), 6u);
  EXPECT_EQ(load("two.json").at("multi_gpu").at("ranks").size(), 1u);
}

} // namespace
