# libmd2: find cmocka for the tests. Included by the top-level
# CMakeLists.txt, which decides what a missing cmocka means: the default
# MD2_BUILD_TESTS turns off with a message, an explicit -DMD2_BUILD_TESTS=ON
# is an error.
#
# md2_find_cmocka(<out_var>): looks for cmocka and, when it is there,
# creates the INTERFACE target md2_cmocka that the tests link. <out_var> is
# set to where cmocka came from ("pkg-config (cmocka 1.1.5)", ...), or to ""
# when it was not found. The ways, in order:
#   1. MD2_CMOCKA_LIBRARY and MD2_CMOCKA_INCLUDE_DIR set by the caller (the
#      cross toolchain files in tests/cross/ point them at the target's cmocka)
#   2. cmocka's CMake package: cmocka::cmocka in newer releases; cmocka 1.1.5
#      (Debian 12) only sets CMOCKA_INCLUDE_DIR / CMOCKA_LIBRARIES, which are
#      trusted only if they name files that exist
#   3. pkg-config
#   4. find_path() / find_library()
#
# Testing only: -DMD2_CMOCKA_HIDE=ON makes the search find nothing, as if
# cmocka were not installed. The embed_no_cmocka test uses it to check that
# a configure without cmocka still works.
#
# SPDX-License-Identifier: MIT

function(md2_find_cmocka out_var)
  set(${out_var} "" PARENT_SCOPE)
  if(MD2_CMOCKA_HIDE)
    message(STATUS "libmd2: MD2_CMOCKA_HIDE is ON, so cmocka counts as not installed (for testing)")
    return()
  endif()

  set(_via "")
  set(_inc "")
  set(_lib "")

  # 1. An explicit choice wins.
  if(MD2_CMOCKA_LIBRARY AND MD2_CMOCKA_INCLUDE_DIR)
    set(_inc "${MD2_CMOCKA_INCLUDE_DIR}")
    set(_lib "${MD2_CMOCKA_LIBRARY}")
    set(_via "${MD2_CMOCKA_LIBRARY} (set by the caller)")
  endif()

  # 2. cmocka's own CMake package.
  if(NOT _via)
    find_package(cmocka CONFIG QUIET)
    if(TARGET cmocka::cmocka)
      set(_lib cmocka::cmocka)
      set(_via "CMake package (cmocka::cmocka)")
    elseif(cmocka_FOUND)
      set(_pkg_inc ${CMOCKA_INCLUDE_DIRS} ${CMOCKA_INCLUDE_DIR})
      set(_pkg_lib ${CMOCKA_LIBRARIES})
      if(NOT _pkg_lib)
        set(_pkg_lib ${CMOCKA_LIBRARY})
      endif()
      set(_pkg_inc0 "")
      set(_pkg_lib0 "")
      if(_pkg_inc AND _pkg_lib)
        list(GET _pkg_inc 0 _pkg_inc0)
        list(GET _pkg_lib 0 _pkg_lib0)
      endif()
      if(_pkg_inc0 AND _pkg_lib0 AND EXISTS "${_pkg_inc0}/cmocka.h" AND EXISTS "${_pkg_lib0}")
        set(_inc ${_pkg_inc})
        set(_lib ${_pkg_lib})
        set(_via "CMake package ${cmocka_DIR}")
      endif()
    endif()
  endif()

  # 3. pkg-config. The imported target is made in the top-level directory,
  #    so tests/ below it can link it.
  if(NOT _via)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(MD2_CMOCKA QUIET IMPORTED_TARGET cmocka)
      if(MD2_CMOCKA_FOUND)
        set(_lib PkgConfig::MD2_CMOCKA)
        set(_via "pkg-config (cmocka ${MD2_CMOCKA_VERSION})")
      endif()
    endif()
  endif()

  # 4. A plain search.
  if(NOT _via)
    find_path(MD2_CMOCKA_INCLUDE_DIR cmocka.h)
    find_library(MD2_CMOCKA_LIBRARY cmocka)
    if(MD2_CMOCKA_INCLUDE_DIR AND MD2_CMOCKA_LIBRARY)
      set(_inc "${MD2_CMOCKA_INCLUDE_DIR}")
      set(_lib "${MD2_CMOCKA_LIBRARY}")
      set(_via "${MD2_CMOCKA_LIBRARY}")
    endif()
  endif()

  if(NOT _via)
    return()
  endif()
  if(NOT TARGET md2_cmocka)
    add_library(md2_cmocka INTERFACE)
    if(_inc)
      target_include_directories(md2_cmocka INTERFACE ${_inc})
    endif()
    target_link_libraries(md2_cmocka INTERFACE ${_lib})
  endif()
  set(${out_var} "${_via}" PARENT_SCOPE)
endfunction()
