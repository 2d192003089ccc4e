# One layers.* test (tests/CMakeLists.txt): compiles a file that includes
# HEADER with the include path of one library (INCLUDES) and checks the
# result. EXPECT=missing: the compile must fail because HEADER is not found
# (an include that runs back up a layer); EXPECT=found: it must compile (the
# control, so that the first cannot pass because of a broken command).
#   cmake -DCXX=... -DSTD=-std=c++20 -DINCLUDES="a;b" -DIMPLICIT="/usr/include"
#         -DHEADER=roofline/report/run.hpp -DEXPECT=missing -DSOURCE_DIR=...
#         -DWORK=... -P layer_probe.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var CXX INCLUDES HEADER EXPECT SOURCE_DIR WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "layer_probe.cmake: ${var} not set")
  endif()
endforeach()
# The header must exist, or a missing one would pass for the wrong reason.
if(NOT EXISTS ${SOURCE_DIR}/include/${HEADER} AND NOT EXISTS ${SOURCE_DIR}/src/${HEADER})
  message(FATAL_ERROR "the probe's ${HEADER} is neither in include/ nor in src/: "
    "it moved, pick another header of that layer in tests/CMakeLists.txt")
endif()
string(MAKE_C_IDENTIFIER "${HEADER}" name)
set(probe ${WORK}/${name}-${EXPECT}.cpp)
file(WRITE ${probe} "#include \"${HEADER}\"\n")
set(flags ${STD} -fsyntax-only)
# The compiler's own folders (/usr/include) are left to it, as CMake does: an
# -I of one of them breaks libstdc++'s #include_next under clang.
foreach(dir IN LISTS INCLUDES)
  if(NOT dir IN_LIST IMPLICIT)
    list(APPEND flags -I${dir})
  endif()
endforeach()
execute_process(COMMAND ${CXX} ${flags} ${probe}
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
# GCC: "roofline/report/run.hpp: No such file or directory";
# clang: "'roofline/report/run.hpp' file not found".
string(REGEX REPLACE "([.+])" "\\\\\\1" header_regex "${HEADER}")
if(EXPECT STREQUAL "missing")
  if(result EQUAL 0)
    message(FATAL_ERROR "${HEADER} compiled with this layer's include path: "
      "the layers are not enforced")
  endif()
  if(NOT out MATCHES "${header_regex}'?:? (No such file or directory|file not found)")
    message(FATAL_ERROR "the probe failed, but not because ${HEADER} was not found:\n${out}")
  endif()
  message(STATUS "${HEADER} is out of reach, as it must be:\n${out}")
elseif(EXPECT STREQUAL "found")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${HEADER} did not compile with this layer's include path:\n${out}")
  endif()
else()
  message(FATAL_ERROR "EXPECT is missing or found, not '${EXPECT}'")
endif()
