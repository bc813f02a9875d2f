# Driver of the embedding tests (registered in tests/CMakeLists.txt):
#   cmake -DMODE=<subdir|install|findpkg|pkgconfig|nocmocka> -DMD2_SOURCE_DIR=...
#         -DMD2_BINARY_DIR=... -DWORK_DIR=... [more -D...] -P run_embed.cmake
# Every step must succeed; the first that fails ends the script with an
# error (exit code 1). A step that cannot run here prints MD2_EMBED_SKIPPED,
# which CTest reports as a skip.
# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.21)

foreach(_var IN ITEMS MODE MD2_SOURCE_DIR MD2_BINARY_DIR WORK_DIR C_COMPILER)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "run_embed.cmake: -D${_var}=... is required")
  endif()
endforeach()

set(_embed_src "${MD2_SOURCE_DIR}/tests/embed")
set(_prefix "${WORK_DIR}/prefix")
set(_sanitize_flags "")
if(SANITIZE)
  set(_sanitize_flags "-fsanitize=address,undefined -fno-sanitize-recover=all")
endif()

# step(<what> COMMAND ...): run one command, fail the test if it fails.
function(step what)
  list(JOIN ARGN " " _cmdline)
  message(STATUS "[embed ${MODE}] ${what}: ${_cmdline}")
  execute_process(${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc STREQUAL "0")
    message(FATAL_ERROR "[embed ${MODE}] ${what} failed (${_rc})")
  endif()
endfunction()

# generator_args(<out_var>): the generator, make program and build type of
# the outer build, as configure arguments.
function(generator_args out_var)
  set(_gen_args "")
  if(GENERATOR)
    list(APPEND _gen_args -G "${GENERATOR}")
  endif()
  if(MAKE_PROGRAM)
    list(APPEND _gen_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  if(BUILD_TYPE)
    list(APPEND _gen_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
  endif()
  set(${out_var} "${_gen_args}" PARENT_SCOPE)
endfunction()

# configure_build_run(<project dir> <build dir> <programs> <extra cmake args...>)
function(configure_build_run project_dir build_dir programs)
  generator_args(_gen_args)
  file(REMOVE_RECURSE "${build_dir}")
  step("configure" COMMAND "${CMAKE_COMMAND}" -S "${project_dir}" -B "${build_dir}"
       ${_gen_args} "-DCMAKE_C_COMPILER=${C_COMPILER}" ${ARGN})
  set(_config_args "")
  if(BUILD_TYPE)
    set(_config_args --config "${BUILD_TYPE}")
  endif()
  step("build" COMMAND "${CMAKE_COMMAND}" --build "${build_dir}" ${_config_args} --parallel 2)
  foreach(_prog IN LISTS programs)
    set(_exe "${build_dir}/bin/${_prog}${CMAKE_EXECUTABLE_SUFFIX}")
    step("run ${_prog}" COMMAND "${_exe}")
  endforeach()
endfunction()

if(MODE STREQUAL "subdir")
  # A fresh libmd2 inside another project, with that project's own flags:
  # MD2_SANITIZE is not passed on, so no sanitizer runtime is needed.
  set(_programs consumer_c)
  set(_extra "")
  if(WITH_CXX)
    list(APPEND _programs consumer_cpp)
    list(APPEND _extra "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  configure_build_run("${_embed_src}/subdir" "${WORK_DIR}/subdir-build" "${_programs}"
    ${_extra}
    "-DMD2_SOURCE_DIR=${MD2_SOURCE_DIR}"
    "-DWITH_CXX=${WITH_CXX}"
    "-DBUILD_SHARED_LIBS=${SHARED}")

elseif(MODE STREQUAL "install")
  # Install this build tree to a private prefix, then check what is there.
  file(REMOVE_RECURSE "${_prefix}")
  set(_config_args "")
  if(BUILD_TYPE)
    set(_config_args --config "${BUILD_TYPE}")
  endif()
  step("install" COMMAND "${CMAKE_COMMAND}" --install "${MD2_BINARY_DIR}"
       --prefix "${_prefix}" ${_config_args})
  file(GLOB_RECURSE _installed RELATIVE "${_prefix}" LIST_DIRECTORIES false "${_prefix}/*")
  set(_expected
    "include/md2/md2.h"
    "lib[^/]*/(.*/)?cmake/md2/md2Config\\.cmake"
    "lib[^/]*/(.*/)?cmake/md2/md2ConfigVersion\\.cmake"
    "lib[^/]*/(.*/)?cmake/md2/md2Targets\\.cmake"
    "lib[^/]*/(.*/)?pkgconfig/md2\\.pc"
    "(lib[^/]*|bin)/(.*/)?(lib)?md2[^/]*\\.(a|so[.0-9]*|dylib|lib|dll)")
  foreach(_re IN LISTS _expected)
    set(_found OFF)
    foreach(_f IN LISTS _installed)
      if(_f MATCHES "^${_re}$")
        set(_found ON)
      endif()
    endforeach()
    if(NOT _found)
      message(FATAL_ERROR "[embed install] nothing installed matches ${_re}; installed:\n${_installed}")
    endif()
  endforeach()
  # Nothing else: no internal headers, no one-file build (it is for
  # copying, not installing: README.md), tests or examples.
  foreach(_f IN LISTS _installed)
    if(NOT _f MATCHES "^(include/md2/[^/]*\\.h|lib[^/]*/(.*/)?cmake/md2/md2[A-Za-z-]*\\.cmake|lib[^/]*/(.*/)?pkgconfig/md2\\.pc|(lib[^/]*|bin)/(.*/)?(lib)?md2[^/]*)$")
      message(FATAL_ERROR "[embed install] unexpected installed file: ${_f}")
    endif()
  endforeach()
  # The md2 command, when this build made it, is installed and runs.
  if(EXISTS "${MD2_BINARY_DIR}/md2" AND NOT IS_DIRECTORY "${MD2_BINARY_DIR}/md2")
    if(NOT EXISTS "${_prefix}/bin/md2")
      message(FATAL_ERROR "[embed install] the md2 command was built but not installed to bin/")
    endif()
    execute_process(COMMAND "${_prefix}/bin/md2" --version RESULT_VARIABLE _rc
      OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
    if(NOT _rc EQUAL 0 OR NOT _out MATCHES "^md2 \\(libmd2\\) [0-9]+\\.[0-9]+\\.[0-9]+\n$")
      message(FATAL_ERROR "[embed install] bin/md2 --version: status ${_rc}, output: ${_out}")
    endif()
    message(STATUS "[embed install] bin/md2 runs: ${_out}")
  endif()
  list(LENGTH _installed _n)
  message(STATUS "[embed install] ${_n} files installed to ${_prefix}")

elseif(MODE STREQUAL "findpkg")
  # An installed libmd2 (from the embed_install test) found by find_package.
  # A sanitized static library needs the sanitizer runtime in the consumer.
  set(_extra "")
  if(SANITIZE)
    list(APPEND _extra "-DCMAKE_C_FLAGS=${_sanitize_flags}"
                       "-DCMAKE_EXE_LINKER_FLAGS=${_sanitize_flags}")
  endif()
  configure_build_run("${_embed_src}/findpkg" "${WORK_DIR}/findpkg-build" consumer_c
    "-DCMAKE_PREFIX_PATH=${_prefix}"
    "-DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON"
    ${_extra})

elseif(MODE STREQUAL "pkgconfig")
  # cc consumer.c $(pkg-config --cflags --libs md2) against the installed tree.
  if(NOT PKG_CONFIG)
    message(STATUS "MD2_EMBED_SKIPPED: pkg-config was not found")
    return()
  endif()
  file(GLOB _pcdirs LIST_DIRECTORIES true "${_prefix}/lib*/pkgconfig" "${_prefix}/lib*/*/pkgconfig")
  if(NOT _pcdirs)
    message(FATAL_ERROR "[embed pkgconfig] no pkgconfig folder under ${_prefix} (did embed_install run?)")
  endif()
  list(JOIN _pcdirs ":" _pcpath)
  set(ENV{PKG_CONFIG_PATH} "${_pcpath}")
  unset(ENV{PKG_CONFIG_LIBDIR})
  unset(ENV{PKG_CONFIG_SYSROOT_DIR})

  foreach(_what IN ITEMS cflags libs)
    execute_process(COMMAND "${PKG_CONFIG}" --${_what} md2
      RESULT_VARIABLE _rc OUTPUT_VARIABLE _out OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT _rc STREQUAL "0")
      message(FATAL_ERROR "[embed pkgconfig] pkg-config --${_what} md2 failed (${_rc}), PKG_CONFIG_PATH=${_pcpath}")
    endif()
    message(STATUS "[embed pkgconfig] pkg-config --${_what} md2: ${_out}")
    set(_pc_${_what} "${_out}")
  endforeach()

  # The flags a static or shared build needs, and only those.
  if(SHARED)
    if(_pc_cflags MATCHES "MD2_STATIC")
      message(FATAL_ERROR "[embed pkgconfig] shared build, but Cflags has -DMD2_STATIC")
    endif()
  else()
    if(NOT _pc_cflags MATCHES "(^| )-DMD2_STATIC( |$)")
      message(FATAL_ERROR "[embed pkgconfig] static build, but Cflags lacks -DMD2_STATIC")
    endif()
    if(HAVE_LIBM AND NOT _pc_libs MATCHES "(^| )-lm( |$)")
      message(FATAL_ERROR "[embed pkgconfig] static build, but Libs lacks -lm")
    endif()
  endif()
  execute_process(COMMAND "${PKG_CONFIG}" --variable=libdir md2
    OUTPUT_VARIABLE _libdir OUTPUT_STRIP_TRAILING_WHITESPACE)

  separate_arguments(_cflags UNIX_COMMAND "${_pc_cflags} ${_sanitize_flags}")
  separate_arguments(_libs UNIX_COMMAND "${_pc_libs} ${_sanitize_flags}")
  set(_out_dir "${WORK_DIR}/pkgconfig-build")
  file(REMOVE_RECURSE "${_out_dir}")
  file(MAKE_DIRECTORY "${_out_dir}")
  set(_exe "${_out_dir}/consumer_c${CMAKE_EXECUTABLE_SUFFIX}")
  step("compile" COMMAND "${C_COMPILER}" -std=c99 -Wall -Wextra -Wpedantic -Werror
       ${_cflags} "${_embed_src}/consumer.c" -o "${_exe}" ${_libs})
  # A shared libmd2 is found through the loader path.
  set(ENV{LD_LIBRARY_PATH} "${_libdir}:$ENV{LD_LIBRARY_PATH}")
  set(ENV{DYLD_LIBRARY_PATH} "${_libdir}:$ENV{DYLD_LIBRARY_PATH}")
  step("run consumer_c" COMMAND "${_exe}")

elseif(MODE STREQUAL "nocmocka")
  # A new user's plain `cmake -S . -B build` on a machine without cmocka:
  # configure and build must work with the tests turned off and a message
  # that names the package to install; an explicit -DMD2_BUILD_TESTS=ON (on
  # the command line or already in the cache) must stay an error.
  # MD2_CMOCKA_HIDE=ON (cmake/cmocka.cmake) hides the installed cmocka.
  generator_args(_gen_args)
  set(_hide -DMD2_CMOCKA_HIDE=ON -DCMAKE_DISABLE_FIND_PACKAGE_cmocka=ON)
  set(_build "${WORK_DIR}/nocmocka-build")
  set(_build_on "${WORK_DIR}/nocmocka-on-build")
  file(REMOVE_RECURSE "${_build}" "${_build_on}")

  # nocmocka_configure(<expect 0|fail> <what> <cmake args...>): configure, check the
  # exit code, and keep the output in _out (stdout and stderr).
  function(nocmocka_configure expect what)
    list(JOIN ARGN " " _cmdline)
    message(STATUS "[embed nocmocka] ${what}: cmake ${_cmdline}")
    execute_process(COMMAND "${CMAKE_COMMAND}" ${ARGN}
      RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _o)
    if(expect STREQUAL "0" AND NOT _rc STREQUAL "0")
      message(FATAL_ERROR "[embed nocmocka] ${what}: configure failed (${_rc}):\n${_o}")
    elseif(expect STREQUAL "fail" AND _rc STREQUAL "0")
      message(FATAL_ERROR "[embed nocmocka] ${what}: configure succeeded, but should have failed:\n${_o}")
    endif()
    set(_out "${_o}" PARENT_SCOPE)
  endfunction()

  # expect_output(<what> <regex>): the last configure printed <regex>.
  function(expect_output what regex)
    if(NOT _out MATCHES "${regex}")
      message(FATAL_ERROR "[embed nocmocka] ${what}: the output does not match '${regex}':\n${_out}")
    endif()
    string(REGEX MATCH "[^\n]*${regex}[^\n]*" _line "${_out}")
    message(STATUS "[embed nocmocka] ${what}: ok, it says: ${_line}")
  endfunction()

  # expect_cached(<build dir> <value>): MD2_BUILD_TESTS in that cache.
  function(expect_cached build_dir value)
    file(STRINGS "${build_dir}/CMakeCache.txt" _line REGEX "^MD2_BUILD_TESTS:")
    if(NOT _line STREQUAL "MD2_BUILD_TESTS:STRING=${value}")
      message(FATAL_ERROR "[embed nocmocka] ${build_dir}: expected MD2_BUILD_TESTS=${value}, the cache has '${_line}'")
    endif()
  endfunction()

  # 1. The default: configure and build work, the tests are off.
  nocmocka_configure(0 "default configure" -S "${MD2_SOURCE_DIR}" -B "${_build}" ${_gen_args}
    "-DCMAKE_C_COMPILER=${C_COMPILER}" ${_hide})
  expect_output("default configure" "libcmocka-dev")
  expect_cached("${_build}" AUTO)
  set(_config_args "")
  if(BUILD_TYPE)
    set(_config_args --config "${BUILD_TYPE}")
  endif()
  step("build" COMMAND "${CMAKE_COMMAND}" --build "${_build}" ${_config_args} --parallel 2)
  # no CTest tests anywhere, the examples' included
  foreach(_f IN ITEMS CTestTestfile.cmake examples/CTestTestfile.cmake tests)
    if(EXISTS "${_build}/${_f}")
      message(FATAL_ERROR "[embed nocmocka] tests are off, but ${_build}/${_f} exists")
    endif()
  endforeach()

  # 2. A re-configure of the same folder keeps working (MD2_BUILD_TESTS is
  #    AUTO in the cache, libmd2's default, not the user's choice).
  nocmocka_configure(0 "re-configure" -S "${MD2_SOURCE_DIR}" -B "${_build}")
  expect_output("re-configure" "libcmocka-dev")
  expect_cached("${_build}" AUTO)

  # 3. -DMD2_BUILD_TESTS=ON in that folder is an error that names the package,
  #    and stays one on the next re-configure (the user's choice is cached).
  nocmocka_configure(fail "re-configure with -DMD2_BUILD_TESTS=ON" -S "${MD2_SOURCE_DIR}" -B "${_build}"
    -DMD2_BUILD_TESTS=ON)
  expect_output("re-configure with -DMD2_BUILD_TESTS=ON" "libcmocka-dev")
  nocmocka_configure(fail "re-configure, ON in the cache" -S "${MD2_SOURCE_DIR}" -B "${_build}")
  expect_output("re-configure, ON in the cache" "MD2_BUILD_TESTS[ \t\r\n]+is[ \t\r\n]+ON")

  # 4. The same in a new folder.
  nocmocka_configure(fail "new folder with -DMD2_BUILD_TESTS=ON" -S "${MD2_SOURCE_DIR}" -B "${_build_on}"
    ${_gen_args} "-DCMAKE_C_COMPILER=${C_COMPILER}" ${_hide} -DMD2_BUILD_TESTS=ON)
  expect_output("new folder with -DMD2_BUILD_TESTS=ON" "libcmocka-dev")

  file(REMOVE_RECURSE "${_build}" "${_build_on}")
  message(STATUS "[embed nocmocka] without cmocka: default configure and build work, -DMD2_BUILD_TESTS=ON fails")

else()
  message(FATAL_ERROR "run_embed.cmake: unknown MODE '${MODE}'")
endif()
