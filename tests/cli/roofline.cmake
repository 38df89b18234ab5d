# roofline-cuda report and compare: happy paths and bad inputs (exit 2, one line on stderr).
set(rk_runs ${PROJECT_SOURCE_DIR}/tests/data/runs)

roofkit_cli_test(NAME report.markdown COMMAND roofline-cuda report ${rk_runs}/sample.json
  STDOUT "^# roofkit run: NVIDIA H100 80GB HBM3\n\n\\*\\*Analytical run for NVIDIA H100 80GB HBM3 on 2026-11-22[^#]*not measured on this machine"
  STDERR_LINES 0)
roofkit_cli_test(NAME report.markdown_tables COMMAND roofline-cuda report ${rk_runs}/sample.json --markdown
  STDOUT "Clocks during the run: SM 1980 MHz, memory 2619 MHz.*## Ceilings.*\\| DRAM +\\| memory +\\| +3352\\.32 \\| GB/s.*## Kernels.*\\| copy_strided_32 +\\| +6400\\.00 \\|.*\\| DRAM +\\| +2\\.5 \\|.*\\| hgemm_tensor .*\\| Tensor FP16/BF16 +\\| +67\\.4 \\|")
roofkit_cli_test(NAME report.recorded_flag COMMAND roofline-cuda report ${rk_runs}/sample.json --recorded --table kernels
  STDOUT "not measured on this machine")
roofkit_cli_test(NAME report.csv COMMAND roofline-cuda report ${rk_runs}/sample.json --csv --table kernels
  STDOUT "^name,time_us,gflop_per_s,intensity_dram,intensity_l2,intensity_l1,dram_gb_per_s,l2_gb_per_s,l1_gb_per_s,bound,pct_of_roof,attainable_gflop_per_s,status,source,why,note,display_name\ncopy_coalesced,192,"
  STDERR_LINES 0)
roofkit_cli_test(NAME report.csv_all COMMAND roofline-cuda report ${rk_runs}/sample.json --csv
  STDOUT "^key,value\nprovenance,\"Analytical run for NVIDIA H100 80GB HBM3 on 2026-11-22.*\nceiling,kind,value,unit,.*\nname,time_us,")
roofkit_cli_test(NAME report.json COMMAND roofline-cuda report ${rk_runs}/sample.json --json
  STDOUT "^\\{\n  \"ceilings\": \\[.*\"context\": \\[.*\"kernels\": \\[.*\"name\": \"reduce_atomic\"")
roofkit_cli_test(NAME report.missing_file COMMAND roofline-cuda report ${rk_runs}/does-not-exist.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "^roofline-cuda: error: cannot read '[^']*does-not-exist.json': file missing or unreadable\n$")
roofkit_cli_test(NAME report.malformed COMMAND roofline-cuda report ${rk_runs}/bad/truncated.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "truncated.json': not valid JSON: .*line 4")
roofkit_cli_test(NAME report.schema_v2 COMMAND roofline-cuda report ${rk_runs}/bad/schema-v2.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "schema-v2.json': schema 'roofkit.run/2' is not supported \\(this roofkit reads roofkit.run/1\\)")
roofkit_cli_test(NAME report.missing_field COMMAND roofline-cuda report ${rk_runs}/bad/no-name.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no-name.json': kernels\\[0\\]: missing required field 'name'")
roofkit_cli_test(NAME report.not_json COMMAND roofline-cuda report ${PROJECT_SOURCE_DIR}/tests/data/ncu/h100-sample-raw.csv
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "not valid JSON")
roofkit_cli_test(NAME report.no_file COMMAND roofline-cuda report
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "run is required")
roofkit_cli_test(NAME report.two_formats COMMAND roofline-cuda report ${rk_runs}/sample.json --csv --json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "excludes")
roofkit_cli_test(NAME report.bad_table COMMAND roofline-cuda report ${rk_runs}/sample.json --table bogus
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "bogus")

roofkit_cli_test(NAME compare.same_run COMMAND roofline-cuda compare ${rk_runs}/sample.json ${rk_runs}/sample.json
  STDOUT "^# roofkit compare\n\n- Before \\([^)]*sample.json\\): Analytical run.*\\| copy_coalesced +\\| both +\\| +192\\.00 \\| +192\\.00 \\| +1\\.00 \\|"
  STDERR_LINES 0)
roofkit_cli_test(NAME compare.before_after COMMAND roofline-cuda compare ${rk_runs}/sample.json ${rk_runs}/sample-after.json --csv
  STDOUT "^name,in,time_before_us,time_after_us,speedup,time_change_pct,intensity_level,intensity_before,intensity_after,pct_of_roof_before,pct_of_roof_after,pct_of_roof_change,bound_before,bound_after\n.*\nsgemm_naive,both,46000,12800,3\\.59[0-9]*,-72\\.17[0-9]*,dram,682\\.66[0-9]*,682\\.66[0-9]*,4\\.46[0-9]*,16\\.04[0-9]*,11\\.58[0-9]*,fp32,fp32\n.*reduce_atomic,only before,2460,,.*\nreduce_warp_shuffle,only after,,"
  STDERR_LINES 0)
roofkit_cli_test(NAME compare.json COMMAND roofline-cuda compare ${rk_runs}/sample.json ${rk_runs}/sample-after.json --json
  STDOUT "^\\{\n  \"compare\": \\[\n.*\"name\": \"copy_coalesced\".*\"speedup\": 3\\.59")
roofkit_cli_test(NAME compare.missing_second COMMAND roofline-cuda compare ${rk_runs}/sample.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "after is required")
roofkit_cli_test(NAME compare.bad_file COMMAND roofline-cuda compare ${rk_runs}/sample.json ${rk_runs}/bad/schema-v2.json
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "schema-v2.json': schema 'roofkit.run/2' is not supported")
