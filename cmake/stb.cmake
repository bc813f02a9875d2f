# stb_image and stb_image_write (Debian: libstb-dev) for md2_view and the md2
# command: defines the target md2_stb (include folder plus code) when
# <stb/stb_image.h> is found, and the cache entry MD2_STB_HAS_WRITE (ON when
# stb_image_write is there too). Debian's libstb holds the code; where there
# is no libstb, the code is compiled from the headers into one generated
# file (third-party code: no -Werror there). Included once per build.
# SPDX-License-Identifier: MIT
include_guard(GLOBAL)

find_path(MD2_STB_INCLUDE_DIR stb/stb_image.h
  DOC "Folder that holds stb/stb_image.h (Debian: libstb-dev)")
find_library(MD2_STB_LIBRARY stb DOC "Debian's libstb, with stb_image's code")
set(_md2_stb_image OFF)
set(_md2_stb_write OFF)
if(MD2_STB_INCLUDE_DIR AND MD2_STB_LIBRARY)
  include(CheckLibraryExists)
  check_library_exists("${MD2_STB_LIBRARY}" stbi_load_from_memory "" MD2_STB_LIB_HAS_IMAGE)
  check_library_exists("${MD2_STB_LIBRARY}" stbi_write_png "" MD2_STB_LIB_HAS_WRITE)
  if(MD2_STB_LIB_HAS_IMAGE)
    set(_md2_stb_image ON)
    set(_md2_stb_write ${MD2_STB_LIB_HAS_WRITE})
  endif()
endif()

if(MD2_STB_INCLUDE_DIR)
  if(_md2_stb_image)
    add_library(md2_stb INTERFACE)
    target_link_libraries(md2_stb INTERFACE "${MD2_STB_LIBRARY}")
  else()
    if(EXISTS "${MD2_STB_INCLUDE_DIR}/stb/stb_image_write.h")
      set(_md2_stb_write ON)
    endif()
    set(_md2_stb_c "#define STB_IMAGE_IMPLEMENTATION\n#include <stb/stb_image.h>\n")
    if(_md2_stb_write)
      string(APPEND _md2_stb_c
        "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb/stb_image_write.h>\n")
    endif()
    file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/md2_stb.c" CONTENT "${_md2_stb_c}")
    add_library(md2_stb STATIC "${PROJECT_BINARY_DIR}/md2_stb.c")
    target_include_directories(md2_stb PRIVATE "${MD2_STB_INCLUDE_DIR}")
    md2_target_sanitizers(md2_stb)
    if(MD2_HAVE_LIBM)
      target_link_libraries(md2_stb PUBLIC m)
    endif()
    unset(_md2_stb_c)
  endif()
  target_include_directories(md2_stb INTERFACE "${MD2_STB_INCLUDE_DIR}")
endif()
set(MD2_STB_HAS_WRITE ${_md2_stb_write} CACHE INTERNAL "stb_image_write is available")
unset(_md2_stb_image)
unset(_md2_stb_write)
