#include "common/array_kernel.hpp"

#include "common/fill.hpp"
#include "roofkit/core.hpp"

namespace roofkit::kernels {

namespace {

class array_instance final : public kernel_instance {
public:
  explicit array_instance(array_kernel spec) : spec_(std::move(spec)) {}
  ~array_instance() override { teardown(); }

  void setup(problem_size size) override {
    teardown();
    size_ = size;
    runs_ = 0;
    for (const auto& input : spec_.inputs) {
      float_buffer b(input.count(size));
      fill_random(b.data(), b.size(), fresh_seed(), input.values);
      inputs_.push_back(std::move(b));
    }
    for (const auto& count : spec_.outputs) {
      float_buffer b(count(size));
      poison(b.data(), b.bytes());
      outputs_.push_back(std::move(b));
    }
    in_.clear();
    out_.clear();
    for (auto& b : inputs_)
      in_.push_back(b.data());
    for (auto& b : outputs_)
      out_.push_back(b.data());
    if (spec_.after_setup)
      spec_.after_setup(out_, size);
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void run(cudaStream_t stream) override {
    if (in_.empty() && out_.empty())
      throw runtime_error("run() before setup()");
    spec_.run(in_, out_, size_, runs_, stream);
    ++runs_;
  }

  verification verify() override {
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    if (runs_ == 0) {
      verification v;
      v.message = "verify() before any run()";
      return v;
    }
    host_arrays in, out;
    for (const auto& b : inputs_)
      in.push_back(b.to_host());
    for (const auto& b : outputs_)
      out.push_back(b.to_host());
    return spec_.check(in, out, size_, runs_);
  }

  void corrupt_output() override {
    checked_range r{0, 0, outputs_.empty() ? 0 : outputs_[0].size()};
    if (spec_.checked)
      r = spec_.checked(size_, runs_);
    if (r.output >= outputs_.size() || r.count == 0)
      throw runtime_error("corrupt_output(): nothing to corrupt");
    corrupt_device_value(outputs_[r.output].data(), random_index(r.first, r.count));
  }

  void teardown() override {
    inputs_.clear();
    outputs_.clear();
    in_.clear();
    out_.clear();
  }

  launch_config launch() const override {
    return with_attributes(spec_.launch(size_), spec_.function);
  }

  const void* kernel_function() const override { return spec_.function; }

  std::map<std::string, std::string> facts() const override {
    return function_facts(spec_.function, spec_.launch(size_));
  }

private:
  array_kernel spec_;
  problem_size size_ = 0;
  std::uint64_t runs_ = 0;
  std::vector<float_buffer> inputs_, outputs_;
  device_arrays in_, out_;
};

} // namespace

std::unique_ptr<kernel_instance> make_array_instance(const array_kernel& spec) {
  return std::make_unique<array_instance>(spec);
}

kernel_descriptor with_array_kernel(kernel_descriptor d, array_kernel spec) {
  spec.launch = d.launch;
  d.device_bytes = [inputs = spec.inputs, outputs = spec.outputs](problem_size n) {
    double floats = 0;
    for (const auto& i : inputs)
      floats += static_cast<double>(i.count(n));
    for (const auto& o : outputs)
      floats += static_cast<double>(o(n));
    return floats * sizeof(float);
  };
  d.make = [spec = std::move(spec)] { return make_array_instance(spec); };
  return d;
}

kernel_descriptor describe(kernel_facts f) {
  kernel_descriptor d;
  d.name = std::move(f.name);
  d.topic = d.name.substr(0, d.name.find('/'));
  d.description = std::move(f.description);
  d.claim_id = std::move(f.claim_id);
  d.seed_file = std::move(f.seed_file);
  d.size_unit = std::move(f.size_unit);
  d.default_size = f.default_size;
  d.test_sizes = std::move(f.test_sizes);
  d.launch = std::move(f.launch);
  d.flops = [flops = std::move(f.fp32_flops)](problem_size n) {
    return std::map<precision, double>{{precision::fp32, flops(n)}};
  };
  d.flops_formula = std::move(f.flops_formula);
  d.minimal_bytes = std::move(f.minimal_bytes);
  d.bytes_formula = std::move(f.bytes_formula);
  d.check = std::move(f.check);
  return d;
}

launch_config launch_1d(std::int64_t n, unsigned block, std::int64_t max_blocks) {
  launch_config lc;
  std::int64_t blocks = (n + block - 1) / block;
  if (blocks < 1)
    blocks = 1;
  if (max_blocks > 0 && blocks > max_blocks)
    blocks = max_blocks;
  lc.grid = {static_cast<std::uint32_t>(blocks), 1, 1};
  lc.block = {block, 1, 1};
  return lc;
}

launch_config launch_2d(std::int64_t nx, std::int64_t ny, unsigned tile_x, unsigned tile_y,
                        unsigned block_x, unsigned block_y) {
  launch_config lc;
  lc.grid = {static_cast<std::uint32_t>((nx + tile_x - 1) / tile_x),
             static_cast<std::uint32_t>((ny + tile_y - 1) / tile_y), 1};
  lc.block = {block_x, block_y, 1};
  return lc;
}

} // namespace roofkit::kernels
