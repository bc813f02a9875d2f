# The embedding tests (tests/embed/CMakeLists.txt registers them as embed_<MODE>):
#   cmake -DMODE=add_subdirectory|install|find_package|pkg_config|no_cmocka -DMD2_SOURCE_DIR=...
#         -DMD2_BINARY_DIR=... -DWORK_DIR=... -DC_COMPILER=... [more -D...] -P run_embed.cmake
# The first step that fails ends the script with an error; one that cannot run here prints MD2_EMBED_SKIPPED.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)
set(_embed_src "${MD2_SOURCE_DIR}/tests/embed")
set(_prefix "${WORK_DIR}/prefix")
set(_sanitize_flags "")
set(_sanitize_args "") # for a CMake project (find_package)
if(SANITIZE)
  set(_sanitize_flags "-fsanitize=address,undefined -fno-sanitize-recover=all")
  set(_sanitize_args "-DCMAKE_C_FLAGS=${_sanitize_flags}" "-DCMAKE_EXE_LINKER_FLAGS=${_sanitize_flags}")
endif()
# the generator, make program and build type of the outer build, for configure and build
set(_gen_args -G "${GENERATOR}")
set(_config_args "")
if(MAKE_PROGRAM)
  list(APPEND _gen_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(BUILD_TYPE)
  list(APPEND _gen_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
  set(_config_args --config "${BUILD_TYPE}")
endif()

function(step what)
  list(JOIN ARGN " " _cmdline)
  message(STATUS "[embed ${MODE}] ${what}: ${_cmdline}")
  execute_process(${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "[embed ${MODE}] ${what} failed (${_rc})")
  endif()
endfunction()

function(configure_build_run project_dir build_dir programs) # ARGN: more cmake arguments
  file(REMOVE_RECURSE "${build_dir}")
  step("configure" COMMAND "${CMAKE_COMMAND}" -S "${project_dir}" -B "${build_dir}"
       ${_gen_args} "-DCMAKE_C_COMPILER=${C_COMPILER}" ${ARGN})
  step("build" COMMAND "${CMAKE_COMMAND}" --build "${build_dir}" ${_config_args} --parallel 2)
  foreach(_prog IN LISTS programs)
    step("run ${_prog}" COMMAND "${build_dir}/bin/${_prog}${CMAKE_EXECUTABLE_SUFFIX}")
  endforeach()
endfunction()

if(MODE STREQUAL "add_subdirectory")
  # A fresh libmd2 inside another project, with its flags (no MD2_SANITIZE: no runtime needed).
  string(REPEAT ";consumer_cpp" ${WITH_CXX} _cpp) # WITH_CXX: 1 or 0
  configure_build_run("${_embed_src}/subdir" "${WORK_DIR}/subdir-build" "consumer_c${_cpp}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DMD2_SOURCE_DIR=${MD2_SOURCE_DIR}" "-DWITH_CXX=${WITH_CXX}" "-DBUILD_SHARED_LIBS=${SHARED}")

elseif(MODE STREQUAL "install")
  # Install this build tree to a private prefix: these files, nothing else (no internal headers,
  # tests, examples or one-file build, which is for copying: README.md).
  file(REMOVE_RECURSE "${_prefix}")
  step("install" COMMAND "${CMAKE_COMMAND}" --install "${MD2_BINARY_DIR}" --prefix "${_prefix}" ${_config_args})
  file(GLOB_RECURSE _installed RELATIVE "${_prefix}" LIST_DIRECTORIES false "${_prefix}/*")
  set(_cmake "lib[^/]*/(.*/)?cmake/md2/md2")
  foreach(_re IN ITEMS "include/md2/md2\\.h" "${_cmake}Config\\.cmake" "${_cmake}ConfigVersion\\.cmake"
      "${_cmake}Targets\\.cmake" "lib[^/]*/(.*/)?pkgconfig/md2\\.pc"
      "(lib[^/]*|bin)/(.*/)?(lib)?md2[^/]*\\.(a|so[.0-9]*|dylib|lib|dll)")
    set(_found ${_installed})
    list(FILTER _found INCLUDE REGEX "^${_re}$")
    if(NOT _found)
      message(FATAL_ERROR "[embed install] nothing installed matches ${_re}; installed:\n${_installed}")
    endif()
  endforeach()
  foreach(_f IN LISTS _installed)
    if(NOT _f MATCHES "^(include/md2/[^/]*\\.h|${_cmake}[A-Za-z-]*\\.cmake|lib[^/]*/(.*/)?pkgconfig/md2\\.pc|(lib[^/]*|bin)/(.*/)?(lib)?md2[^/]*)$")
      message(FATAL_ERROR "[embed install] unexpected installed file: ${_f}")
    endif()
  endforeach()
  # The md2 command, when this build made it, is installed and runs.
  if(EXISTS "${MD2_BINARY_DIR}/md2" AND NOT IS_DIRECTORY "${MD2_BINARY_DIR}/md2")
    execute_process(COMMAND "${_prefix}/bin/md2" --version RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
    if(NOT _rc EQUAL 0 OR NOT _out MATCHES "^md2 \\(libmd2\\) [0-9]+\\.[0-9]+\\.[0-9]+\n$")
      message(FATAL_ERROR "[embed install] the md2 command was built, but bin/md2 --version "
        "gives status ${_rc} (not installed to bin/?), output: ${_out}")
    endif()
    message(STATUS "[embed install] bin/md2 runs: ${_out}")
  endif()
  list(LENGTH _installed _n)
  message(STATUS "[embed install] ${_n} files installed to ${_prefix}")

elseif(MODE STREQUAL "find_package")
  # embed_install's libmd2, found by find_package; a sanitized one needs the runtime.
  configure_build_run("${_embed_src}/findpkg" "${WORK_DIR}/findpkg-build" consumer_c
    "-DCMAKE_PREFIX_PATH=${_prefix}" "-DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON" ${_sanitize_args})

elseif(MODE STREQUAL "pkg_config")
  # cc consumer.c $(pkg-config --cflags --libs md2) against the installed tree.
  if(NOT PKG_CONFIG)
    message(STATUS "MD2_EMBED_SKIPPED: pkg-config was not found")
    return()
  endif()
  file(GLOB _pcdirs LIST_DIRECTORIES true "${_prefix}/lib*/pkgconfig" "${_prefix}/lib*/*/pkgconfig")
  if(NOT _pcdirs)
    message(FATAL_ERROR "[embed pkg_config] no pkgconfig folder under ${_prefix} (did embed_install run?)")
  endif()
  list(JOIN _pcdirs ":" _pcpath)
  set(ENV{PKG_CONFIG_PATH} "${_pcpath}")
  unset(ENV{PKG_CONFIG_LIBDIR})
  unset(ENV{PKG_CONFIG_SYSROOT_DIR})
  foreach(_what IN ITEMS cflags libs)
    execute_process(COMMAND "${PKG_CONFIG}" --${_what} md2
      RESULT_VARIABLE _rc OUTPUT_VARIABLE _pc_${_what} OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT _rc STREQUAL "0")
      message(FATAL_ERROR "[embed pkg_config] pkg-config --${_what} md2 failed (${_rc}), PKG_CONFIG_PATH=${_pcpath}")
    endif()
    message(STATUS "[embed pkg_config] pkg-config --${_what} md2: ${_pc_${_what}}")
  endforeach()
  execute_process(COMMAND "${PKG_CONFIG}" --variable=libdir md2 OUTPUT_VARIABLE _libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  # The flags a static or shared build needs, and only those.
  if(SHARED AND _pc_cflags MATCHES "MD2_STATIC")
    message(FATAL_ERROR "[embed pkg_config] shared build, but Cflags has -DMD2_STATIC")
  elseif(NOT SHARED AND NOT _pc_cflags MATCHES "(^| )-DMD2_STATIC( |$)")
    message(FATAL_ERROR "[embed pkg_config] static build, but Cflags lacks -DMD2_STATIC")
  elseif(NOT SHARED AND HAVE_LIBM AND NOT _pc_libs MATCHES "(^| )-lm( |$)")
    message(FATAL_ERROR "[embed pkg_config] static build, but Libs lacks -lm")
  endif()
  separate_arguments(_cflags UNIX_COMMAND "${_pc_cflags} ${_sanitize_flags}")
  separate_arguments(_libs UNIX_COMMAND "${_pc_libs} ${_sanitize_flags}")
  set(_exe "${WORK_DIR}/pkgconfig-build/consumer_c${CMAKE_EXECUTABLE_SUFFIX}")
  file(REMOVE_RECURSE "${WORK_DIR}/pkgconfig-build")
  file(MAKE_DIRECTORY "${WORK_DIR}/pkgconfig-build")
  step("compile" COMMAND "${C_COMPILER}" -std=c99 -Wall -Wextra -Wpedantic -Werror ${_cflags} "${_embed_src}/consumer.c"
    -o "${_exe}" ${_libs})
  # A shared libmd2 is found through the loader path.
  set(ENV{LD_LIBRARY_PATH} "${_libdir}:$ENV{LD_LIBRARY_PATH}")
  set(ENV{DYLD_LIBRARY_PATH} "${_libdir}:$ENV{DYLD_LIBRARY_PATH}")
  step("run consumer_c" COMMAND "${_exe}")

elseif(MODE STREQUAL "no_cmocka")
  # A new user's plain `cmake -S . -B build` without cmocka (MD2_CMOCKA_HIDE=ON hides the installed one:
  # cmake/cmocka.cmake): configure and build work, the tests off with a message that names the package
  # to install; -DMD2_BUILD_TESTS=ON (on the command line or already in the cache) is an error naming it.
  set(_new -S "${MD2_SOURCE_DIR}" ${_gen_args} "-DCMAKE_C_COMPILER=${C_COMPILER}" -DMD2_CMOCKA_HIDE=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_cmocka=ON) # a new folder (-B), cmocka hidden
  set(_build "${WORK_DIR}/nocmocka-build")
  set(_again -S "${MD2_SOURCE_DIR}" -B "${_build}")
  set(_build_on "${WORK_DIR}/nocmocka-on-build")
  file(REMOVE_RECURSE "${_build}" "${_build_on}")
  # configure(<0|fail> <what> <regex> <cmake args...>): configure, check the exit code and that the
  # output (stdout and stderr) matches <regex>; after a configure that works, the default is in the
  # cache and there are no CTest tests anywhere, the examples' included.
  function(configure expect what regex)
    list(JOIN ARGN " " _cmdline)
    message(STATUS "[embed no_cmocka] ${what}: cmake ${_cmdline}")
    execute_process(COMMAND "${CMAKE_COMMAND}" ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _o)
    if(expect STREQUAL "0" AND NOT _rc STREQUAL "0")
      message(FATAL_ERROR "[embed no_cmocka] ${what}: configure failed (${_rc}):\n${_o}")
    elseif(expect STREQUAL "fail" AND _rc STREQUAL "0")
      message(FATAL_ERROR "[embed no_cmocka] ${what}: configure succeeded, but should have failed:\n${_o}")
    elseif(NOT _o MATCHES "${regex}")
      message(FATAL_ERROR "[embed no_cmocka] ${what}: the output does not match '${regex}':\n${_o}")
    endif()
    string(REGEX MATCH "[^\n]*${regex}[^\n]*" _line "${_o}")
    message(STATUS "[embed no_cmocka] ${what}: ok, it says: ${_line}")
    file(STRINGS "${_build}/CMakeCache.txt" _line REGEX "^MD2_BUILD_TESTS:")
    if(expect STREQUAL "0" AND NOT _line STREQUAL "MD2_BUILD_TESTS:STRING=AUTO")
      message(FATAL_ERROR "[embed no_cmocka] expected MD2_BUILD_TESTS=AUTO in the cache, it has '${_line}'")
    endif()
    foreach(_f IN ITEMS CTestTestfile.cmake examples/CTestTestfile.cmake tests)
      if(expect STREQUAL "0" AND EXISTS "${_build}/${_f}")
        message(FATAL_ERROR "[embed no_cmocka] tests are off, but ${_build}/${_f} exists")
      endif()
    endforeach()
  endfunction()
  # 1. The default: configure and build work, the tests are off. 2. A re-configure of the same
  #    folder keeps working. 3. -DMD2_BUILD_TESTS=ON in that folder is an error that names the
  #    package, and stays one on the next re-configure (the user's choice is cached).
  configure(0 "default configure" "libcmocka-dev" ${_new} -B "${_build}")
  step("build" COMMAND "${CMAKE_COMMAND}" --build "${_build}" ${_config_args} --parallel 2)
  configure(0 "re-configure" "libcmocka-dev" ${_again})
  configure(fail "re-configure with -DMD2_BUILD_TESTS=ON" "libcmocka-dev" ${_again} -DMD2_BUILD_TESTS=ON)
  configure(fail "re-configure, ON in the cache" "MD2_BUILD_TESTS[ \t\r\n]+is[ \t\r\n]+ON" ${_again})
  # 4. The same in a new folder.
  configure(fail "new folder, ON" "libcmocka-dev" ${_new} -B "${_build_on}" -DMD2_BUILD_TESTS=ON)
  file(REMOVE_RECURSE "${_build}" "${_build_on}")
  message(STATUS "[embed no_cmocka] without cmocka: default configure and build work, -DMD2_BUILD_TESTS=ON fails")

else()
  message(FATAL_ERROR "run_embed.cmake: unknown MODE '${MODE}'")
endif()
