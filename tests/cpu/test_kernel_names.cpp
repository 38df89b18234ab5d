// Display names of kernels: recognisable, short, unique within a run (issue 37).
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "roofkit/run.hpp"

using roofkit::display_kernel_name;

namespace {

roofkit::run run_of(const std::vector<std::string>& names) {
  roofkit::run r;
  for (const auto& n : names) {
    roofkit::kernel_result k;
    k.name = n;
    r.kernels.push_back(k);
  }
  return r;
}

} // namespace

TEST(KernelNames, PlainFunctionLosesReturnTypeNamespacesAndArguments) {
  EXPECT_EQ(display_kernel_name("void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<"
                                "float, float, float, at::native::(anonymous namespace)::"
                                "SoftMaxForwardEpilogue, long, 4>(float*, float const*, long)"),
            "cunn_SoftMaxForwardReg");
  EXPECT_EQ(display_kernel_name("void at::native::(anonymous namespace)::vectorized_layer_norm_"
                                "kernel<float, float, false>(int, float, float const*, float "
                                "const*, float const*, float*, float*, float*)"),
            "vectorized_layer_norm_kernel");
  EXPECT_EQ(display_kernel_name("void fft2d_r2c_64x64<float>(float2*, float const*, int, int, "
                                "int, int, int, int, int, int) [grid (64, 128, 1) block (128, 1, "
                                "1)]"),
            "fft2d_r2c_64x64");
  EXPECT_EQ(display_kernel_name("global/stride-32"), "global/stride-32");
  EXPECT_EQ(display_kernel_name("_Z6kernelPf"), "_Z6kernelPf");
}

TEST(KernelNames, LambdaKernelsAreNamedByTheirTemplate) {
  EXPECT_EQ(display_kernel_name("void at::elementwise_kernel<128, 2, void at::gpu_kernel_impl_"
                                "nocast<at::CUDAFunctor_add<float>>(at::TensorIteratorBase &, "
                                "const T1 &)::[lambda(int) (instance 1)]>(int, T3)"),
            "elementwise_kernel");
}

TEST(KernelNames, LibraryKernelsGetAReadableForm) {
  EXPECT_EQ(display_kernel_name("nvjet_sm90_tst_320x128_64x3_2x1_v_bz_coopB_bias_TNT"),
            "GEMM, tile 320x128 (cuBLAS nvjet)");
  EXPECT_EQ(
      display_kernel_name("cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8"),
      "GEMM bf16, tile 64x64 (CUTLASS)");
  // cuBLAS's CUTLASS kernels come wrapped in cutlass::Kernel2<...> (seen in a cuBLAS SGEMM).
  EXPECT_EQ(display_kernel_name("void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
                                "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)"),
            "GEMM fp32, tile 256x128 (CUTLASS)");
  EXPECT_EQ(display_kernel_name("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_"
                                "warpsize4x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas"),
            "GEMM fp32, tile 256x128 (cuBLAS)");
  EXPECT_EQ(display_kernel_name("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<"
                                "128, 128, 64, 4, false, false, cutlass::bfloat16_t>, false, true,"
                                " false>(pytorch_flash::Flash_fwd_params)"),
            "attention fwd (flash, flash_fwd_kernel)");
  EXPECT_EQ(display_kernel_name("cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob"
                                "_3_64x64x128_4x1x1_kernel0_0"),
            "attention bwd (cuDNN sdpa, cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_"
            "f16_knob_3_64x64x128_4x1x1_kernel0_0)");
}

TEST(KernelNames, TemplateArgumentsKeptOnlyWhereTheyTellKernelsApart) {
  const auto r = run_of(
      {"void at::native::vectorized_elementwise_kernel<4, at::native::GeluFunctor<float>, "
       "std::array<char*, 2ul> >(int, at::native::GeluFunctor<float>, std::array<char*, 2ul>)",
       "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, "
       "std::array<char*, 3ul> >(int, at::native::MulFunctor<float>, std::array<char*, 3ul>)",
       "void at::elementwise_kernel<128, 2, void at::gpu_kernel_impl_nocast<at::CUDAFunctor_add<"
       "float>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
       "void at::elementwise_kernel<128, 2, void at::gpu_kernel_impl_nocast<at::CUDAFunctor_mul<"
       "float>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)",
       "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, "
       "false>(int)"});
  const auto labels = roofkit::kernel_labels(r);
  EXPECT_EQ(labels[0], "vectorized_elementwise_kernel<GeluFunctor>");
  EXPECT_EQ(labels[1], "vectorized_elementwise_kernel<MulFunctor>");
  EXPECT_EQ(labels[2], "elementwise_kernel<CUDAFunctor_add>");
  EXPECT_EQ(labels[3], "elementwise_kernel<CUDAFunctor_mul>");
  EXPECT_EQ(labels[4], "vectorized_layer_norm_kernel");
}

TEST(KernelNames, SameNameTwiceIsNumberedWithItsGrid) {
  auto r = run_of({"void fft2d_r2c_64x64<float>(float2*) [grid (64, 128, 1) block (128, 1, 1)]",
                   "void fft2d_r2c_64x64<float>(float2*) [grid (64, 32, 1) block (128, 1, 1)]",
                   "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT",
                   "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"});
  r.kernels[1].launch.grid = {64, 32, 1};
  const auto labels = roofkit::kernel_labels(r);
  EXPECT_EQ(labels[0], "fft2d_r2c_64x64");
  EXPECT_EQ(labels[1], "fft2d_r2c_64x64 #2 grid 64x32x1");
  EXPECT_EQ(labels[2], "GEMM, tile 256x128 (cuBLAS nvjet)");
  EXPECT_EQ(labels[3], "GEMM, tile 256x128 (cuBLAS nvjet) #2 grid 1");
}

TEST(KernelNames, LabelsStayUniqueWhenCutToAWidth) {
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i)
    names.push_back("a_very_long_kernel_name_that_is_cut_at_twenty_chars_" + std::to_string(i % 7));
  names.push_back("a_very_long_kernel_name_that_is_cut_at_twenty_chars_0");
  const auto r = run_of(names);
  for (std::size_t width : {12u, 20u, 28u, 60u}) {
    const auto labels = roofkit::kernel_labels(r, width);
    EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size()) << width;
  }
}

TEST(KernelNames, LabelsACutMakesAlikeKeepTheEndThatTellsThemApart) {
  const auto r = run_of(
      {"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nt_align1>(cutlass_80_simt_"
       "sgemm_256x128_8x4_nt_align1::Params)",
       "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma_aligna4_"
       "alignc4_execute_kernel__5x_cublas",
       "void at::native::vectorized_elementwise_kernel<4, at::native::GeluFunctor<float>, "
       "std::array<char*, 2ul> >(int, at::native::GeluFunctor<float>, std::array<char*, 2ul>)",
       "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, "
       "std::array<char*, 3ul> >(int, at::native::MulFunctor<float>, std::array<char*, 3ul>)",
       "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_"
       "alignc4_execute_kernel__5x_cublas"});
  const auto labels = roofkit::kernel_labels(r, 28);
  EXPECT_EQ(labels[4], "GEMM fp32, tile 128x128 (cu\u2026"); // alike no other: cut at the end
  EXPECT_EQ(labels[0], "GEMM fp32\u2026256x128 (CUTLASS)");
  EXPECT_EQ(labels[1], "GEMM fp32\u2026256x128 (cuBLAS)");
  EXPECT_EQ(labels[2], "vectorized_ele\u2026<GeluFunctor>");
  EXPECT_EQ(labels[3], "vectorized_elem\u2026<MulFunctor>");
  for (const auto& l : labels) // the ellipsis is one character of three bytes
    EXPECT_LE(l.size() - (l.find("\u2026") == std::string::npos ? 0 : 2), 28u) << l;
}
