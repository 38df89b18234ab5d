# roofline-cuda metrics: offline listing of metric sets, names per chip and pass counts.
roofkit_cli_test(NAME metrics.gh100_roofline
  COMMAND roofline-cuda metrics --chip GH100 --set roofline
  STDOUT "\\| roofline \\| GH100 \\| +3 \\|.*sm__sass_thread_inst_executed_op_ffma_pred_on\\.sum.*dram__bytes_read\\.sum")
roofkit_cli_test(NAME metrics.gb202_dram_name_csv
  COMMAND roofline-cuda metrics --chip gb202 --set roofline --csv
  STDOUT "^set,set_passes,key,metric,.*\nroofline,3,dram_read,dram__bytes_op_read\\.sum,bytes,dram,,true,")
roofkit_cli_test(NAME metrics.json_all_sets
  COMMAND roofline-cuda metrics --chip GA100 --json
  STDOUT "\"metrics\": \\[.*\"sets\": \\[.*\"set\": \"coalescing\"")
roofkit_cli_test(NAME metrics.coalescing_two_passes
  COMMAND roofline-cuda metrics --chip AD102 --set coalescing --csv
  STDOUT "coalescing,2,global_ld_sectors,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld\\.sum,")
roofkit_cli_test(NAME metrics.chips
  COMMAND roofline-cuda metrics --chips --csv
  STDOUT "chip,max_metrics_per_pass\n.*GH100,88\n")
roofkit_cli_test(NAME metrics.bad_chip
  COMMAND roofline-cuda metrics --chip GX999
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "unknown chip 'GX999' \\(valid: .*GH100")
roofkit_cli_test(NAME metrics.bad_set
  COMMAND roofline-cuda metrics --chip GH100 --set nope
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "unknown metric set 'nope' \\(valid: roofline, roofline-full, tensor, coalescing\\)")
roofkit_cli_test(NAME metrics.json_csv_exclusive
  COMMAND roofline-cuda metrics --json --csv
  EXIT_CODE 2 STDOUT_EMPTY)
