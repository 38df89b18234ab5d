// The display order of the bundled suite's topics (folders of kernels/); `cliff` and any topic
// not named here come last, alphabetically.
#include "roofkit/registry.hpp"

namespace roofkit::kernels {

namespace {

const topic_order_registration registered_topic_order{
    {"global", "vector", "layout", "vadd", "gemm", "transpose", "reduce", "stencil", "smem",
     "divergence", "registers", "unified", "transfer", "readonly"}};

} // namespace

} // namespace roofkit::kernels
