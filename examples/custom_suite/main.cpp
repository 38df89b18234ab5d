// A kernel suite of its own, built on the public API only: one kernel and one claim, registered
// as data the way the bundled suite registers its kernels (kernels/) and claims (kernels/suite/).
// It lists its suite; with a GPU it also times the kernel and measures the claim. Without a GPU
// it runs nothing and exits 0.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "roofkit/bench.hpp"
#include "roofkit/core.hpp"
#include "roofkit/printer.hpp"
#include "roofkit/registry.hpp"

#include "saxpy_kernel.hpp"

namespace {

constexpr float factor = 2.5f;
constexpr unsigned block_size = 256;
constexpr const char* source = "examples/custom_suite/main.cpp";

roofkit::launch_config saxpy_launch(roofkit::problem_size n) {
  roofkit::launch_config c;
  c.grid[0] = static_cast<std::uint32_t>((n + block_size - 1) / block_size);
  c.block[0] = block_size;
  return c;
}

// One saxpy at one size: device buffers x, y (random) and out (written by run()).
class saxpy_instance : public roofkit::kernel_instance {
public:
  ~saxpy_instance() override { teardown(); }

  void setup(roofkit::problem_size size) override {
    teardown();
    n_ = size;
    std::mt19937 random(std::random_device{}());
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    x_.resize(static_cast<std::size_t>(n_));
    y_.resize(static_cast<std::size_t>(n_));
    for (std::size_t i = 0; i < x_.size(); ++i) {
      x_[i] = value(random);
      y_[i] = value(random);
    }
    const std::size_t bytes = x_.size() * sizeof(float);
    x_d_ = allocate(bytes);
    y_d_ = allocate(bytes);
    out_d_ = allocate(bytes);
    ROOFKIT_CUDA_CHECK(cudaMemcpy(x_d_, x_.data(), bytes, cudaMemcpyHostToDevice));
    ROOFKIT_CUDA_CHECK(cudaMemcpy(y_d_, y_.data(), bytes, cudaMemcpyHostToDevice));
    ROOFKIT_CUDA_CHECK(cudaMemset(out_d_, 0xff, bytes)); // NaN until the first run
  }

  void run(cudaStream_t stream) override {
    const auto c = saxpy_launch(n_);
    example::launch_saxpy(c.grid[0], c.block[0], factor, x_d_, y_d_, out_d_, static_cast<int>(n_),
                          stream);
    ROOFKIT_CUDA_CHECK_LAUNCH();
  }

  roofkit::verification verify() override {
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> out(x_.size());
    ROOFKIT_CUDA_CHECK(
        cudaMemcpy(out.data(), out_d_, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    roofkit::verification v;
    v.ok = true;
    v.message = "out = a x + y";
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double want = double(factor) * x_[i] + y_[i];
      const double tolerance = 1e-6 * std::abs(want) + 1e-6;
      const double error = std::abs(double(out[i]) - want);
      ++v.checked;
      if (!(error <= tolerance)) { // NaN fails too
        v.ok = false;
        v.message = "out[" + std::to_string(i) + "] = " + std::to_string(out[i]) + ", want " +
                    std::to_string(want);
        v.max_error = error;
        v.tolerance = tolerance;
        break;
      }
      if (error > v.max_error) {
        v.max_error = error;
        v.tolerance = tolerance;
      }
    }
    return v;
  }

  void corrupt_output() override {
    const float bad = 1e30f;
    ROOFKIT_CUDA_CHECK(cudaMemcpy(out_d_, &bad, sizeof bad, cudaMemcpyHostToDevice));
  }

  void teardown() override {
    for (float** p : {&x_d_, &y_d_, &out_d_}) {
      if (*p != nullptr)
        cudaFree(*p);
      *p = nullptr;
    }
  }

  roofkit::launch_config launch() const override {
    auto c = saxpy_launch(n_);
    cudaFuncAttributes a{};
    if (cudaFuncGetAttributes(&a, example::saxpy_function()) == cudaSuccess) {
      c.registers_per_thread = static_cast<std::uint32_t>(a.numRegs);
      c.static_smem_bytes = static_cast<std::uint32_t>(a.sharedSizeBytes);
    }
    return c;
  }

  const void* kernel_function() const override { return example::saxpy_function(); }

private:
  static float* allocate(std::size_t bytes) {
    void* p = nullptr;
    ROOFKIT_CUDA_CHECK(cudaMalloc(&p, bytes));
    return static_cast<float*>(p);
  }

  roofkit::problem_size n_ = 0;
  std::vector<float> x_, y_;
  float* x_d_ = nullptr;
  float* y_d_ = nullptr;
  float* out_d_ = nullptr;
};

// The suite's topics, kernels and claims, registered as data.
const roofkit::topic_order_registration topics{{"example"}};

const roofkit::kernel_registration kernels{[] {
  roofkit::kernel_descriptor d;
  d.name = "example/saxpy";
  d.topic = "example";
  d.description = "out[i] = a x[i] + y[i], one float per thread";
  d.claim_id = "saxpy-bandwidth";
  d.seed_file = source;
  d.size_unit = "elements";
  d.default_size = roofkit::problem_size{1} << 26;
  d.test_sizes = {1, 257, 100003};
  d.max_size = (roofkit::problem_size{1} << 31) - 1;
  d.launch = saxpy_launch;
  d.flops = [](roofkit::problem_size n) {
    return std::map<roofkit::precision, double>{{roofkit::precision::fp32, 2.0 * double(n)}};
  };
  d.minimal_bytes = [](roofkit::problem_size n) { return 12.0 * double(n); };
  d.device_bytes = [](roofkit::problem_size n) { return 12.0 * double(n); };
  d.flops_formula = "2 N";
  d.bytes_formula = "12 N";
  d.check = "double a x + y, |err| <= 1e-6 |want| + 1e-6";
  d.make = [] { return std::make_unique<saxpy_instance>(); };
  return std::vector<roofkit::kernel_descriptor>{d};
}};

const roofkit::claim_registration claims{[] {
  roofkit::seed_claim c;
  c.id = "saxpy-bandwidth";
  c.text = "saxpy streams at 100 GB/s or more";
  c.seed_file = source;
  c.seed_figure = "no number (an example claim)";
  c.subject = "example/saxpy";
  c.metric = roofkit::claim_metric::bandwidth_gbs;
  c.holds_if_at_least = true;
  c.threshold = 100;
  return std::vector<roofkit::seed_claim>{c};
}};

} // namespace

int main() {
  return roofkit::guarded_main("custom-suite", [] {
    const auto problems = roofkit::registry_problems();
    for (const auto& p : problems)
      std::cerr << "custom-suite: registry problem: " << p << '\n';
    if (!problems.empty())
      return 1;
    auto printer = roofkit::make_printer(roofkit::output_format::markdown, std::cout);
    printer->print(roofkit::kernel_list_table(roofkit::select_kernels("^example/")));
    printer->finish();
    if (roofkit::visible_device_count() == 0) {
      std::cout << "\nNo CUDA GPU visible: the suite is listed, nothing was run.\n";
      return 0;
    }
    roofkit::bench_options options;
    options.kernel_regex = "^example/";
    options.repetitions = 10;
    options.counters = false;         // timing only: no counter permissions needed
    options.measure_ceilings = false; // theoretical roofs
    const auto outcome = roofkit::run_bench(options);
    auto claims_printer = roofkit::make_printer(roofkit::output_format::markdown, std::cout);
    claims_printer->print(roofkit::claims_table(roofkit::evaluate_claims(outcome.result)));
    claims_printer->finish();
    return outcome.failed == 0 ? 0 : 1;
  });
}
