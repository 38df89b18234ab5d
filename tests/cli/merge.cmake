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
# profile --from-records with the ranks' logs beside the launcher's: one run per rank, merged.
roofkit_cli_test(NAME merge.profile_from_rank_records COMMAND roofline-cuda profile --from-records ${mg_in}/job.records -o ${mg_out}/merge-records.json
  STDERR "rank 0: 3 launches, 2 profiled, 1 collective launches; run written to .*merge-records\\.rank0\\.json.*rank 1: at least 2 launches, 2 profiled, 1 collective launches \\(ended early: crashed or killed\\).*merged run of 2 ranks written to"
  STDOUT_EMPTY)
roofkit_cli_test(NAME merge.collectives_chart COMMAND roofline-cuda merge ${mg_in}/job.rank0.json ${mg_in}/job.rank1.json -o ${mg_out}/merge-coll.json --collectives-plot ${mg_out}/merge-coll.svg --interconnect ${mg_in}/interconnect.json
  STDOUT "## Ranks")
roofkit_cli_test(NAME merge.bad_interconnect COMMAND roofline-cuda merge ${mg_in}/job.rank0.json -o ${mg_out}/merge-x.json --collectives-plot ${mg_out}/merge-x.svg --interconnect ${mg_in}/job.rank0.json
  EXIT_CODE 2 STDERR "is not an interconnect measurement")
