# ---- libgsp_mpi: the multi-process closure over MPI -----------------------
# A separate library so that libgsp never depends on MPI: programs that do
# not use it link nothing of MPI, and one libgsp serves MPI and non-MPI
# builds alike. It calls libgsp through the public API plus the few
# GSP_COMPANION internals (src/core/gsp_internal.h, src/ops/closure/closure_cpu.h).
set(GSP_MPI "AUTO" CACHE STRING "Build libgsp_mpi (multi-process closure): AUTO, ON or OFF")
set_property(CACHE GSP_MPI PROPERTY STRINGS AUTO ON OFF)
set(GSP_HAVE_MPI OFF)
if(NOT GSP_MPI STREQUAL "OFF")
  if(GSP_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS C)
  else()
    find_package(MPI QUIET COMPONENTS C)
  endif()
  if(MPI_C_FOUND)
    set(GSP_HAVE_MPI ON)
  endif()
endif()
message(STATUS "gsp: MPI library (libgsp_mpi) ${GSP_HAVE_MPI}")

if(GSP_HAVE_MPI)
  file(GLOB GSP_MPI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/mpi/*.c)
  add_library(gsp_mpi_objects OBJECT ${GSP_MPI_SOURCES})
  target_include_directories(gsp_mpi_objects
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    PRIVATE ${PROJECT_SOURCE_DIR}/src/mpi ${GSP_INTERNAL_INCLUDES})
  target_compile_options(gsp_mpi_objects PRIVATE -Wall -Wextra -Wno-unused-parameter
                         -fvisibility=hidden)
  target_link_libraries(gsp_mpi_objects PUBLIC MPI::MPI_C OpenMP::OpenMP_C)

  add_library(gsp_mpi SHARED $<TARGET_OBJECTS:gsp_mpi_objects>)
  add_library(gsp_mpi_static STATIC $<TARGET_OBJECTS:gsp_mpi_objects>)
  set_target_properties(gsp_mpi_static PROPERTIES OUTPUT_NAME gsp_mpi)
  set_target_properties(gsp_mpi PROPERTIES VERSION ${PROJECT_VERSION}
                        SOVERSION ${PROJECT_VERSION_MAJOR})
  target_link_libraries(gsp_mpi PUBLIC gsp MPI::MPI_C PRIVATE OpenMP::OpenMP_C)
  target_link_libraries(gsp_mpi_static PUBLIC gsp_static MPI::MPI_C OpenMP::OpenMP_C)
  foreach(t gsp_mpi gsp_mpi_static)
    target_include_directories(${t} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
  add_library(gsp::gsp_mpi ALIAS gsp_mpi)
  add_library(gsp::gsp_mpi_static ALIAS gsp_mpi_static)

  # `mpirun -n K gsp apsp ...` (tools/gsp/cli_mpi.c)
  if(TARGET gsp_cli)
    target_link_libraries(gsp_cli PRIVATE gsp_mpi_static)
    target_compile_definitions(gsp_cli PRIVATE GSP_CLI_HAVE_MPI=1)
  endif()

  # installed next to libgsp; find_package(gsp COMPONENTS mpi) loads it
  install(TARGETS gsp_mpi gsp_mpi_static EXPORT gspMPITargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/gsp_mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT gspMPITargets NAMESPACE gsp:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gsp)
  # pkg-config: MPI's own flags, so that plain cc works as well as mpicc
  set(GSP_MPI_PC_CFLAGS "")
  foreach(d ${MPI_C_INCLUDE_DIRS})
    string(APPEND GSP_MPI_PC_CFLAGS " -I${d}")
  endforeach()
  set(GSP_MPI_PC_LIBS "")
  foreach(l ${MPI_C_LIBRARIES})
    string(APPEND GSP_MPI_PC_LIBS " ${l}")
  endforeach()
  file(RELATIVE_PATH GSP_MPI_PC_UP "/r/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/r")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/gsp_mpi.pc.in ${PROJECT_BINARY_DIR}/gsp_mpi.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/gsp_mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
