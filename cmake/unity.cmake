# roofkit_unity_by_folder(TARGET): with ROOFKIT_UNITY, the target's C++ sources are compiled
# one folder at a time (CMake's unity build in GROUP mode, the folder name as the group), so the
# headers every file includes (fmt, nlohmann/json, the standard library) are parsed and their
# templates instantiated once per folder instead of once per file. CUDA sources and generated
# files keep their own compilation. A name defined in an anonymous namespace of two files of one
# folder then collides: such helpers belong in one place anyway.
function(roofkit_unity_by_folder target)
  if(NOT ROOFKIT_UNITY)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  foreach(src IN LISTS sources)
    if(src MATCHES "\\.cpp$" AND NOT src MATCHES "^\\$<" AND NOT src MATCHES "/generated/")
      cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY ${source_dir} OUTPUT_VARIABLE path)
      cmake_path(GET path PARENT_PATH folder)
      cmake_path(GET folder FILENAME group)
      set_source_files_properties(${src} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${group})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  # GCC warns when a type from an anonymous namespace of an *included* file is a member of a
  # named type (clock_lock::state, a pimpl); in a unity build every file is included.
  target_compile_options(${target} PRIVATE
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-subobject-linkage>)
endfunction()
