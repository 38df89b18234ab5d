// The claims the seed articles make about the bundled kernels, registered as data. The order
// and the ids match docs/seed-claims-source.md (a CPU test checks that every id appears there).
#include "roofkit/registry.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* coalescing = "global-memory-coalescing.txt";
constexpr const char* vectorized = "vectorized-memory-access.txt";
constexpr const char* memory_model = "memory-model-global-to-shared.txt";
constexpr const char* management = "cuda-memory-management.txt";
constexpr const char* notes = "cuda-notes-warps-occupancy-roofline-gemm.txt";

constexpr const char* ld_sectors = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* ld_requests = "smsp__sass_inst_executed_op_global_ld.sum";

seed_claim claim(std::string id, std::string text, const char* file, std::string figure,
                 std::string subject, std::string baseline, claim_metric metric,
                 std::optional<double> seed_value, bool at_least, double threshold,
                 std::vector<std::string> counters = {}) {
  seed_claim c;
  c.id = std::move(id);
  c.text = std::move(text);
  c.seed_file = file;
  c.seed_figure = std::move(figure);
  c.subject = std::move(subject);
  c.baseline = std::move(baseline);
  c.metric = metric;
  c.counters = std::move(counters);
  c.seed_value = seed_value;
  c.holds_if_at_least = at_least;
  c.threshold = threshold;
  return c;
}

std::vector<seed_claim> make_claims() {
  using m = claim_metric;
  const std::nullopt_t none = std::nullopt;
  return {
      // Global memory: coalescing, strides, alignment, 2-D access.
      claim("coalesced-sectors-per-request",
            "A coalesced warp load needs 4 sectors per request; the stride-32 load needs 32",
            coalescing,
            "4 vs 32 sectors/request (8,388,608 vs 67,108,864 sectors, 2,097,152 "
            "requests; 262144 x 256 threads, CC 9.0)",
            "global/stride-32", "global/coalesced", m::counter_quotient, 32.0, true, 24.0,
            {ld_sectors, ld_requests}),
      claim("stride-32-dram-reads",
            "The stride-32 kernel reads 8x the DRAM bytes of the coalesced one (4 of every 32 "
            "bytes fetched are used)",
            coalescing, "dram__sectors_read 67,110,368 vs 8,388,900 (8.0x), CC 8.9",
            "global/stride-32", "global/coalesced", m::counter_ratio, 8.0, true, 4.0,
            {"dram__bytes_read.sum"}),
      claim("stride-2-bandwidth", "Stride 2 gives about half the coalesced bandwidth", memory_model,
            "485 vs 920 GB/s (0.53x), RTX 4090", "global/stride-2", "global/stride-1",
            m::bandwidth_ratio, 0.53, false, 0.75),
      claim("stride-4-bandwidth", "Stride 4 gives about a quarter of the coalesced bandwidth",
            memory_model, "250 vs 920 GB/s (0.27x), RTX 4090", "global/stride-4", "global/stride-1",
            m::bandwidth_ratio, 0.27, false, 0.45),
      claim("stride-16-efficiency", "Stride 16 needs 16 transactions per warp: 6% efficiency",
            memory_model, "6% (access-pattern table)", "global/stride-16", "global/stride-1",
            m::bandwidth_ratio, 0.06, false, 0.15),
      claim("stride-32-bandwidth", "Stride 32 gives 3% of coalesced bandwidth (32.8x slower)",
            memory_model, "28 vs 920 GB/s (0.03x), RTX 4090", "global/stride-32", "global/stride-1",
            m::bandwidth_ratio, 0.03, false, 0.08),
      claim("stride-sweep",
            "Bandwidth falls as the stride between the addresses of a warp's threads grows",
            coalescing, "figure 3: bandwidth against stride (no numbers in the text)",
            "global/stride-8", "global/stride-1", m::bandwidth_ratio, none, false, 0.5),
      claim("misaligned-efficiency",
            "A misaligned warp access (arr[tid+1]) needs 2 transactions: 50% efficiency",
            memory_model, "2 transactions, 50% (access-pattern table)", "global/offset-1",
            "global/offset-0", m::bandwidth_ratio, 0.5, false, 0.75),
      claim("matrix-sectors-per-request",
            "Column-major access of a row-major 16384x16384 matrix needs 32 sectors per "
            "request, row-major access 4",
            coalescing,
            "268,435,456 vs 33,554,432 sectors for 8,388,608 requests (32 vs 4), "
            "512x512 blocks of 32x32, CC 9.0",
            "global/matrix-column-major", "global/matrix-row-major", m::counter_quotient, 32.0,
            true, 24.0, {ld_sectors, ld_requests}),
      // Vectorised access and layout.
      claim("vector-int2-instructions", "int2 loads halve the instructions a copy executes",
            vectorized, "2x fewer instructions (LDG.E.64 / STG.E.64)", "vector/copy-int2",
            "vector/copy-scalar", m::counter_ratio, 0.5, false, 0.7, {"smsp__inst_executed.sum"}),
      claim("vector-int4-instructions", "int4 loads cut the instructions of a copy 4x", vectorized,
            "4x fewer instructions (LDG.E.128 / STG.E.128)", "vector/copy-int4",
            "vector/copy-scalar", m::counter_ratio, 0.25, false, 0.4, {"smsp__inst_executed.sum"}),
      claim("vector-int4-faster", "Vectorised (int4) copies beat scalar copies in almost all cases",
            vectorized, "figure 2 (GB/s vs copy size): int4 above int2 above scalar",
            "vector/copy-int4", "vector/copy-scalar", m::speedup, none, true, 1.05),
      claim("float3-slower",
            "float3 (12-byte) elements load slower than float4: the load splits into 64+32 "
            "bits and loses alignment",
            notes, "no number (section on float3)", "vector/float3", "vector/float4",
            m::bandwidth_ratio, none, false, 0.95),
      claim("soa-coalesces",
            "Structure of arrays coalesces where an array of structures wastes bandwidth", notes,
            "no number (AoS vs SoA section)", "layout/soa-one-field", "layout/aos-one-field",
            m::speedup, none, true, 1.3),
      claim("vadd-bandwidth", "A coalesced vector add reaches about 91% of peak DRAM bandwidth",
            memory_model, "920 of 1008 GB/s (91%), RTX 4090", "vadd/plain", "",
            m::fraction_of_dram_roof, 0.91, true, 0.8),
      claim("grid-stride-loop",
            "A grid-stride loop decouples the grid from N and saves thread start-up cost", notes,
            "no number (grid-stride section)", "vadd/grid-stride", "vadd/plain", m::speedup, none,
            true, 1.0),
      // Shared memory: reductions, stencil, transpose, bank conflicts.
      claim("dot-shared-vs-atomic",
            "The shared-memory dot product (one atomic per block) is 24.6x the one-atomic-per-"
            "element version",
            memory_model, "0.13 ms vs 3.2 ms, 380 vs 15 GB/s (24.6x), 1M elements",
            "reduce/dot-shared-tree", "reduce/dot-atomic", m::speedup, 24.6, true, 5.0),
      claim("reduce-shared-vs-atomic",
            "A block tree reduction with one atomic per block is far faster than an atomic per "
            "element (the same as the dot product, for a sum)",
            memory_model, "24.6x for the dot product, 1M elements", "reduce/shared-tree",
            "reduce/atomic", m::speedup, 24.6, true, 5.0),
      claim("warp-shuffle-faster",
            "Warp shuffles finish a reduction in registers, without shared memory or "
            "__syncthreads",
            notes, "no number (warp shuffle section)", "reduce/warp-shuffle", "reduce/shared-tree",
            m::speedup, none, true, 1.0),
      claim("two-pass-no-contention",
            "A two-pass reduction avoids atomic contention at the cost of a second launch", notes,
            "no number (atomic vs two-pass section)", "reduce/two-pass", "reduce/shared-tree",
            m::speedup, none, true, 1.0),
      claim("smoothing-shared",
            "Shared-memory 3-point smoothing (halo tiles) is 2.3x the naive version", memory_model,
            "650 vs 280 GB/s (2.3x), 1M elements", "stencil/shared", "stencil/naive", m::speedup,
            2.3, true, 1.5),
      claim("transpose-shared",
            "Transposing through a shared-memory tile is 3x faster than the naive transpose",
            management, "21 us vs about 63 us (3x)", "transpose/shared", "transpose/naive",
            m::speedup, 3.0, true, 1.5),
      claim("transpose-padding",
            "Padding the tile to 33 columns removes bank conflicts: 60% faster", management,
            "13 us vs 21 us (1.6x)", "transpose/padded", "transpose/shared", m::speedup, 1.6, true,
            1.2),
      claim("bank-conflict-32-way",
            "A 32-way bank conflict serialises a warp's shared-memory access 32 times", notes,
            "32-way conflict for a column of a [32][32] float tile", "smem/bank-conflict-32",
            "smem/bank-conflict-1", m::counter_quotient, 32.0, true, 24.0,
            {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
             "smsp__inst_executed_op_shared_ld.sum"}),
      claim("bank-conflict-time",
            "The 32-way conflicting access takes about 32 times as long as the conflict-free one",
            notes, "32 serialised accesses", "smem/bank-conflict-1", "smem/bank-conflict-32",
            m::speedup, 32.0, true, 8.0),
      // Warps: divergence.
      claim("divergence-both-paths",
            "A warp split by if/else runs both paths one after the other (threads 0-23 A, 24-31 "
            "B)",
            notes, "two passes: the time of A plus the time of B", "divergence/warp-uniform",
            "divergence/split-24", m::speedup, 2.0, true, 1.5),
      claim("boundary-divergence-100",
            "The boundary check diverges 1 of 4 warps at N=100: a significant share", notes,
            "1 of 4 warps (25%)", "divergence/boundary-100", "", m::counter_quotient, 0.25, true,
            0.1,
            {"smsp__sass_branch_targets_threads_divergent.sum", "smsp__sass_branch_targets.sum"}),
      claim("boundary-divergence-1000", "The boundary check diverges 1 of 32 warps at N=1000",
            notes, "1 of 32 warps (about 3%)", "divergence/boundary-1000", "", m::counter_quotient,
            0.03, false, 0.1,
            {"smsp__sass_branch_targets_threads_divergent.sum", "smsp__sass_branch_targets.sum"}),
      claim("boundary-divergence-10000",
            "The boundary check diverges 1 of 313 warps at N=10000: negligible", notes,
            "1 of 313 warps (under 1%)", "divergence/boundary-10000", "", m::counter_quotient,
            0.0032, false, 0.02,
            {"smsp__sass_branch_targets_threads_divergent.sum", "smsp__sass_branch_targets.sum"}),
      // Registers and occupancy.
      claim("register-cliff",
            "33 registers per thread at 512 threads per block drop occupancy from 100% to 75% "
            "(31 registers: 4 blocks per SM; 33: 3)",
            notes, "100% -> 75% (A100: 65536 registers per SM, 2048 threads)",
            "registers/maxnreg-33", "registers/maxnreg-32", m::occupancy, 0.75, false, 0.75),
      claim("register-spill",
            "Spilling registers to local memory costs time (local memory lives in DRAM)", notes,
            "no number (register spilling section)", "registers/spill", "registers/maxnreg-33",
            m::speedup, none, false, 0.95),
      // Unified memory.
      claim("um-host-init-faults",
            "Managed memory first touched on the host makes the add kernel page-fault: about "
            "5 GB/s",
            management, "3 x 4,194,304 B in 2.6205 ms = 5 GB/s (nvprof)", "unified/host-init", "",
            m::bandwidth_gbs, 5.0, false, 100.0),
      claim("um-gpu-init",
            "Initialising managed memory with a GPU kernel gives the add kernel the bandwidth "
            "of ordinary device memory",
            management, "18.84 us, 670 GB/s (as without managed memory)", "unified/gpu-init",
            "unified/device", m::bandwidth_ratio, 1.0, true, 0.8),
      claim("um-prefetch",
            "Prefetching with cudaMemPrefetchAsync restores full bandwidth to unified memory",
            management, "the add kernel reaches the expected bandwidth (profile, no number)",
            "unified/prefetch", "unified/device", m::bandwidth_ratio, 1.0, true, 0.8),
      // Host transfers.
      claim("pinned-small-h2d",
            "Pinned host memory gives higher host-to-device bandwidth than pageable memory, "
            "most at small transfers",
            management, "bandwidthTest shmoo: pinned above pageable at small sizes",
            "transfer/h2d-pinned-1MiB", "transfer/h2d-pageable-1MiB", m::speedup, none, true, 1.2),
      claim("pinned-small-d2h",
            "Pinned host memory gives higher device-to-host bandwidth than pageable memory, "
            "most at small transfers",
            management, "bandwidthTest shmoo: pinned above pageable at small sizes",
            "transfer/d2h-pinned-1MiB", "transfer/d2h-pageable-1MiB", m::speedup, none, true, 1.2),
      claim("pageable-large",
            "For large transfers pageable memory comes close to pinned (the driver overlaps "
            "staging and DMA)",
            management, "bandwidthTest shmoo: the curves meet at large sizes",
            "transfer/h2d-pageable-256MiB", "transfer/h2d-pinned-256MiB", m::bandwidth_ratio, none,
            true, 0.7),
      claim("pcie-ceiling",
            "About 12 GB/s is the most a host-to-device copy reaches (PCIe Gen3, 16 GB/s "
            "theoretical)",
            management, "about 12 GB/s (PCIe Gen3)", "transfer/h2d-pinned-256MiB", "",
            m::bandwidth_gbs, 12.0, false, 16.0),
      // Read-only path.
      claim("readonly-ldg",
            "__ldg sends loads through the read-only (texture) cache, best when a warp reads "
            "the same address",
            management, "no number (read-only cache section)", "readonly/ldg", "readonly/plain",
            m::speedup, none, true, 1.05),
      claim("readonly-restrict",
            "const __restrict__ pointers let the compiler use the read-only path like __ldg",
            management, "no number (read-only cache section)", "readonly/restrict",
            "readonly/plain", m::speedup, none, true, 1.05),
      // GEMM.
      claim("gemm-tiling-traffic-16",
            "Shared-memory tiling with T=16 cuts global memory traffic to 1/16 of the naive "
            "GEMM",
            notes, "traffic / T: 1/16 for T=16", "gemm/tiled-16", "gemm/naive", m::counter_ratio,
            1.0 / 16, false, 0.1, {ld_requests}),
      claim("gemm-tiling-traffic-32", "Tiling with T=32 cuts global memory traffic to 1/32", notes,
            "traffic / T: 1/32 for T=32", "gemm/tiled-32", "gemm/naive", m::counter_ratio, 1.0 / 32,
            false, 0.05, {ld_requests}),
      claim("gemm-tiling-faster",
            "The naive GEMM is memory-bound; tiling through shared memory makes it faster", notes,
            "no number (roofline and tiling sections)", "gemm/tiled-32", "gemm/naive", m::speedup,
            none, true, 1.2),
  };
}

const claim_registration seed_claims_registration{make_claims};

} // namespace

} // namespace roofkit::kernels
