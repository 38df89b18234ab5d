// The validation kernels behind case_runner (host code sees only validate_cases.hpp).
#include "validation_kernels.cuh"

namespace roofkit::validation {

std::vector<kernel_case> case_list() { return workload::cases(); }

struct case_runner::impl {
  workload work;
};

case_runner::case_runner() : impl_(std::make_unique<impl>()) {}
case_runner::~case_runner() = default;
void case_runner::launch(std::size_t i) { impl_->work.launch(i); }

} // namespace roofkit::validation
