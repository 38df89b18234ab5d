# --ceilings on a saved run (plot): a machine file of another GPU is refused (exit 2, one line)
# unless --ceilings-any-gpu (one warning); a machine file alone says it needs a run. bench and
# profile choose their roofs through the same library call (tests/cpu/test_ceilings_cache.cpp).
set(co_run ${PROJECT_SOURCE_DIR}/data/runs/sample-seed.json)
set(co_a100 ${CMAKE_CURRENT_SOURCE_DIR}/data/machine/ceilings-a100.json)

roofkit_cli_test(NAME ceilings_option.other_gpu_refused
  COMMAND roofline-cuda plot ${co_run} --ceilings ${co_a100} -o ${CMAKE_CURRENT_BINARY_DIR}/co.svg
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1
  STDERR "is of another GPU: measured on NVIDIA A100-SXM4-80GB .*not on NVIDIA H100")
roofkit_cli_test(NAME ceilings_option.other_gpu_accepted_on_request
  COMMAND roofline-cuda plot ${co_run} --ceilings ${co_a100} --ceilings-any-gpu
          -o ${CMAKE_CURRENT_BINARY_DIR}/co-any.svg
  STDOUT_EMPTY STDERR_LINES 1 STDERR "warning: roofs of machine file .* used although .*--ceilings-any-gpu")
roofkit_cli_test(NAME ceilings_option.needs_a_run
  COMMAND roofline-cuda plot --ceilings ${co_a100}
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "plot needs a run to place under them")
roofkit_cli_test(NAME ceilings_option.any_gpu_needs_a_file
  COMMAND roofline-cuda plot ${co_run} --ceilings-any-gpu
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "--ceilings-any-gpu applies to a machine file")
roofkit_cli_test(NAME ceilings_option.directory
  COMMAND roofline-cuda plot ${co_run} --ceilings ${CMAKE_CURRENT_SOURCE_DIR}/data/machine
  EXIT_CODE 2 STDOUT_EMPTY STDERR_LINES 1 STDERR "is a directory")
