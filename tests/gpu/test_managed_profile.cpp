// A kernel on managed memory profiled as the bench profiles it: the pages go back to the host
// before every replay pass (batch_work::before), so every pass and every call counts the page
// faults' migrations, not only the first pass that happens to find the pages on the host.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "roofkit/bench.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/registry.hpp"

namespace {

const roofkit::kernel_descriptor& only(const std::string& regex) {
  const auto found = roofkit::select_kernels(regex);
  if (found.size() != 1)
    throw std::runtime_error(regex + " matches " + std::to_string(found.size()) + " kernels");
  return *found.front();
}

// DRAM writes of `name` at `n` elements, profiled twice in a row by one session; `reset` says
// whether every pass first moves the pages back (as the bench does).
std::vector<double> dram_writes_twice(const std::string& name, roofkit::problem_size n,
                                      bool reset) {
  const auto& d = only("^" + name + "$");
  auto inst = d.make();
  inst->setup(n);
  roofkit::profiler_session session(0, roofkit::bench_metric_set());
  roofkit::batch_work w{[&] { inst->run(nullptr); }, 1};
  if (reset)
    w.before = [&] { inst->reset(nullptr); };
  std::vector<double> writes;
  for (int call = 0; call < 2; ++call) {
    const auto ranges = session.profile_batch({w});
    EXPECT_EQ(ranges.at(0).size(), 1u);
    writes.push_back(ranges.at(0).at(0).values.at("dram__bytes_write.sum"));
    std::printf("%s, call %d: %.1f MB of DRAM writes\n", name.c_str(), call, writes.back() / 1e6);
  }
  const auto v = inst->verify();
  EXPECT_TRUE(v.ok) << v.message;
  return writes;
}

constexpr roofkit::problem_size elements = roofkit::problem_size{1} << 25; // 128 MiB an array

TEST(managed_profile, every_pass_of_every_call_migrates_the_host_written_pages) {
  const double array_bytes = 4.0 * double(elements);
  // x, y and z were written by the host: the faults move all three into device memory, and the
  // kernel writes z there. Device memory written once per array, at least.
  for (const double w : dram_writes_twice("unified/host-init", elements, true))
    EXPECT_GT(w, 0.9 * 3 * array_bytes);
}

TEST(managed_profile, without_the_reset_the_second_call_finds_the_pages_on_the_gpu) {
  // The same kernel without batch_work::before: once the first pass has moved the pages, the
  // kernel writes z alone. This is what the reset check above would miss if it were absent.
  const double array_bytes = 4.0 * double(elements);
  const auto writes = dram_writes_twice("unified/host-init", elements, false);
  EXPECT_LT(writes.at(1), 1.5 * array_bytes);
}

} // namespace
