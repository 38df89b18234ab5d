# Command-line tests of profile that need no GPU: usage errors, the application's exit code and
# output passed through, and a run rebuilt from a recorded log.
set(profile_records ${PROJECT_SOURCE_DIR}/tests/data/profile/features.jsonl)

roofkit_cli_test(NAME profile.no_application COMMAND roofline-cuda profile
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "no application given")
roofkit_cli_test(NAME profile.bad_cache_control COMMAND roofline-cuda profile
  --cache-control some -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "cache control 'some' is not valid \\(valid: all, none\\)")
roofkit_cli_test(NAME profile.bad_profile_from_start COMMAND roofline-cuda profile
  --profile-from-start no -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "profile from start 'no' is not valid \\(valid: on, off\\)")
roofkit_cli_test(NAME profile.bad_launch_count COMMAND roofline-cuda profile --launch-count 0 -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "launch count 0 is out of range")
roofkit_cli_test(NAME profile.bad_replay_batch COMMAND roofline-cuda profile --replay-batch 0 -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "replay batch 0 is out of range \\(valid: 1 to 1024\\)")
roofkit_cli_test(NAME profile.bad_regex COMMAND roofline-cuda profile --kernel "(" -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "kernel regex")
roofkit_cli_test(NAME profile.bad_plot_extension COMMAND roofline-cuda profile --plot out.bmp -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "out.bmp")
# --plot last before "--": the application's own options stay the application's (the message is
# the plot's, not "--steps not expected").
roofkit_cli_test(NAME profile.plot_then_application_options COMMAND roofline-cuda profile
  --plot out.bmp -- true --steps 4 EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "out.bmp")
# The application runs only where a GPU is visible: these two run on the GPU machine.
roofkit_cli_test(NAME profile.application_not_found COMMAND roofline-cuda profile
  -- no-such-application-roofkit
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "cannot start 'no-such-application-roofkit'"
  LABELS gpu)
roofkit_cli_test(NAME profile.exit_code_and_output_pass_through COMMAND roofline-cuda profile
  -- sh -c "echo from-the-app && exit 7"
  EXIT_CODE 7 STDOUT "^from-the-app\n$" STDERR "the application failed with exit code 7"
  LABELS gpu)
# No GPU: exit 3 with the hint, before the application starts (it would print the-app-ran), and
# no run written.
roofkit_cli_test(NAME profile.no_gpu_refused_before_the_application COMMAND roofline-cuda profile
  -o no-gpu-run.json -- sh -c "echo the-app-ran"
  EXIT_CODE 3 STDOUT_EMPTY STDERR_LINES 2
  STDERR "error: no CUDA GPU visible: nothing to profile \\(the application was not started\\)\nroofline-cuda: hint: check nvidia-smi and CUDA_VISIBLE_DEVICES")
set_tests_properties(cli.profile.no_gpu_refused_before_the_application PROPERTIES ENVIRONMENT
                     "CUDA_VISIBLE_DEVICES=-1")
# Launches seen but none profiled: exit 4 (documented), and no run labelled measured written.
roofkit_cli_test(NAME profile.none_profiled_exit_4 COMMAND roofline-cuda profile
  --from-records ${PROJECT_SOURCE_DIR}/tests/data/profile/none_profiled.jsonl
  -o none-profiled-run.json
  EXIT_CODE 4 STDOUT_EMPTY
  STDERR "not profiled \\(CUDA graph\\): 2 x graph_only_kernel.*no launch was profiled of the 2 the application made: no run or chart written \\(exit 4\\)\n$")
roofkit_cli_test(NAME profile.from_records COMMAND roofline-cuda profile
  --from-records ${profile_records} -o profile-from-records.json
  STDOUT_EMPTY
  STDERR "scale_in_place +\\| +2 \\| +2 .*not profiled \\(CUDA graph\\): 2 x graph_only_kernel")
roofkit_cli_test(NAME profile.from_records_and_application COMMAND roofline-cuda profile
  --from-records ${profile_records} -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "excludes")
# Stall sampling runs the application again: a run rebuilt from records has none to run.
roofkit_cli_test(NAME profile.stalls_not_from_records COMMAND roofline-cuda profile
  --from-records ${profile_records} --stalls
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--stalls excludes --from-records")
roofkit_cli_test(NAME profile.output_folder_missing COMMAND roofline-cuda profile
  -o no-such-folder/run.json -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "folder 'no-such-folder' does not exist")
# Clock control 'base' with no GPU visible (CUDA_VISIBLE_DEVICES=-1 also on a GPU machine, whose
# clocks this test must not lock): refused before the application starts, with the reason.
roofkit_cli_test(NAME profile.clock_base_without_gpu COMMAND roofline-cuda profile
  --clock-control base -o clock-base-run.json -- sh -c "echo the-app-ran"
  EXIT_CODE 3 STDOUT_EMPTY STDERR "clock control 'base': no CUDA GPU visible to lock")
set_tests_properties(cli.profile.clock_base_without_gpu PROPERTIES ENVIRONMENT
                     "CUDA_VISIBLE_DEVICES=-1")
# Sampling and NVTX scope: bad values named with the valid ones (exit 2).
roofkit_cli_test(NAME profile.bad_sample COMMAND roofline-cuda profile --sample 0 -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "sample '0' is not valid \\(valid: 1 to 1000000, or all\\)")
roofkit_cli_test(NAME profile.bad_sample_word COMMAND roofline-cuda profile --sample every -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "sample 'every' is not valid \\(valid: 1 to 1000000, or all\\)")
roofkit_cli_test(NAME profile.bad_nvtx_scope COMMAND roofline-cuda profile --nvtx-scope global -- true
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "NVTX scope 'global' is not valid \\(valid: process, thread\\)")
# A sampled log: the per-range table and the inferred launches said.
roofkit_cli_test(NAME profile.from_records_sampled COMMAND roofline-cuda profile
  --from-records ${PROJECT_SOURCE_DIR}/tests/data/profile/sampled.jsonl -o profile-sampled.json
  STDOUT_EMPTY
  STDERR "GPU time by NVTX range.*step > forward +\\| +7 \\| +4 \\| +3 \\|.*step > backward +\\| +3 \\| +0 \\| +3 \\|.*16 kernel launches, 5 profiled \\(3 replay passes each\\), 6 inferred from their shape's profiled ones; profiler time 0\\.5 s: set-up 0\\.50 s, then 4\\.0 ms a profiled launch")
# report prints the per-range table of that run file.
roofkit_cli_test(NAME profile.report_ranges COMMAND roofline-cuda report profile-sampled.json
  STDOUT "GPU time by NVTX range.*step > forward +\\| +7 \\| +4 \\| +3 \\| +53\\.9 \\|")
set_tests_properties(cli.profile.from_records_sampled PROPERTIES FIXTURES_SETUP profile_sampled)
set_tests_properties(cli.profile.report_ranges PROPERTIES FIXTURES_REQUIRED profile_sampled)
