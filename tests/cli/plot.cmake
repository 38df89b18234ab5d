# roofline-cuda plot: every output format, the ncu import, the before/after chart, bad input.
set(pl_runs ${PROJECT_SOURCE_DIR}/data/runs)
set(pl_out ${CMAKE_CURRENT_BINARY_DIR})

roofkit_cli_test(NAME plot.svg COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-sample.svg
  STDOUT_EMPTY STDERR_LINES 0)
roofkit_cli_test(NAME plot.html COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-sample.html
  STDOUT_EMPTY STDERR_LINES 0)
roofkit_cli_test(NAME plot.format_flag COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-sample.chart --format svg
  STDOUT_EMPTY STDERR_LINES 0)
if(ROOFKIT_CAIRO_FOUND)
  roofkit_cli_test(NAME plot.png COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-sample.png
    STDOUT_EMPTY STDERR_LINES 0)
  roofkit_cli_test(NAME plot.pdf COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-sample.pdf
    STDOUT_EMPTY STDERR_LINES 0)
else()
  roofkit_cli_test(NAME plot.png_without_cairo COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-sample.png
    EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 2 STDERR "built without cairo.*hint: .*rsvg-convert")
endif()
roofkit_cli_test(NAME plot.term COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --term --color never
  STDOUT "^Roofline: NVIDIA H100 80GB HBM3  \\[ANALYTICAL\\]\n +FLOP/s\n.*┤.*└┬.*FLOP/byte\nRoofs: DRAM 3\\.02 TB/s @ 2619 MHz measured \\(3\\.35 TB/s @ [0-9]+ MHz[ \n]theoretical\\).*A coalesced_access .*[0-9] kernels? moves? data only [(]no FLOPs[)]: see --bandwidth"
  STDERR_LINES 0)
roofkit_cli_test(NAME plot.term_is_default COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --columns 100 --rows 24
  STDOUT "^Roofline: NVIDIA H100 80GB HBM3" STDERR_LINES 0)
roofkit_cli_test(NAME plot.term_colour COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --color always
  STDOUT ".38.5.[0-9]+m" STDERR_LINES 0)
roofkit_cli_test(NAME plot.file_and_term COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/plot-both.svg --term
  STDOUT "^Roofline: " STDERR_LINES 0)
roofkit_cli_test(NAME plot.import_ncu COMMAND roofline-cuda plot --import-ncu ${PROJECT_SOURCE_DIR}/tests/data/ncu/h100-sample-raw.csv --term --save-run ${pl_out}/plot-imported.json
  STDOUT "\\[IMPORTED\\]" STDERR_LINES 0)
roofkit_cli_test(NAME plot.import_ncu_svg COMMAND roofline-cuda plot --import-ncu ${PROJECT_SOURCE_DIR}/tests/data/ncu/h100-sample-raw.csv -o ${pl_out}/plot-imported.svg
  STDOUT_EMPTY STDERR_LINES 0)
roofkit_cli_test(NAME plot.compare COMMAND roofline-cuda plot --before ${pl_runs}/sample-seed-before.json --after ${pl_runs}/sample-seed-after.json -o ${pl_out}/plot-compare.svg
  STDOUT_EMPTY STDERR_LINES 0)
roofkit_cli_test(NAME plot.compare_html COMMAND roofline-cuda plot --before ${pl_runs}/sample-seed-before.json --after ${pl_runs}/sample-seed-after.json -o ${pl_out}/plot-compare.html --arrow-level dram
  STDOUT_EMPTY STDERR_LINES 0)

# Bad input: exit 2, nothing on stdout, one line on stderr naming the problem.
roofkit_cli_test(NAME plot.missing_file COMMAND roofline-cuda plot ${pl_runs}/does-not-exist.json -o ${pl_out}/x.svg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "cannot read '[^']*does-not-exist.json'")
roofkit_cli_test(NAME plot.not_a_run COMMAND roofline-cuda plot ${PROJECT_SOURCE_DIR}/tests/data/ncu/h100-sample-raw.csv
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "not valid JSON")
roofkit_cli_test(NAME plot.bad_extension COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json -o ${pl_out}/chart.jpg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "'[^']*chart.jpg' from its extension \\(valid: .svg, .html, .png, .pdf\\)")
roofkit_cli_test(NAME plot.no_input COMMAND roofline-cuda plot -o ${pl_out}/x.svg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "nothing to plot")
roofkit_cli_test(NAME plot.two_inputs COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --import-ncu ${PROJECT_SOURCE_DIR}/tests/data/ncu/h100-sample-raw.csv
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "give one input")
roofkit_cli_test(NAME plot.before_alone COMMAND roofline-cuda plot --before ${pl_runs}/sample-seed-before.json -o ${pl_out}/x.svg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--before and --after go together: '--after' is missing")
roofkit_cli_test(NAME plot.compare_term COMMAND roofline-cuda plot --before ${pl_runs}/sample-seed-before.json --after ${pl_runs}/sample-seed-after.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no terminal form")
roofkit_cli_test(NAME plot.bad_level COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --levels dram,l3
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "unknown memory level 'l3' \\(valid: dram, l2, l1\\)")
roofkit_cli_test(NAME plot.bad_columns COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --columns 20
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--columns '20' is out of range \\(valid: 60-400\\)")
roofkit_cli_test(NAME plot.bad_format COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --format gif
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "gif")
roofkit_cli_test(NAME plot.save_run_alone COMMAND roofline-cuda plot ${pl_runs}/sample-seed.json --save-run ${pl_out}/x.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--save-run '[^']*x.json' saves an imported run")
roofkit_cli_test(NAME plot.bad_csv COMMAND roofline-cuda plot --import-ncu ${pl_runs}/sample-seed.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1)

# The SVGs render with librsvg (skipped, exit 77, where rsvg-convert is not installed).
add_test(NAME cli.plot.rsvg_renders
  COMMAND sh -c "command -v rsvg-convert >/dev/null || exit 77
set -e
tool=\"$1\"; runs=\"$2\"; out=\"$3\"
\"$tool\" plot \"$runs/sample-seed.json\" -o \"$out/rsvg-roofline.svg\"
\"$tool\" plot --before \"$runs/sample-seed-before.json\" --after \"$runs/sample-seed-after.json\" -o \"$out/rsvg-compare.svg\"
for f in rsvg-roofline rsvg-compare; do
  rsvg-convert -o \"$out/$f.png\" \"$out/$f.svg\"
  test -s \"$out/$f.png\"
done" sh $<TARGET_FILE:roofline-cuda> ${pl_runs} ${pl_out})
set_tests_properties(cli.plot.rsvg_renders PROPERTIES LABELS "cpu;cli" SKIP_RETURN_CODE 77)
