# For builds where the top-level CMakeLists.txt does not add tests/validation yet:
#   cmake -DCMAKE_PROJECT_INCLUDE=<src>/tests/validation/include-validation.cmake ...
# adds it right after project(); its CMakeLists sets what it needs and links by target name, so
# the targets defined later (roofkit, roofkit_warnings) resolve at generation.
if(NOT ROOFKIT_VALIDATION_ADDED)
  set(ROOFKIT_VALIDATION_ADDED ON)
  add_subdirectory("${CMAKE_CURRENT_LIST_DIR}" "${CMAKE_BINARY_DIR}/tests/validation")
endif()
