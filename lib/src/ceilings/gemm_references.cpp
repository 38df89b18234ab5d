// The references beside the ceilings: cuBLAS GEMMs (FP32, FP64, TF32, BF16, FP16) and a
// cuBLASLt FP8 GEMM, loaded at run time so roofkit neither links nor needs them.
#include <algorithm>
#include <cstring>

#include <cublasLt.h>
#include <cublas_v2.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include "measure_context.hpp"

namespace roofkit::ceilings_detail {

namespace {

namespace ck = ceiling_kernels;

class shared_library {
public:
  explicit shared_library(std::initializer_list<const char*> sonames) {
    for (const char* s : sonames)
      if ((handle_ = dlopen(s, RTLD_NOW | RTLD_LOCAL)))
        break;
  }
  ~shared_library() {
    if (handle_)
      dlclose(handle_);
  }
  shared_library(const shared_library&) = delete;
  shared_library& operator=(const shared_library&) = delete;
  template <class F> F get(const char* name) const {
    return handle_ ? reinterpret_cast<F>(dlsym(handle_, name)) : nullptr;
  }
  bool loaded() const { return handle_ != nullptr; }

private:
  void* handle_ = nullptr;
};

void check(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw runtime_error(fmt::format("{} failed: cuBLAS status {}", call, int(s)));
}

struct gemm_kind {
  const char* name;
  precision prec;
  cudaDataType_t ab, c;
  cublasComputeType_t compute;
  int fill_kind; // ck::fill_random kind of A and B
  std::size_t elem;
  bool lt_fp8;
};

// The cuBLAS and cuBLASLt entry points, looked up at run time (null where missing).
struct blas_api {
  using gemm_ex_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                        int, int, const void*, const void*, cudaDataType, int,
                                        const void*, cudaDataType, int, const void*, void*,
                                        cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  shared_library blas{"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  shared_library lt{"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"};
  decltype(&cublasCreate_v2) create = blas.get<decltype(&cublasCreate_v2)>("cublasCreate_v2");
  decltype(&cublasDestroy_v2) destroy = blas.get<decltype(&cublasDestroy_v2)>("cublasDestroy_v2");
  decltype(&cublasSetStream_v2) set_stream =
      blas.get<decltype(&cublasSetStream_v2)>("cublasSetStream_v2");
  gemm_ex_fn gemm_ex = blas.get<gemm_ex_fn>("cublasGemmEx");
  decltype(&cublasLtCreate) lt_create = lt.get<decltype(&cublasLtCreate)>("cublasLtCreate");
  decltype(&cublasLtDestroy) lt_destroy = lt.get<decltype(&cublasLtDestroy)>("cublasLtDestroy");
  decltype(&cublasLtMatmulDescCreate) desc_create =
      lt.get<decltype(&cublasLtMatmulDescCreate)>("cublasLtMatmulDescCreate");
  decltype(&cublasLtMatmulDescDestroy) desc_destroy =
      lt.get<decltype(&cublasLtMatmulDescDestroy)>("cublasLtMatmulDescDestroy");
  decltype(&cublasLtMatmulDescSetAttribute) desc_set =
      lt.get<decltype(&cublasLtMatmulDescSetAttribute)>("cublasLtMatmulDescSetAttribute");
  decltype(&cublasLtMatrixLayoutCreate) layout_create =
      lt.get<decltype(&cublasLtMatrixLayoutCreate)>("cublasLtMatrixLayoutCreate");
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy =
      lt.get<decltype(&cublasLtMatrixLayoutDestroy)>("cublasLtMatrixLayoutDestroy");
  decltype(&cublasLtMatmulPreferenceCreate) pref_create =
      lt.get<decltype(&cublasLtMatmulPreferenceCreate)>("cublasLtMatmulPreferenceCreate");
  decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy =
      lt.get<decltype(&cublasLtMatmulPreferenceDestroy)>("cublasLtMatmulPreferenceDestroy");
  decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set =
      lt.get<decltype(&cublasLtMatmulPreferenceSetAttribute)>(
          "cublasLtMatmulPreferenceSetAttribute");
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic =
      lt.get<decltype(&cublasLtMatmulAlgoGetHeuristic)>("cublasLtMatmulAlgoGetHeuristic");
  decltype(&cublasLtMatmul) matmul = lt.get<decltype(&cublasLtMatmul)>("cublasLtMatmul");

  bool have_blas() const { return create && destroy && set_stream && gemm_ex; }
  bool have_lt() const {
    return lt_create && lt_destroy && desc_create && desc_destroy && desc_set && layout_create &&
           layout_destroy && pref_create && pref_destroy && pref_set && heuristic && matmul;
  }
};

const gemm_kind gemm_kinds[] = {
    {"cuBLAS SGEMM (FP32)", precision::fp32, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 0, 4,
     false},
    {"cuBLAS DGEMM (FP64)", precision::tensor_fp64, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 1,
     8, false},
    {"cuBLAS TF32 GEMM", precision::tensor_tf32, CUDA_R_32F, CUDA_R_32F,
     CUBLAS_COMPUTE_32F_FAST_TF32, 0, 4, false},
    {"cuBLAS BF16 GEMM", precision::tensor_fp16, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 3, 2,
     false},
    {"cuBLAS FP16 GEMM", precision::tensor_fp16, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2,
     false},
    {"cuBLASLt FP8 e4m3 GEMM", precision::tensor_fp8, CUDA_R_8F_E4M3, CUDA_R_16BF,
     CUBLAS_COMPUTE_32F, 4, 1, true},
};

} // namespace

std::vector<ceiling_measurement> measure_gemm_references(measure_context& ctx,
                                                         const std::vector<ceiling>& theoretical) {
  std::vector<ceiling_measurement> out;
  const blas_api api;
  const bool have_blas = api.have_blas();
  const bool have_lt = api.have_lt() && ctx.prop().major >= 9;
  if (!have_blas)
    return out;

  const std::vector<int> sizes =
      ctx.quick() ? std::vector<int>{8192} : std::vector<int>{4096, 6144, 8192};
  const int nmax = sizes.back();
  std::size_t free_bytes = 0, total = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  const std::size_t elems = std::size_t(nmax) * nmax;
  if (3 * elems * 8 + (64u << 20) > free_bytes)
    return out;
  device_buffer a(elems * 8), b(elems * 8), c(elems * 8), workspace(64u << 20);
  cublasHandle_t h = nullptr;
  check(api.create(&h), "cublasCreate");
  cublasLtHandle_t lth = nullptr;
  try {
    if (have_lt)
      check(api.lt_create(&lth), "cublasLtCreate");
    for (const auto& k : gemm_kinds) {
      if (k.lt_fp8 && !have_lt)
        continue;
      ck::fill_random(a.ptr, elems, k.fill_kind, 1, nullptr);
      ck::fill_random(b.ptr, elems, k.fill_kind, 2, nullptr);
      ROOFKIT_CUDA_CHECK(cudaMemset(c.ptr, 0, elems * 8));
      ROOFKIT_CUDA_CHECK(cudaGetLastError());
      ceiling_measurement best;
      for (int n : sizes) {
        shaped_launch launch;
        cublasLtMatmulDesc_t desc = nullptr;
        cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
        cublasLtMatmulPreference_t pref = nullptr;
        cublasLtMatmulHeuristicResult_t algo{};
        const float alpha = 1, beta = 0;
        const double dalpha = 1, dbeta = 0;
        const void* pa = k.compute == CUBLAS_COMPUTE_64F ? static_cast<const void*>(&dalpha)
                                                         : static_cast<const void*>(&alpha);
        const void* pb = k.compute == CUBLAS_COMPUTE_64F ? static_cast<const void*>(&dbeta)
                                                         : static_cast<const void*>(&beta);
        if (!k.lt_fp8) {
          launch = [&, n, pa, pb](const ck::shape& s) {
            check(api.set_stream(h, s.stream), "cublasSetStream");
            check(api.gemm_ex(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, pa, a.ptr, k.ab, n, b.ptr, k.ab,
                              n, pb, c.ptr, k.c, n, k.compute, CUBLAS_GEMM_DEFAULT),
                  "cublasGemmEx");
          };
        } else {
          // FP8 needs A transposed (TN); D in BF16.
          check(api.desc_create(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
          const cublasOperation_t t = CUBLAS_OP_T, nn = CUBLAS_OP_N;
          check(api.desc_set(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t), "DescSetAttribute");
          check(api.desc_set(desc, CUBLASLT_MATMUL_DESC_TRANSB, &nn, sizeof nn),
                "DescSetAttribute");
          check(api.layout_create(&la, k.ab, n, n, n), "cublasLtMatrixLayoutCreate");
          check(api.layout_create(&lb, k.ab, n, n, n), "cublasLtMatrixLayoutCreate");
          check(api.layout_create(&lc, k.c, n, n, n), "cublasLtMatrixLayoutCreate");
          check(api.pref_create(&pref), "cublasLtMatmulPreferenceCreate");
          const std::size_t ws = 64u << 20;
          check(api.pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws),
                "PreferenceSetAttribute");
          int found = 0;
          check(api.heuristic(lth, desc, la, lb, lc, lc, pref, 1, &algo, &found),
                "cublasLtMatmulAlgoGetHeuristic");
          if (found == 0)
            throw runtime_error("cuBLASLt found no FP8 algorithm");
          launch = [&, desc, la, lb, lc](const ck::shape& s) {
            check(api.matmul(lth, desc, &alpha, a.ptr, la, b.ptr, lb, &beta, c.ptr, lc, c.ptr, lc,
                             &algo.algo, workspace.ptr, 64u << 20, s.stream),
                  "cublasLtMatmul");
          };
        }
        const timed t = ctx.run(launch, 1, 1, 2, std::min(ctx.repetitions(), 10));
        // cuBLAS kernels carry no clock sample: probe the SM clock right after the GEMMs.
        const double mhz = observe_sm_clock(ctx.device()).mhz;
        auto m = make_measurement(
            k.name, k.prec == precision::tensor_int8 ? "OP/s" : "FLOP/s", 2.0 * n * double(n) * n,
            t,
            theoretical_roof(theoretical, k.prec, std::nullopt)
                ? theoretical_roof(theoretical, k.prec, std::nullopt)->value
                : 0,
            fmt::format("{}^3, {}, random inputs in [-1, 1); best of {}; median of {}", n,
                        k.lt_fp8 ? "cublasLtMatmul TN, BF16 output, heuristic algorithm"
                                 : "cublasGemmEx, default algorithm",
                        sizes.size() > 1 ? "4096^3, 6144^3, 8192^3" : "8192^3 only (quick run)",
                        t.time.repetitions));
        if (desc) {
          api.layout_destroy(la);
          api.layout_destroy(lb);
          api.layout_destroy(lc);
          api.pref_destroy(pref);
          api.desc_destroy(desc);
        }
        m.sm_clock_mhz = mhz;
        if (m.value > best.value)
          best = m;
      }
      best.prec = k.prec;
      best.reference = true;
      out.push_back(best);
    }
  } catch (...) {
    if (lth)
      api.lt_destroy(lth);
    api.destroy(h);
    throw;
  }
  if (lth)
    api.lt_destroy(lth);
  api.destroy(h);
  return out;
}

} // namespace roofkit::ceilings_detail
