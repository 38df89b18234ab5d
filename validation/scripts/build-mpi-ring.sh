#!/usr/bin/env bash
# Builds validation/apps/mpi_ring.cu: compiled by nvcc with Open MPI's include flags (mpicxx
# --showme:compile), linked by mpicxx with the CUDA runtime, into OUTDIR (default build/mpi).
# Not part of the CMake build: CI has no MPI.
# Usage: validation/scripts/build-mpi-ring.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR="${1:-build/mpi}"
mkdir -p "$OUTDIR"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
CUDA_HOME="${CUDA_HOME:-$(dirname "$(dirname "$NVCC")")}"
# shellcheck disable=SC2046
"$NVCC" -O2 -arch=sm_90 -std=c++17 $(mpicxx --showme:compile) -c validation/apps/mpi_ring.cu \
  -o "$OUTDIR/mpi_ring.o"
mpicxx "$OUTDIR/mpi_ring.o" -L"$CUDA_HOME/lib64" -Wl,-rpath,"$CUDA_HOME/lib64" -lcudart \
  -o "$OUTDIR/mpi_ring"
echo "$OUTDIR/mpi_ring"
