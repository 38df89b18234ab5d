# Tool version and git revision, recorded in every results file.
find_package(Git QUIET)
set(ROOFKIT_GIT_REVISION "unknown")
if(DEFINED ENV{ROOFKIT_GIT_REVISION})
  # A copy of the tree without .git (e.g. on a GPU machine) names its revision this way.
  set(ROOFKIT_GIT_REVISION "$ENV{ROOFKIT_GIT_REVISION}")
elseif(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE ROOFKIT_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(NOT ROOFKIT_GIT_REVISION)
    set(ROOFKIT_GIT_REVISION "unknown")
  endif()
endif()
