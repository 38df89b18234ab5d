# Sourced by the lab's A/B scripts after their build: the GPU tests matching TESTS (default the
# profiler's and profile's) under $BUILD, bounded by the seconds given, the JUnit report and log in
# $OUT/gpu-tests.xml and $OUT/gpu-tests.log; prints the summary and the failures' context.
# Usage: source validation/lab/profile-gpu-tests.sh SECONDS
timeout "$1" ctest --test-dir "$BUILD" -L gpu -R "${TESTS:-profile_app|profiler_counts}" \
  --output-junit "$OUT/gpu-tests.xml" >"$OUT/gpu-tests.log" 2>&1
echo "gpu tests rc=$? $(grep -E 'tests passed|tests failed' "$OUT/gpu-tests.log")"
grep -B2 -A25 -E 'Failure|\*\*\*Failed|Timeout' "$OUT/gpu-tests.log" | head -60
echo "tests done at $SECONDS s"
