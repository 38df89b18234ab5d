# Command-line tests of issue 15 (the first hour of a new user): the overview chart's labels, the
# bandwidth view, report width, the set-up script. Literal '|' and '*' are written [|] and [*].

set(fh_run ${PROJECT_SOURCE_DIR}/data/runs/h100-sxm.json)
set(fh_dir ${CMAKE_CURRENT_BINARY_DIR}/first_hour_cli)
file(MAKE_DIRECTORY ${fh_dir})

roofkit_cli_test(NAME first_hour.plot_term_counts_data_only_kernels
  COMMAND roofline-cuda plot ${fh_run} --term --color never
  STDOUT "\n23 kernels move data only [(]no FLOPs[)]: see --bandwidth\n")
# 23: the kernels of data/runs/h100-sxm.json with no FLOPs of any precision (python3 -c "import
# json; print(sum(not any((k.get('flops') or {}).values()) for k in
# json.load(open('data/runs/h100-sxm.json'))['kernels']))"); a wrong count fails.
roofkit_cli_test(NAME first_hour.plot_bandwidth_term
  COMMAND roofline-cuda plot ${fh_run} --bandwidth --term
  STDOUT "^Bandwidth of kernels without FLOPs: NVIDIA H100 80GB HBM3\nRoofs: .*transpose/copy +DRAM +[0-9.]+ TB/s +[0-9]+% "
  STDERR_LINES 0)
roofkit_cli_test(NAME first_hour.plot_bad_label_pattern
  COMMAND roofline-cuda plot ${fh_run} --label "a(" -o ${fh_dir}/x.svg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "label pattern 'a[(]' is not a valid regular expression")
add_test(NAME cli.first_hour.plot_label_regex
  COMMAND sh -c "'$<TARGET_FILE:roofline-cuda>' plot '${fh_run}' --label '^gemm/' -o '${fh_dir}/label.svg' && grep -c 'class=\"kernel-label\"' '${fh_dir}/label.svg'")
set_tests_properties(cli.first_hour.plot_label_regex PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^3\n$")
roofkit_cli_test(NAME first_hour.report_fits_120_columns
  COMMAND roofline-cuda report ${fh_run}
  STDOUT "[|] Kernel +[|] +Time us [|] +GFLOP/s [|] +AI DRAM [|]")
add_test(NAME cli.first_hour.report_no_line_over_120
  COMMAND sh -c "'$<TARGET_FILE:roofline-cuda>' report '${fh_run}' | awk 'length > 120 { n++ } END { print n + 0 }'")
set_tests_properties(cli.first_hour.report_no_line_over_120 PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^0\n$")
add_test(NAME cli.first_hour.report_wide
  COMMAND sh -c "'$<TARGET_FILE:roofline-cuda>' report '${fh_run}' --wide | awk 'length > 200 { n++ } END { print (n > 0) }'")
set_tests_properties(cli.first_hour.report_wide PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^1\n$")
# Without package-manager access set-up skips the optional packages at once, in one line (other
# optional packages this machine lacks may be named there too).
add_test(NAME cli.first_hour.setup_skips_optional_fast
  COMMAND sh -c "start=$(date +%s); ROOFKIT_SETUP_ASSUME_MISSING='chromium librsvg2-bin' ROOFKIT_SETUP_MIRROR=http://192.0.2.1 '${PROJECT_SOURCE_DIR}/scripts/setup.sh' 2>&1 | grep -c '^setup: skipped optional \\(.*, \\)\\?librsvg2-bin .*, chromium .* [[]' ; echo took $(( $(date +%s) - start ))"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.first_hour.setup_skips_optional_fast PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^1\ntook [0-5]\n$")
# scripts/run.sh without a GPU builds the tool it runs and nothing else: no test, no other tool,
# no CUDA kernel (nvcc never runs), compiled for build speed (-Og), and says the expected wait
# before it starts.
add_test(NAME cli.first_hour.run_builds_only_roofline_cuda
  COMMAND sh -c "ROOFKIT_RUN_OFFLINE=1 ROOFKIT_RUN_BUILD_DIR='${fh_dir}/run-build' '${PROJECT_SOURCE_DIR}/scripts/run.sh' --dry-run 2>'${fh_dir}/run-plan.err' > '${fh_dir}/run-plan.txt' && grep -c -- '-o tools/roofline-cuda ' '${fh_dir}/run-plan.txt' && grep -c -e '/tests/cpu/' -e '/tests/gpu/' -e 'occupancy-calc' -e gtest -e nvcc -e '[.]cu[.]o' '${fh_dir}/run-plan.txt'; grep -q -- ' -Og ' '${fh_dir}/run-plan.txt' && echo quick; head -1 '${fh_dir}/run-plan.err'"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.first_hour.run_builds_only_roofline_cuda PROPERTIES LABELS "cpu;cli"
  PASS_REGULAR_EXPRESSION "^1\n0\nquick\nrun.sh: no GPU: building roofline-cuda's offline part only, no CUDA kernels [(]about 2 minutes on 2 cores"
  TIMEOUT 300)
roofkit_cli_test(NAME first_hour.plot_bandwidth_not_with_compare
  COMMAND roofline-cuda plot --before ${fh_run} --after ${fh_run} --bandwidth -o ${fh_dir}/c.svg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "--bandwidth draws the kernels without FLOPs of one run")

# Issue 38, the first hour's messages.
# An unknown option: the closest valid one, in the order given (CLI11 said "The following
# arguments were not expected: 256 --thread").
roofkit_cli_test(NAME first_hour.unknown_option_did_you_mean
  COMMAND occupancy-calc --arch sm_90 --thread 256
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "unknown option '--thread' [(]did you mean '--threads'[?][)]")
roofkit_cli_test(NAME first_hour.unknown_option_in_a_subcommand
  COMMAND roofline-cuda report ${fh_run} --wdie
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "unknown option '--wdie' [(]did you mean '--wide'[?][)]")
roofkit_cli_test(NAME first_hour.unknown_option_far_from_any
  COMMAND occupancy-calc --arch sm_90 --zzzzzzzzzz
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "unknown option '--zzzzzzzzzz'; --help lists the options\n$")
# A directory given as a file.
roofkit_cli_test(NAME first_hour.report_of_a_directory
  COMMAND roofline-cuda report ${PROJECT_SOURCE_DIR}/data
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "cannot read '[^']*data': is a directory, not a file")
roofkit_cli_test(NAME first_hour.ptxas_log_a_directory
  COMMAND occupancy-calc --ptxas ${PROJECT_SOURCE_DIR}/data -t 128
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "cannot read '[^']*data': is a directory, not a file")
# --ceilings alone: it needs a run.
roofkit_cli_test(NAME first_hour.plot_ceilings_alone
  COMMAND roofline-cuda plot --ceilings machine.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "--ceilings 'machine.json' gives the roofs; plot needs a run to place under them: roofline-cuda plot RUN.json --ceilings machine.json")
# Fractions and percentages: 1.5 is neither 150% nor 1.5%.
roofkit_cli_test(NAME first_hour.target_occupancy_above_one
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 64 suggest --target-occupancy 1.5
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "target occupancy '1[.]5' out of range [(]valid: a fraction 0 < x <= 1 such as 0[.]75, or a percentage up to 100% such as 75%[)]")
roofkit_cli_test(NAME first_hour.target_occupancy_percent_needs_the_sign
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 64 suggest --target-occupancy 75
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "target occupancy '75' out of range")
# The run header: one clock per roof group, rounded and deduplicated.
roofkit_cli_test(NAME first_hour.header_clocks_deduplicated
  COMMAND roofline-cuda report ${fh_run}
  STDOUT "Clocks during the run: SM [0-9]+ MHz, memory [0-9]+ MHz; theoretical roofs at SM [^;]*; measured roofs at SM [0-9]+(-[0-9]+)? MHz [(]CUDA cores[)]")
add_test(NAME cli.first_hour.header_has_no_clock_list
  COMMAND sh -c "'$<TARGET_FILE:roofline-cuda>' report '${fh_run}' | tr '\\n' ' ' | grep -c 'MHz or '")
set_tests_properties(cli.first_hour.header_has_no_clock_list PROPERTIES LABELS "cpu;cli"
                     PASS_REGULAR_EXPRESSION "^0\n$")
