# Sourced by the roofkit-suite experiments, from the repository root: results go to
# $OUT/NAME (BUILD defaults to build/gpu), roofkit-suite is built and is $S, the data seed is
# fixed (ROOFKIT_SEED), and ncu_suite_dram collects the two DRAM metrics of the plain run, in
# one pass, with cache control all.
# Usage: source validation/lab/suite-lab.sh NAME
BUILD="${BUILD:-build/gpu}"
OUT="${OUT:-out}/$1"
mkdir -p "$OUT"
source validation/lab/build-targets.sh roofkit-suite
S="$BUILD/validation/programs/roofkit-suite"
export ROOFKIT_SEED="${ROOFKIT_SEED:-20261124}"
DRAM=dram__bytes_read.sum,dram__bytes_write.sum

# ncu_suite_dram FILE: $OUT/FILE.csv and .err; prints the exit code. The caller's environment
# (ROOFKIT_SUITE_*) reaches roofkit-suite.
ncu_suite_dram() {
  timeout 150 ncu --cache-control all --clock-control none --profile-from-start off \
    --print-units base --csv --metrics $DRAM "$S" plain >"$OUT/$1.csv" 2>"$OUT/$1.err"
  local rc=$?
  echo "${OUT##*/}: ncu, DRAM alone, $1 rc=$rc"
}
