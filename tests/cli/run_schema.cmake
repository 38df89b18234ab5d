# Runs one JSON-shape test (see tests/cli/schemas.cmake): runs the tool, checks its exit code,
# then validates its stdout (or the file it wrote, CHECKED) against a schema with
# json_schema_check.
string(ASCII 31 unit_separator)
string(REPLACE "${unit_separator}" ";" args "${ARGS}")
# A file the command should write must not be left over from an earlier run.
if(NOT CHECKED STREQUAL OUTPUT)
  file(REMOVE ${CHECKED})
endif()
set(input_args)
if(STDIN_FILE)
  set(input_args INPUT_FILE ${STDIN_FILE})
endif()
execute_process(COMMAND ${TOOL} ${args} RESULT_VARIABLE code OUTPUT_FILE ${OUTPUT}
                ERROR_VARIABLE err ${input_args})
if(NOT "${code}" STREQUAL "${EXIT_CODE}")
  if(SKIP_EXIT_CODE AND "${code}" STREQUAL "${SKIP_EXIT_CODE}")
    # Exit 3 (no GPU) is a skip only where there is no GPU: on a GPU machine it is a failure.
    execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE gpu_rc OUTPUT_QUIET ERROR_QUIET)
    if("${gpu_rc}" STREQUAL "0")
      message(FATAL_ERROR "${TOOL} exited ${code} (no GPU or no counters) on a machine where "
                          "nvidia-smi lists a GPU: ${err}")
    endif()
    # The test's SKIP_REGULAR_EXPRESSION turns this into a skip.
    message(FATAL_ERROR "roofkit-test-skipped: ${TOOL} exited ${code}: ${err}")
  endif()
  file(READ ${OUTPUT} out)
  message(FATAL_ERROR "${TOOL} ${args}\nexit code ${code}, expected ${EXIT_CODE}\n"
                      "--- stdout ---\n${out}\n--- stderr ---\n${err}")
endif()
set(lines_arg)
if(LINES)
  set(lines_arg --lines)
endif()
execute_process(COMMAND ${CHECKER} ${SCHEMA} ${CHECKED} ${lines_arg} RESULT_VARIABLE valid
                ERROR_VARIABLE problems)
if(NOT valid EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${args}\n${CHECKED} does not match ${SCHEMA}:\n${problems}")
endif()
