# Third-party dependencies. Each is found through its CMake package when one is installed,
# otherwise through its headers, so the build also works where only headers are present.
find_package(CUDAToolkit 12.6 REQUIRED)
find_package(Threads REQUIRED)

function(roofkit_header_only name target header)
  if(TARGET ${target})
    return()
  endif()
  find_path(${name}_INCLUDE_DIR ${header})
  if(NOT ${name}_INCLUDE_DIR)
    message(FATAL_ERROR "roofkit: ${name} not found (looked for ${header}). "
                        "Run scripts/setup.sh to install the missing Debian packages.")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} INTERFACE ${${name}_INCLUDE_DIR})
  message(STATUS "roofkit: ${name} headers at ${${name}_INCLUDE_DIR}")
endfunction()

find_package(Eigen3 3.3 CONFIG QUIET)
roofkit_header_only(Eigen3 Eigen3::Eigen eigen3/Eigen/Dense)
if(Eigen3_INCLUDE_DIR)
  set_target_properties(Eigen3::Eigen PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
                                                 "${Eigen3_INCLUDE_DIR}/eigen3")
endif()

find_package(CLI11 CONFIG QUIET)
roofkit_header_only(CLI11 CLI11::CLI11 CLI/CLI.hpp)

find_package(nlohmann_json 3 CONFIG QUIET)
roofkit_header_only(nlohmann_json nlohmann_json::nlohmann_json nlohmann/json.hpp)

# fmt is used header-only so that the library has no run-time dependency on libfmt.
find_package(fmt CONFIG QUIET)
if(NOT TARGET fmt::fmt-header-only)
  find_path(fmt_INCLUDE_DIR fmt/format.h)
  if(NOT fmt_INCLUDE_DIR)
    message(FATAL_ERROR "roofkit: fmt not found. Run scripts/setup.sh.")
  endif()
  add_library(fmt::fmt-header-only INTERFACE IMPORTED GLOBAL)
  target_include_directories(fmt::fmt-header-only INTERFACE ${fmt_INCLUDE_DIR})
  target_compile_definitions(fmt::fmt-header-only INTERFACE FMT_HEADER_ONLY=1)
endif()

# CUPTI's performance libraries have imported targets only from CMake 3.27 on.
if(TARGET CUDA::nvperf_host)
  set(ROOFKIT_NVPERF_HOST CUDA::nvperf_host)
else()
  find_library(ROOFKIT_NVPERF_HOST nvperf_host HINTS ${CUDAToolkit_LIBRARY_DIR}
               ${CUDAToolkit_LIBRARY_DIR}/../extras/CUPTI/lib64)
endif()

if(ROOFKIT_WITH_CAIRO)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(ROOFKIT_CAIRO QUIET IMPORTED_TARGET cairo)
  endif()
endif()
