#!/bin/sh
# Install what the test suite needs (where missing), then build libmd2 and
# run the whole test suite with CTest.
#
#   sh tests/run.sh                   build-test/: -Werror build, every test
#   MD2_SANITIZE=1 sh tests/run.sh    build-asan/: ASan + UBSan build
#   MD2_VALGRIND=1 sh tests/run.sh    also runs each test under valgrind
#   MD2_PLAIN=0 MD2_VALGRIND=1 sh tests/run.sh
#                                     only the valgrind passes (the plain
#                                     suite ran before in the same folder:
#                                     CI's stage 3 after stage 1)
#
# Environment:
#   MD2_BUILD_DIR    build folder (default build-test, or build-asan with
#                    MD2_SANITIZE=1); relative to the repository root
#   MD2_BUILD_TYPE   CMAKE_BUILD_TYPE (default Debug)
#   MD2_WERROR       0 to build without -Werror (default 1)
#   MD2_CMAKE_ARGS   more configure arguments, e.g. -DBUILD_SHARED_LIBS=ON
#   MD2_JOBS         parallel build and test jobs (default 2)
#   MD2_VALGRIND_ARGS
#                    more valgrind options for the valgrind pass of the test
#                    programs, e.g. --track-origins=yes (where an
#                    uninitialised value came from: it doubles the time, so
#                    it is left out unless asked for)
#   CC, CXX          compilers, read by CMake when it first configures a folder
#   CI               "true" (CI sets it): md2_view's packages are required and
#                    configured with -DMD2_REQUIRE_VIEWER=ON, so CI never skips
#                    the viewer or its tests; likewise node, npm and the npm
#                    judges of the md2 export tests, and the MD2 judges
#                    (three.js, Assimp, Irrlicht: -DMD2_REQUIRE_JUDGES=ON)
# Exits non-zero if anything fails.
#
# SPDX-License-Identifier: MIT
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
md2_script=tests/run.sh
. "$root/tests/scripts/lib.sh"

sanitize=${MD2_SANITIZE:-0}
valgrind=${MD2_VALGRIND:-0}
jobs=${MD2_JOBS:-2}
build_type=${MD2_BUILD_TYPE:-Debug}
if [ "$sanitize" = 1 ]; then
    build_dir=${MD2_BUILD_DIR:-build-asan}
else
    build_dir=${MD2_BUILD_DIR:-build-test}
fi
if [ "$sanitize" = 1 ] && [ "$valgrind" = 1 ]; then
    die "MD2_SANITIZE=1 and MD2_VALGRIND=1 do not mix (valgrind cannot run ASan programs); run them one at a time"
fi
werror=ON
if [ "${MD2_WERROR:-1}" = 0 ]; then werror=OFF; fi
san_flag=OFF
if [ "$sanitize" = 1 ]; then san_flag=ON; fi

# ---------------------------------------------------------------------------
# Prerequisites
# ---------------------------------------------------------------------------
say "Checking prerequisites"
missing=""
have cmake || missing="$missing cmake"
have cc || missing="$missing gcc"
have c++ || missing="$missing g++"
have pkg-config || missing="$missing pkg-config"
if ! { have pkg-config && pkg-config --exists cmocka; } && [ ! -f /usr/include/cmocka.h ]; then
    missing="$missing libcmocka-dev"
fi
# the PCX tests compare md2_pcx_decode() with ImageMagick's pixels
if ! have convert || ! have identify; then
    missing="$missing imagemagick"
fi
if [ "$valgrind" = 1 ] && ! have valgrind; then
    missing="$missing valgrind"
fi
# md2_view (examples/md2_view.c) and its screenshot tests: GLFW, libepoxy,
# stb_image, and Xvfb with Mesa's software OpenGL (llvmpipe); the md2
# command (tool): stb_image and libpng, and for its tests
# (tests/tool) cJSON, which reads the JSON they check. Installed when
# apt-get can; without them a user's build skips those programs with a
# message, but with CI=true they are required.
require_viewer=OFF
if [ "${CI:-}" = true ]; then require_viewer=ON; fi
viewer_missing=""
{ have pkg-config && pkg-config --exists glfw3; } || viewer_missing="$viewer_missing libglfw3-dev"
{ have pkg-config && pkg-config --exists epoxy; } || viewer_missing="$viewer_missing libepoxy-dev"
if ! { have pkg-config && pkg-config --exists stb; } || [ ! -f /usr/include/stb/stb_image.h ]; then
    viewer_missing="$viewer_missing libstb-dev"
fi
{ have pkg-config && pkg-config --exists libpng; } || viewer_missing="$viewer_missing libpng-dev"
{ have pkg-config && pkg-config --exists libcjson; } || viewer_missing="$viewer_missing libcjson-dev"
have xvfb-run || viewer_missing="$viewer_missing xvfb"
have xauth || viewer_missing="$viewer_missing xauth"
swrast=""
for f in /usr/lib/*/dri/swrast_dri.so /usr/lib/dri/swrast_dri.so /usr/lib64/dri/swrast_dri.so; do
    if [ -f "$f" ]; then swrast=$f; fi
done
[ -n "$swrast" ] || viewer_missing="$viewer_missing libgl1-mesa-dri"
if [ -n "$viewer_missing" ]; then
    if [ "$require_viewer" = ON ] ||
        { have apt-get && { [ "$(id -u)" = 0 ] || have sudo; }; }; then
        missing="$missing$viewer_missing"
    else
        echo "not installing$viewer_missing (no apt-get, or not root and no sudo): md2_view, the md2 command or their tests may be skipped"
    fi
fi
# The judges of the md2 export tests (the judge clauses of
# tests/tool/export.cases): node and npm, which installs the Khronos
# glTF-Validator and three.js below. As for the viewer: installed when
# apt-get can, required with CI=true.
judges_missing=""
have node || have nodejs || judges_missing="$judges_missing nodejs"
have npm || judges_missing="$judges_missing npm"
# The MD2 judges (tests/judges): Assimp and Irrlicht read every model the
# tests judge (three.js's MD2Loader comes with three, below).
{ have pkg-config && pkg-config --exists assimp; } || judges_missing="$judges_missing libassimp-dev"
[ -f /usr/include/irrlicht/irrlicht.h ] || judges_missing="$judges_missing libirrlicht-dev"
# Blender (tests/judges/CMakeLists.txt): its glTF importer judges md2 export;
# Debian's blender runs the system's python3, which needs numpy.
have blender || judges_missing="$judges_missing blender"
{ [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import numpy" 2>/dev/null; } ||
    judges_missing="$judges_missing python3-numpy"
# meshoptimizer: the simplifier's yardstick (test_simplify_meshopt, md2_bench)
[ -f /usr/include/meshoptimizer.h ] || judges_missing="$judges_missing libmeshoptimizer-dev"
if [ -n "$judges_missing" ]; then
    if [ "$require_viewer" = ON ] ||
        { have apt-get && { [ "$(id -u)" = 0 ] || have sudo; }; }; then
        missing="$missing$judges_missing"
    else
        echo "not installing$judges_missing (no apt-get, or not root and no sudo): the glTF judges of md2 export and the MD2 judges will be skipped"
    fi
fi

if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # missing is a word list
    md2_apt_install $missing
else
    echo "all there: cmake, cc, c++, pkg-config, cmocka, ImageMagick"
fi

# The npm judges of md2 export and of MD2 files (three's MD2Loader), once
# per build folder (kept there with npm's cache, so later runs and CI do not
# download them again), at the versions the tests were written against.
case "$build_dir" in
    /*) npm_dir="$build_dir/npm" ;;
    *) npm_dir="$root/$build_dir/npm" ;;
esac
npm_packages="gltf-validator@2.0.0-dev.3.10 three@0.187.0"
# shellcheck disable=SC2086 # npm_packages is a word list
if md2_npm_ready "$npm_dir" $npm_packages; then
    echo "npm judges already in $npm_dir: $npm_packages"
elif have npm; then
    say "Installing the glTF judges ($npm_packages) into $npm_dir"
    mkdir -p "$npm_dir"
    # shellcheck disable=SC2086 # npm_packages is a word list
    if ! run npm install --prefix "$npm_dir" --cache "$npm_dir-cache" --no-audit --no-fund $npm_packages; then
        [ "$require_viewer" = ON ] && die "npm install failed"
        echo "npm install failed: the glTF judges of md2 export will be skipped"
    fi
elif [ "$require_viewer" = ON ]; then
    die "npm is missing: CI needs the glTF judges of md2 export"
fi

# ---------------------------------------------------------------------------
# Configure, build, test
# ---------------------------------------------------------------------------
say "Configuring $build_dir (build type $build_type, MD2_SANITIZE=$san_flag, MD2_WERROR=$werror)"
# shellcheck disable=SC2086 # MD2_CMAKE_ARGS is a word list
run cmake -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE="$build_type" \
    -DMD2_BUILD_TESTS=ON -DMD2_BUILD_EXAMPLES=ON -DMD2_INSTALL=ON \
    -DMD2_SANITIZE="$san_flag" -DMD2_WERROR="$werror" \
    -DMD2_REQUIRE_VIEWER="$require_viewer" -DMD2_REQUIRE_TOOL="$require_viewer" \
    -DMD2_REQUIRE_JUDGES="$require_viewer" -DMD2_NPM_DIR="$npm_dir" \
    ${MD2_CMAKE_ARGS:-}

say "Building"
run cmake --build "$build_dir" -j"$jobs"

if [ "${MD2_PLAIN:-1}" = 0 ] && [ "$valgrind" = 1 ]; then
    echo "MD2_PLAIN=0: the plain test run left out (only the valgrind passes)"
else
    say "Running the test suite"
    run ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" --timeout 600
fi

if [ "$valgrind" = 1 ]; then
    # embed: builds other projects; gpu: md2_view under Xvfb and Mesa, which
    # is slow and reports Mesa's own leaks under valgrind; judge: node
    # (glTF-Validator, three.js) and the poses they compare with; script:
    # the md2 command's cases (tests/tool), run below; single: the unit
    # tests again on single_include/md2_single.h, the same code as the library's;
    # bench: md2_bench's smoke run, a timing loop over library calls that the
    # unit tests make
    say "Running every test program under valgrind (embedding, gpu, judge, script, single and bench tests excluded)"
    vg_opts="--error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all --show-leak-kinds=all ${MD2_VALGRIND_ARGS:-}"
    status=0
    run ctest --test-dir "$build_dir" -T memcheck -LE 'embed|gpu|judge|script|single|bench' -j"$jobs" --timeout 1800 \
        --output-on-failure \
        --overwrite MemoryCheckCommand="$(command -v valgrind)" \
        --overwrite MemoryCheckCommandOptions="$vg_opts" || status=$?
    if [ "$status" != 0 ]; then
        # valgrind's own reports go to log files; show the ones with errors.
        for log in "$build_dir"/Testing/Temporary/MemoryChecker.*.log; do
            [ -f "$log" ] || continue
            if grep -q 'ERROR SUMMARY: [1-9]' "$log"; then
                printf '\n---- %s\n' "$log"
                cat "$log"
            fi
        done
        die "valgrind found errors (status $status)"
    fi
    # script: the cases of the md2 command's tables (tests/tool/*.cases),
    # each run by md2_tool_cases; with MD2_TOOL_VALGRIND set, the runner
    # runs md2 and the test programs of ours under valgrind (not itself, nor
    # node: a case's judge clauses are left out, they ran in the plain pass),
    # and any error or leak valgrind finds fails the case.
    say "Running the md2 command's cases with the command under valgrind"
    # (bench: md2_bounds_bench runs md2 outside valgrind; the plain pass has it)
    run env MD2_TOOL_VALGRIND=1 ctest --test-dir "$build_dir" -L script -LE bench -j"$jobs" \
        --timeout 1800 --output-on-failure || die "the md2 command under valgrind failed"
fi

say "All tests passed ($build_dir)"
