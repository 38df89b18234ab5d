# Warning flags for host code and for the host side of CUDA code.
add_library(roofkit_warnings INTERFACE)
target_compile_options(roofkit_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>)
# GCC 13 reports false -Warray-bounds/-Wstringop-overflow inside fmt 9's headers at -O2/-O3.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 13)
  target_compile_options(roofkit_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-array-bounds -Wno-stringop-overflow>)
endif()
if(ROOFKIT_WARNINGS_AS_ERRORS)
  target_compile_options(roofkit_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
