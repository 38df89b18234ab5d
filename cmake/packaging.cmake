# cmake --install: tools, headers, data and a package config for find_package(roofkit).
include(CMakePackageConfigHelpers)
install(DIRECTORY lib/include/roofkit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/roofkit/data)
install(TARGETS roofkit EXPORT roofkit-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT roofkit-targets NAMESPACE roofkit:: FILE roofkit-targets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/roofkit)
configure_package_config_file(cmake/roofkit-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/roofkit-config.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/roofkit)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/roofkit-config-version.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/roofkit-config.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/roofkit-config-version.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/roofkit)
