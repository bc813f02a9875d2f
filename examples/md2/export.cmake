# md2 export: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
target_sources(md2_tool PRIVATE export.c)
