# md2 info: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
target_sources(md2_tool PRIVATE info.c)
