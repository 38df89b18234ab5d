# Sourced by the inplace lab scripts: builds validation/lab/inplace.cu into $OUT/inplace, linked
# with roofkit's library of $BUILD (default build/gpu) for its INPLACE_FLUSH=3 mode; exits on
# failure.
source scripts/cuda-env.sh
nvcc -O2 -arch=sm_90 -std=c++20 -I lib/include -o "$OUT/inplace" validation/lab/inplace.cu \
  "${BUILD:-build/gpu}/lib/libroofkit.a" -L"$CUDA_HOME/extras/CUPTI/lib64" -lcupti -lcuda ||
  exit 1
