# cJSON (Debian: libcjson-dev), for md2 import (glTF's JSON) and the md2 command's tests (they read
# JSON with it, never with a parser of our own): the cache entry MD2_CJSON_TARGET names a global
# target to link, or is "" when cJSON is not found. Included once per build.
# SPDX-License-Identifier: MIT
include_guard(GLOBAL)
set(_md2_cjson "")
find_package(cJSON CONFIG QUIET)
if(cJSON_FOUND AND TARGET cjson)
  get_target_property(_md2_cjson_imported cjson IMPORTED)
  if(_md2_cjson_imported)
    set_target_properties(cjson PROPERTIES IMPORTED_GLOBAL TRUE)
  endif()
  set(_md2_cjson cjson)
else()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(MD2_CJSON QUIET IMPORTED_TARGET GLOBAL libcjson)
  endif()
  if(MD2_CJSON_FOUND)
    set(_md2_cjson PkgConfig::MD2_CJSON)
  endif()
endif()
set(MD2_CJSON_TARGET "${_md2_cjson}" CACHE INTERNAL "cJSON's target, or empty")
