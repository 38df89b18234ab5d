# roofline-cuda merge: two rank runs of a three-rank job (rank 2 without a file), a chart, bad input.
set(mg_in ${PROJECT_SOURCE_DIR}/tests/data/ranks)
set(mg_out ${CMAKE_CURRENT_BINARY_DIR})

roofkit_cli_test(NAME merge.two_ranks COMMAND roofline-cuda merge ${mg_in}/job.rank0.json ${mg_in}/job.rank1.json -o ${mg_out}/merge-job.json --plot ${mg_out}/merge-job.svg
  STDOUT "## Ranks.*\\| +0 \\| ok .*\\| +1 \\| ended early \\(crashed or killed\\) .*\\| +2 \\| no file .*load imbalance \\(max / mean compute time\\): 1\\.333.*## Kernels across ranks"
  STDERR "6 profiled launches of 3 ranks written to")
roofkit_cli_test(NAME merge.json_tables COMMAND roofline-cuda merge ${mg_in}/job.rank0.json -o ${mg_out}/merge-one.json --json
  STDOUT "\"ranks\"")
roofkit_cli_test(NAME merge.nothing_readable COMMAND roofline-cuda merge ${mg_in}/README.md -o ${mg_out}/merge-bad.json
  EXIT_CODE 2 STDERR "none of the 1 files given is a readable run file")
roofkit_cli_test(NAME merge.needs_output COMMAND roofline-cuda merge ${mg_in}/job.rank0.json
  EXIT_CODE 2)
