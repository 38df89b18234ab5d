# Sourced by the lab scripts: configures $BUILD for the H100 and builds the targets named, with
# the log in $OUT/build.log; exits with its tail on failure.
# Usage: BUILD=dir OUT=dir; source validation/lab/build-targets.sh TARGET...
source scripts/cuda-env.sh
{ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" &&
    cmake --build "$BUILD" -j 16 --target "$@"; } >"$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; exit 1; }
