# Command-line tests of bench, ceilings and claims (no GPU: the GPU paths are in gpu-check.sh).
set(h100_run ${PROJECT_SOURCE_DIR}/data/runs/h100-sxm.json)

roofkit_cli_test(NAME bench.without_gpu COMMAND roofline-cuda bench -q
  EXIT_CODE 3 STDOUT_EMPTY STDERR "no CUDA GPU visible: bench needs one")
set_tests_properties(cli.bench.without_gpu PROPERTIES ENVIRONMENT "CUDA_VISIBLE_DEVICES=")
roofkit_cli_test(NAME bench.bad_regex COMMAND roofline-cuda bench --kernel "("
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1)
roofkit_cli_test(NAME bench.bad_reps COMMAND roofline-cuda bench --reps 0
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--reps")
roofkit_cli_test(NAME bench.bad_size COMMAND roofline-cuda bench --kernel "^gemm/naive$" --size 0
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1)
roofkit_cli_test(NAME bench.bad_plot_extension COMMAND roofline-cuda bench --plot out.bmp
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "out.bmp")
roofkit_cli_test(NAME ceilings.without_gpu COMMAND roofline-cuda ceilings
  EXIT_CODE 3 STDOUT_EMPTY)
set_tests_properties(cli.ceilings.without_gpu PROPERTIES ENVIRONMENT "CUDA_VISIBLE_DEVICES=")

roofkit_cli_test(NAME claims.recorded_run COMMAND roofline-cuda claims ${h100_run}
  STDOUT "## Seed claims.*stride-32-bandwidth.*RTX 4090")
roofkit_cli_test(NAME claims.csv COMMAND roofline-cuda claims ${h100_run} --csv
  STDOUT "^id,claim,seed_figure,value,verdict,threshold,evidence\n")
roofkit_cli_test(NAME claims.missing_run COMMAND roofline-cuda claims no-such-run.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no-such-run.json")
roofkit_cli_test(NAME claims.bad_notes COMMAND roofline-cuda claims ${h100_run} -o x.md
  --notes ${PROJECT_SOURCE_DIR}/tests/data/runs/sample.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "unknown claim id")

roofkit_cli_test(NAME report.recorded_label COMMAND roofline-cuda report --recorded ${h100_run}
  STDOUT "Recorded on vm, GPU NVIDIA H100 80GB HBM3, on 20[0-9][0-9]-[01][0-9]-[0-3][0-9] - not measured on this machine")
# Without --recorded too: the run names host "vm" and no GPU UUID or machine id, so it is never
# taken for this machine's, whatever this machine is called.
roofkit_cli_test(NAME report.host_name_alone_is_not_this_machine COMMAND roofline-cuda report
  ${h100_run} STDOUT "Recorded on vm, GPU NVIDIA H100 80GB HBM3, on 20[0-9-]+ - not measured on this machine")
roofkit_cli_test(NAME plot.kernel_filter COMMAND roofline-cuda plot ${h100_run} --term
  --kernel "^gemm/" --color never STDOUT "gemm/tiled-32")
roofkit_cli_test(NAME plot.kernel_filter_no_match COMMAND roofline-cuda plot ${h100_run} --term
  --kernel "^nothing/" EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no kernel of the run")

# Cache and clock control: bad values name themselves and the valid choices (no GPU needed).
roofkit_cli_test(NAME bench.bad_cache_control COMMAND roofline-cuda bench --cache-control some
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "some.*(all|none)")
roofkit_cli_test(NAME bench.bad_clock_control COMMAND roofline-cuda bench --clock-control boost
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "boost.*(base|none)")
roofkit_cli_test(NAME bench.cold_and_warm COMMAND roofline-cuda bench --cold --warm
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "excludes")
roofkit_cli_test(NAME bench.help_cache_control COMMAND roofline-cuda bench --help
  STDOUT "--cache-control all\\|none.*--clock-control none\\|base")
