// Registers the host transfers: pageable vs pinned host memory, host-to-device and
// device-to-host, over a size sweep. Each run is one cudaMemcpyAsync, timed like a kernel but
// never counter-profiled.
#include "common/text.hpp"

#include "common/array_kernel.hpp"
#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/fill.hpp"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* management_seed = "cuda-memory-management.txt";

class transfer_instance final : public kernel_instance {
public:
  transfer_instance(bool to_device, bool pinned) : to_device_(to_device), pinned_(pinned) {}
  ~transfer_instance() override { teardown(); }

  void setup(problem_size size) override {
    teardown();
    count_ = static_cast<std::size_t>(size) / sizeof(float);
    device_ = float_buffer(count_);
    if (pinned_)
      pinned_host_ = float_buffer(count_, memory_kind::pinned_host);
    else
      pageable_host_.assign(count_, 0.0f);
    fill_random(device_.data(), count_, fresh_seed(), value_kind::uniform);
    expected_ = device_.to_host();
    if (to_device_) {
      std::copy(expected_.begin(), expected_.end(), host());
      poison(device_.data(), device_.bytes());
    } else {
      std::fill_n(reinterpret_cast<unsigned char*>(host()), count_ * sizeof(float), 0xFF);
    }
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    ready_ = true;
  }

  void run(cudaStream_t stream) override {
    if (!ready_)
      throw runtime_error("run() before setup()");
    const std::size_t bytes = count_ * sizeof(float);
    if (to_device_)
      ROOFKIT_CUDA_CHECK(
          cudaMemcpyAsync(device_.data(), host(), bytes, cudaMemcpyHostToDevice, stream));
    else
      ROOFKIT_CUDA_CHECK(
          cudaMemcpyAsync(host(), device_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    ++runs_;
  }

  verification verify() override {
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    if (runs_ == 0)
      return verification{false, 0, 0, 0, "verify() before any run()"};
    if (to_device_)
      return compare_exact(device_.to_host(), expected_, "device copy = host source");
    return compare_exact(std::span<const float>(host(), count_), expected_,
                         "host copy = device source");
  }

  void corrupt_output() override {
    const std::size_t i = random_index(0, count_);
    if (to_device_) {
      corrupt_device_value(device_.data(), i);
    } else {
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
      host()[i] = corrupted(host()[i]);
    }
  }

  void teardown() override {
    device_.reset();
    pinned_host_.reset();
    pageable_host_.clear();
    pageable_host_.shrink_to_fit();
    expected_.clear();
    ready_ = false;
    runs_ = 0;
  }

  launch_config launch() const override {
    launch_config lc;
    lc.grid = {0, 0, 0};
    lc.block = {0, 0, 0};
    return lc;
  }
  const void* kernel_function() const override { return nullptr; }
  std::map<std::string, std::string> facts() const override {
    return {{"host_memory", pinned_ ? "pinned (cudaMallocHost)" : "pageable (std::vector)"},
            {"direction", to_device_ ? "host to device" : "device to host"}};
  }

private:
  float* host() { return pinned_ ? pinned_host_.data() : pageable_host_.data(); }
  const float* host() const { return pinned_ ? pinned_host_.data() : pageable_host_.data(); }

  bool to_device_, pinned_;
  std::size_t count_ = 0;
  std::uint64_t runs_ = 0;
  bool ready_ = false;
  float_buffer device_, pinned_host_;
  std::vector<float> pageable_host_, expected_;
};

std::string size_label(problem_size bytes) {
  if (bytes % (1 << 20) == 0)
    return cat(bytes >> 20, "MiB");
  return cat(bytes >> 10, "KiB");
}

const char* claim_of(bool to_device, bool pinned, problem_size bytes) {
  if (!to_device)
    return "pinned-small-d2h";
  if (bytes >= (problem_size{1} << 28))
    return pinned ? "pcie-ceiling" : "pageable-large";
  return "pinned-small-h2d";
}

kernel_descriptor transfer(bool to_device, bool pinned, problem_size bytes) {
  auto no_launch = [](problem_size) {
    launch_config lc;
    lc.grid = {0, 0, 0};
    lc.block = {0, 0, 0};
    return lc;
  };
  auto d =
      describe({.name = cat("transfer/", to_device ? "h2d" : "d2h", "-",
                            pinned ? "pinned" : "pageable", "-", size_label(bytes)),
                .description = cat(
                    "cudaMemcpyAsync of ", size_label(bytes), " ", to_device ? "from" : "to", " ",
                    pinned ? "pinned (cudaMallocHost)" : "pageable (malloc'd)", " host memory"),
                .claim_id = claim_of(to_device, pinned, bytes),
                .seed_file = management_seed,
                .size_unit = "bytes (a multiple of 4)",
                .default_size = bytes,
                .test_sizes = {4, 4096, 1 << 20},
                .launch = no_launch,
                .fp32_flops = [](problem_size) { return 0.0; },
                .flops_formula = "0",
                .minimal_bytes = [](problem_size n) { return double(n / 4 * 4); },
                .bytes_formula = "S (bytes over the host link)",
                .check = "bitwise: destination = source"});
  d.family = cat("transfer/", to_device ? "h2d" : "d2h", "-", pinned ? "pinned" : "pageable");
  d.parameter_name = "bytes";
  d.parameter = static_cast<double>(bytes);
  d.min_size = 4;
  d.max_size = problem_size{1} << 36;
  d.kind = measurement::transfer;
  d.counter_profiled = false;
  d.device_bytes = [](problem_size n) { return double(n); };
  d.make = [to_device, pinned] { return std::make_unique<transfer_instance>(to_device, pinned); };
  return d;
}

const kernel_registration registration{[] {
  std::vector<kernel_descriptor> all;
  for (bool to_device : {true, false})
    for (bool pinned : {false, true})
      for (problem_size bytes : {problem_size{64} << 10, problem_size{1} << 20,
                                 problem_size{16} << 20, problem_size{256} << 20})
        all.push_back(transfer(to_device, pinned, bytes));
  return all;
}};

} // namespace

} // namespace roofkit::kernels
