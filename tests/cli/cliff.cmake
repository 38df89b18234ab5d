# Command-line tests of cliff (no GPU: the GPU sweeps are in validation/scripts/gpu-cliff.sh).
set(cliff_sample ${PROJECT_SOURCE_DIR}/tests/data/cliffs/exec-sample.json)

roofkit_cli_test(NAME cliff.no_source COMMAND roofline-cuda cliff --sweep block
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "exactly one of --kernel")
roofkit_cli_test(NAME cliff.bad_sweep COMMAND roofline-cuda cliff --kernel cliff/triad --sweep warp
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "'warp'.*block, smem, regs, size")
roofkit_cli_test(NAME cliff.bad_range COMMAND roofline-cuda cliff --kernel cliff/triad
  --sweep block --range 64:2048:64
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "64:2048:64.*1..1024")
roofkit_cli_test(NAME cliff.malformed_range COMMAND roofline-cuda cliff --kernel cliff/triad
  --sweep block --range 64-1024
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "'64-1024'.*first:last:step")
roofkit_cli_test(NAME cliff.unknown_kernel COMMAND roofline-cuda cliff --kernel nope --sweep block
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "'nope' is not registered")
roofkit_cli_test(NAME cliff.fixed_launch COMMAND roofline-cuda cliff --kernel vadd/plain
  --sweep block EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "fixed launch")
roofkit_cli_test(NAME cliff.regs_not_compiled COMMAND roofline-cuda cliff --kernel cliff/triad
  --sweep regs EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "one register count")
roofkit_cli_test(NAME cliff.regs_outside_caps COMMAND roofline-cuda cliff --kernel cliff/fold-cap
  --sweep regs --range 100:120:1
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "valid: 24, 26, 28")
roofkit_cli_test(NAME cliff.size_with_size COMMAND roofline-cuda cliff --kernel cliff/triad
  --sweep size --size 1024 EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--size")
roofkit_cli_test(NAME cliff.bad_threshold COMMAND roofline-cuda cliff --kernel cliff/triad
  --sweep block --threshold 0
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "threshold '0'")
roofkit_cli_test(NAME cliff.bad_plot_extension COMMAND roofline-cuda cliff --kernel cliff/triad
  --sweep block --plot out.bmp EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "out.bmp")
roofkit_cli_test(NAME cliff.without_gpu COMMAND roofline-cuda cliff -q --kernel cliff/triad
  --sweep block --range 64:128:64
  EXIT_CODE 3 STDOUT_EMPTY STDERR "no CUDA GPU visible: cliff needs one")
set_tests_properties(cli.cliff.without_gpu PROPERTIES ENVIRONMENT "CUDA_VISIBLE_DEVICES=")

roofkit_cli_test(NAME cliff.exec COMMAND roofline-cuda cliff -q --exec "echo took {} ms"
  --metric-regex "took ([0-9]+) ms" --metric-unit ms --sweep block --range 64:256:64 --reps 2
  STDOUT "### program: echo took \\{\\} ms: block sweep.*measured changes.*\\| 128 .*measured only")
roofkit_cli_test(NAME cliff.exec_csv COMMAND roofline-cuda cliff -q --exec "echo took {} ms"
  --metric-regex "took ([0-9]+) ms" --metric-unit ms --sweep block --range 64:128:64 --reps 1
  --csv STDOUT "^at,predicted,measured,verdict,cause\n")
roofkit_cli_test(NAME cliff.exec_without_braces COMMAND roofline-cuda cliff --exec "./app"
  --sweep block --range 64:128:64
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no '\\{\\}'")
roofkit_cli_test(NAME cliff.exec_regs_sweep COMMAND roofline-cuda cliff --exec "./app {}"
  --sweep regs --range 32:64:8
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "valid: block, smem")
roofkit_cli_test(NAME cliff.from COMMAND roofline-cuda cliff --from ${cliff_sample}
  STDOUT "320.*50% -> 47% \\(4 -> 3 blocks/SM\\).*-50.0%.*agree")
roofkit_cli_test(NAME cliff.from_rethreshold COMMAND roofline-cuda cliff --from ${cliff_sample}
  --threshold 60 STDOUT "320 .*predicted only")
roofkit_cli_test(NAME cliff.from_markdown COMMAND roofline-cuda cliff --from ${cliff_sample}
  --markdown cliff-findings.md --plot cliff-chart.svg --plot cliff-chart.html
  STDOUT "6 predicted occupancy steps, 1 measured changes: 1 agree")
roofkit_cli_test(NAME cliff.from_with_range COMMAND roofline-cuda cliff --from ${cliff_sample}
  --sweep block EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--from replays")
roofkit_cli_test(NAME cliff.from_missing COMMAND roofline-cuda cliff --from no-such.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no-such.json")
roofkit_cli_test(NAME cliff.help COMMAND roofline-cuda cliff --help
  STDOUT "Sweepable bundled kernels")
