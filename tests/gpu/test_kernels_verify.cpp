// Every registered kernel runs on the GPU at its test sizes and its default size and passes its
// CPU check on fresh random data; a deliberately corrupted output must fail the check.
// With ROOFKIT_KERNELS_REPORT=path the results (errors, registers, occupancy, a rough event
// time) are written there as JSON.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/registry.hpp"

namespace {

using roofkit::kernel_descriptor;
using roofkit::kernel_instance;
using roofkit::problem_size;

nlohmann::json& report() {
  static nlohmann::json r = nlohmann::json::array();
  return r;
}

class report_writer : public testing::Environment {
public:
  void TearDown() override {
    const char* path = std::getenv("ROOFKIT_KERNELS_REPORT");
    if (path == nullptr || *path == '\0')
      return;
    cudaDeviceProp prop{};
    int device = 0;
    (void)cudaGetDevice(&device);
    (void)cudaGetDeviceProperties(&prop, device);
    int runtime = 0, driver = 0;
    (void)cudaRuntimeGetVersion(&runtime);
    (void)cudaDriverGetVersion(&driver);
    nlohmann::json doc{{"schema", "roofkit.kernel-verify/1"},
                       {"device", prop.name},
                       {"cc", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
                       {"sms", prop.multiProcessorCount},
                       {"runtime_version", runtime},
                       {"driver_version", driver},
                       {"note", "time_ms: median of 5 event-timed single runs after one warm-up, "
                                "for orientation only (bench is the measurement)"},
                       {"kernels", report()}};
    std::ofstream(path) << doc.dump(2) << '\n';
  }
};

const auto* const writer = testing::AddGlobalTestEnvironment(new report_writer);

void run_once(const kernel_descriptor& d, kernel_instance& k, cudaStream_t s) {
  if (d.reset_before_each_run)
    k.reset(s);
  k.run(s);
}

double median_time_ms(const kernel_descriptor& d, kernel_instance& k, cudaStream_t s) {
  cudaEvent_t start, stop;
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&start));
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int rep = 0; rep < 6; ++rep) {
    if (d.reset_before_each_run)
      k.reset(s);
    ROOFKIT_CUDA_CHECK(cudaEventRecord(start, s));
    k.run(s);
    ROOFKIT_CUDA_CHECK(cudaEventRecord(stop, s));
    ROOFKIT_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    ROOFKIT_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (rep > 0)
      times.push_back(ms);
  }
  ROOFKIT_CUDA_CHECK(cudaEventDestroy(start));
  ROOFKIT_CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::string test_name(const std::string& kernel) {
  std::string s = kernel;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return s;
}

class kernel_verify : public testing::TestWithParam<std::string> {};

TEST_P(kernel_verify, passes_its_cpu_check_and_catches_a_corrupted_output) {
  const kernel_descriptor* d = roofkit::find_kernel(GetParam());
  ASSERT_NE(d, nullptr);
  cudaStream_t stream;
  ROOFKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  std::vector<problem_size> sizes = d->test_sizes;
  std::erase(sizes, d->default_size); // tested once, last, with timing and facts
  sizes.push_back(d->default_size);
  const problem_size corrupt_size = *std::max_element(d->test_sizes.begin(), d->test_sizes.end());
  for (problem_size size : sizes) {
    SCOPED_TRACE(d->name + " at size " + std::to_string(size));
    auto k = d->make();
    k->setup(size);
    run_once(*d, *k, stream);
    const auto first = k->verify();
    EXPECT_TRUE(first.ok) << first.message;
    EXPECT_GT(first.checked, 0);
    if (size != d->default_size) {
      // Runs after the first must give the same answer (accumulators, slots, page state).
      run_once(*d, *k, stream);
      run_once(*d, *k, stream);
      const auto again = k->verify();
      EXPECT_TRUE(again.ok) << again.message;
    }
    if (size == corrupt_size) {
      k->corrupt_output();
      const auto broken = k->verify();
      EXPECT_FALSE(broken.ok) << "a corrupted output passed: " << broken.message;
    }
    if (size == d->default_size) {
      const auto lc = k->launch();
      const auto facts = k->facts();
      nlohmann::json entry{{"name", d->name},
                           {"size", size},
                           {"ok", first.ok},
                           {"max_error", first.max_error},
                           {"checked", first.checked},
                           {"message", first.message},
                           {"grid", lc.grid},
                           {"block", lc.block},
                           {"registers", lc.registers_per_thread},
                           {"static_smem_bytes", lc.static_smem_bytes},
                           {"facts", facts},
                           {"time_ms", median_time_ms(*d, *k, stream)}};
      // Six more runs: the result must still be right.
      const auto after_timing = k->verify();
      EXPECT_TRUE(after_timing.ok) << after_timing.message;
      entry["ok_after_repeated_runs"] = after_timing.ok;
      report().push_back(std::move(entry));
    }
    k->teardown();
    k->teardown(); // idempotent
  }
  ROOFKIT_CUDA_CHECK(cudaStreamDestroy(stream));
}

std::vector<std::string> all_kernels() {
  std::vector<std::string> names;
  for (const auto& d : roofkit::kernel_registry())
    names.push_back(d.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(registry, kernel_verify, testing::ValuesIn(all_kernels()),
                         [](const testing::TestParamInfo<std::string>& param) {
                           return test_name(param.param);
                         });

// The register cliff: the registers and resident blocks the seed's arithmetic predicts, read
// from the compiled kernels at run time.
TEST(register_cliff, compiled_register_counts_straddle_the_occupancy_step) {
  auto facts_of = [](const std::string& name) {
    auto k = roofkit::find_kernel(name)->make();
    k->setup(1 << 16);
    return k->facts();
  };
  int device = 0, max_threads = 0, regs_per_sm = 0;
  ROOFKIT_CUDA_CHECK(cudaGetDevice(&device));
  ROOFKIT_CUDA_CHECK(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  ROOFKIT_CUDA_CHECK(
      cudaDeviceGetAttribute(&regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor, device));
  if (max_threads != 2048 || regs_per_sm != 65536)
    GTEST_SKIP() << "the 32/33-register step is for SMs of 2048 threads and 65536 registers";

  const auto cap32 = facts_of("registers/maxnreg-32");
  const auto cap33 = facts_of("registers/maxnreg-33");
  const auto r31 = facts_of("registers/31-regs");
  const auto more = facts_of("registers/two-more-vars");
  const auto spill = facts_of("registers/spill");
  EXPECT_LE(std::stoi(cap32.at("registers")), 32);
  EXPECT_EQ(cap32.at("blocks_per_sm"), "4");
  EXPECT_EQ(cap33.at("registers"), "33");
  EXPECT_EQ(cap33.at("blocks_per_sm"), "3");
  EXPECT_EQ(cap33.at("theoretical_occupancy"), "0.7500");
  EXPECT_LE(std::stoi(r31.at("registers")), 32);
  EXPECT_EQ(r31.at("theoretical_occupancy"), "1.0000");
  EXPECT_GT(std::stoi(more.at("registers")), 32);
  EXPECT_EQ(more.at("blocks_per_sm"), "3");
  EXPECT_GT(std::stoi(spill.at("local_bytes_per_thread")), 0);
}

} // namespace
