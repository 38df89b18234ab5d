# JSON-shape tests: every --json output (and the run files) checked against a schema of
# tests/schemas/ with json_schema_check (tests/common/json_schema.hpp), not one regex per stream.
# roofkit_schema_test(NAME n SCHEMA s.json COMMAND tool args... [EXIT_CODE c] [STDIN f]
#                     [FILE path] [LINES] [GPU])
#   FILE: check a file the command writes instead of its stdout; LINES: JSON Lines, each line
#   checked; GPU: label gpu, and exit code 3 (no GPU) is a skip where nvidia-smi sees no GPU
#   (on a GPU machine exit 3 fails the test).
add_executable(json_schema_check ${CMAKE_CURRENT_SOURCE_DIR}/cli/json_schema_check.cpp)
target_link_libraries(json_schema_check PRIVATE nlohmann_json::nlohmann_json roofkit_warnings)

set(schema_dir ${PROJECT_SOURCE_DIR}/tests/schemas)
set(schema_out ${CMAKE_CURRENT_BINARY_DIR}/schema_cli)
file(MAKE_DIRECTORY ${schema_out})

function(roofkit_schema_test)
  cmake_parse_arguments(T "LINES;GPU" "NAME;SCHEMA;EXIT_CODE;STDIN;FILE" "COMMAND" ${ARGN})
  if(NOT DEFINED T_EXIT_CODE)
    set(T_EXIT_CODE 0)
  endif()
  list(GET T_COMMAND 0 tool)
  list(SUBLIST T_COMMAND 1 -1 args)
  string(ASCII 31 unit_separator)
  string(REPLACE ";" "${unit_separator}" args_joined "${args}")
  set(stdout_file ${schema_out}/${T_NAME}.out)
  set(checked ${stdout_file})
  if(T_FILE)
    set(checked ${T_FILE})
  endif()
  set(skip "")
  if(T_GPU)
    set(skip 3)
  endif()
  add_test(NAME cli.schema.${T_NAME}
    COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:${tool}>" "-DARGS=${args_joined}"
            "-DEXIT_CODE=${T_EXIT_CODE}" "-DSTDIN_FILE=${T_STDIN}" "-DOUTPUT=${stdout_file}"
            "-DCHECKED=${checked}" "-DSCHEMA=${schema_dir}/${T_SCHEMA}"
            "-DCHECKER=$<TARGET_FILE:json_schema_check>" "-DLINES=${T_LINES}"
            "-DSKIP_EXIT_CODE=${skip}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_schema.cmake
    WORKING_DIRECTORY ${schema_out})
  if(T_GPU)
    set_tests_properties(cli.schema.${T_NAME} PROPERTIES LABELS "gpu;cli;schema"
                         SKIP_REGULAR_EXPRESSION "roofkit-test-skipped")
  else()
    set_tests_properties(cli.schema.${T_NAME} PROPERTIES LABELS "cpu;cli;schema")
  endif()
endfunction()

# --- occupancy-calc (roofkit.occupancy/2) -----------------------------------------------------
set(ptxas_logs ${PROJECT_SOURCE_DIR}/tests/data/ptxas)
roofkit_schema_test(NAME occupancy.report SCHEMA occupancy-calc-report.json
  COMMAND occupancy-calc --arch 9.0 -t 256 -r 48 --json)
roofkit_schema_test(NAME occupancy.report_no_block SCHEMA occupancy-calc-report.json
  COMMAND occupancy-calc --arch sm_90 -t 800 -r 80 --json)
roofkit_schema_test(NAME occupancy.report_gpu SCHEMA occupancy-calc-report.json
  COMMAND occupancy-calc --gpu "H100 SXM" -t 256 -r 64 -s 20K --carveout 25 --json)
roofkit_schema_test(NAME occupancy.report_sm50 SCHEMA occupancy-calc-report.json
  COMMAND occupancy-calc --arch sm_50 -t 1024 -r 64 --smem-static 40K --json)
roofkit_schema_test(NAME occupancy.cliffs SCHEMA occupancy-calc-cliffs.json
  COMMAND occupancy-calc --arch sm_80 -t 512 -r 33 cliffs --json)
roofkit_schema_test(NAME occupancy.suggest SCHEMA occupancy-calc-suggest.json
  COMMAND occupancy-calc --gpu "H100 SXM" -t 256 -r 72 suggest --json)
roofkit_schema_test(NAME occupancy.suggest_sm80 SCHEMA occupancy-calc-suggest.json
  COMMAND occupancy-calc --arch sm_80 -t 256 -r 64 suggest --target-occupancy 50% --json)
roofkit_schema_test(NAME occupancy.sweep SCHEMA occupancy-calc-sweep.json
  COMMAND occupancy-calc --arch sm_90 -t 256 -r 48 sweep --json)
roofkit_schema_test(NAME occupancy.ptxas SCHEMA occupancy-calc-ptxas.json
  COMMAND occupancy-calc --ptxas ${ptxas_logs}/kernels_sm80_sm90.log -t 128 --json)
roofkit_schema_test(NAME occupancy.ptxas_stdin SCHEMA occupancy-calc-ptxas.json
  COMMAND occupancy-calc --arch sm_90 --ptxas - --json
  STDIN ${ptxas_logs}/launch_bounds_sm80_sm90.log)
file(WRITE ${schema_out}/batch.csv
"arch,threads,regs,smem_static,smem_dynamic,carveout
sm_80,512,33,0,0,-1
9.0,128,32,0,20K,25
sm_90,800,80,0,0,-1
sm_99,256,32,0,0,-1
sm_90,256,x,0,0,-1
")
roofkit_schema_test(NAME occupancy.batch SCHEMA occupancy-calc-batch-line.json LINES EXIT_CODE 2
  COMMAND occupancy-calc batch ${schema_out}/batch.csv)

# --- roofline-cuda -----------------------------------------------------------------------------
set(schema_runs ${PROJECT_SOURCE_DIR}/tests/data/runs)
set(schema_h100 ${PROJECT_SOURCE_DIR}/data/runs/h100-sxm.json)
roofkit_schema_test(NAME list SCHEMA roofline-cuda-list.json COMMAND roofline-cuda list --json)
roofkit_schema_test(NAME device_list SCHEMA roofline-cuda-device-list.json
  COMMAND roofline-cuda device --list --json)
roofkit_schema_test(NAME device_t4 SCHEMA roofline-cuda-device.json
  COMMAND roofline-cuda device --gpu t4 --json)
roofkit_schema_test(NAME device_h100 SCHEMA roofline-cuda-device.json
  COMMAND roofline-cuda device --gpu "NVIDIA H100 80GB HBM3" --json)
roofkit_schema_test(NAME metrics SCHEMA roofline-cuda-metrics.json
  COMMAND roofline-cuda metrics --json)
roofkit_schema_test(NAME metrics_chip SCHEMA roofline-cuda-metrics-chip.json
  COMMAND roofline-cuda metrics --chip GH100 --json)
roofkit_schema_test(NAME report SCHEMA roofline-cuda-report.json
  COMMAND roofline-cuda report ${schema_runs}/sample.json --json)
roofkit_schema_test(NAME report_h100 SCHEMA roofline-cuda-report.json
  COMMAND roofline-cuda report ${schema_h100} --json)
roofkit_schema_test(NAME compare SCHEMA roofline-cuda-compare.json
  COMMAND roofline-cuda compare ${schema_runs}/sample.json ${schema_runs}/sample-after.json --json)
roofkit_schema_test(NAME claims SCHEMA roofline-cuda-claims.json
  COMMAND roofline-cuda claims ${schema_h100} --json)
roofkit_schema_test(NAME cliff_from SCHEMA roofline-cuda-cliff.json
  COMMAND roofline-cuda cliff --from ${PROJECT_SOURCE_DIR}/tests/data/cliffs/exec-sample.json --json)
roofkit_schema_test(NAME import_ncu_run SCHEMA roofkit-run-1.json
  FILE ${schema_out}/imported-run.json
  COMMAND roofline-cuda plot --import-ncu ${PROJECT_SOURCE_DIR}/tests/data/ncu/h100-raw.csv --term
          --save-run ${schema_out}/imported-run.json)
# On a GPU (scripts/gpu-check.sh); skipped without one.
roofkit_schema_test(NAME bench SCHEMA roofkit-run-1.json GPU
  COMMAND roofline-cuda bench -q --kernel "^gemm/tiled-32$" --reps 3 --warmup 1 --no-ceilings
          --json -o ${schema_out}/bench-run.json)
roofkit_schema_test(NAME bench_run_file SCHEMA roofkit-run-1.json GPU
  FILE ${schema_out}/bench-run-file.json
  COMMAND roofline-cuda bench -q --kernel "^global/coalesced$" --reps 3 --warmup 1 --no-ceilings
          -o ${schema_out}/bench-run-file.json)
roofkit_schema_test(NAME ceilings SCHEMA roofline-cuda-ceilings.json GPU
  COMMAND roofline-cuda ceilings --reps 3 --no-references --json)
roofkit_schema_test(NAME device_live SCHEMA roofline-cuda-device.json GPU
  COMMAND roofline-cuda device --json)

# --- run files in the repository (what bench -o wrote, and the samples) ------------------------
file(GLOB schema_run_files ${PROJECT_SOURCE_DIR}/data/runs/*.json ${schema_runs}/*.json)
foreach(f IN LISTS schema_run_files)
  get_filename_component(n ${f} NAME_WE)
  if(n MATCHES "claim-notes")
    continue()
  endif()
  add_test(NAME schema.run_file.${n}
           COMMAND json_schema_check ${schema_dir}/roofkit-run-1.json ${f})
  set_tests_properties(schema.run_file.${n} PROPERTIES LABELS "cpu;schema")
endforeach()

# The check itself: a list of GPUs is not a report, so the checker must reject it, and for the
# reason it is wrong (no "context"; CMake wraps the message at any space, so the pattern allows a
# line break between words); any other failure (the tool failing, a crash, a checker that
# cannot read the schema) fails this test too.
roofkit_schema_test(NAME detects_a_wrong_shape SCHEMA roofline-cuda-report.json
  COMMAND roofline-cuda device --list --json)
set_tests_properties(cli.schema.detects_a_wrong_shape PROPERTIES PASS_REGULAR_EXPRESSION
  "does[ \n]+not[ \n]+match[ \n]+[^ \n]*roofline-cuda-report\\.json:.*missing[ \n]+required[ \n]+property[ \n]+.context.")

# A sampled profile's run file (profile.shapes, profile.ranges, the launches' sample field).
roofkit_schema_test(NAME profile_sampled_run SCHEMA roofkit-run-1.json
  FILE ${schema_out}/profile-sampled-run.json
  COMMAND roofline-cuda profile --from-records ${PROJECT_SOURCE_DIR}/tests/data/profile/sampled.jsonl
          -o ${schema_out}/profile-sampled-run.json)
