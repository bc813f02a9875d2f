# md2 render: sources and tests (see CMakeLists.txt)
# SPDX-License-Identifier: MIT
target_sources(md2_tool PRIVATE render.c)
