#!/bin/sh
# Builds libmd2 for the browser and runs its tests (docs/web.md; CI stage 8):
# libmd2.wasm (clang for wasm32-wasi, Debian's wasi-libc), the npm package
# folder, the web viewer and the benchmark page, judged in Node and in
# headless chromium (tests/web/CMakeLists.txt lists the tests).
#
#   sh tests/web/web.sh
#
# Installs what is missing with apt-get (clang-14, lld-14, wasi-libc and the
# wasm32 compiler-rt builtins, chromium, node and npm, and md2_view's
# packages for md2_view_check, the judge of the screenshots), and with npm
# puppeteer-core 24.x (25 needs Node 22) and three into build-web/npm.
# Build folder: MD2_BUILD_DIR (default build-web). Everything it needs is
# required: a missing tool is an error, not a skip.
#
# SPDX-License-Identifier: MIT
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
md2_script=tests/web/web.sh
. "$root/tests/scripts/lib.sh"
build_dir=${MD2_BUILD_DIR:-build-web}
jobs=${MD2_JOBS:-2}
case "$build_dir" in
/*) npm_dir="$build_dir/npm" ;;
*) npm_dir="$root/$build_dir/npm" ;;
esac

say "Checking prerequisites"
missing=""
have cmake || missing="$missing cmake"
have cc || missing="$missing gcc"
have pkg-config || missing="$missing pkg-config"
have clang-14 || missing="$missing clang-14"
have wasm-ld-14 || have wasm-ld || missing="$missing lld-14"
[ -f /usr/lib/wasm32-wasi/libc.a ] || missing="$missing wasi-libc"
ls /usr/lib/llvm-14/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a >/dev/null 2>&1 ||
    missing="$missing libclang-rt-14-dev-wasm32"
have chromium || missing="$missing chromium"
have node || missing="$missing nodejs"
have npm || missing="$missing npm"
# md2_view_check, the screenshots' judge, is built with md2_view
{ have pkg-config && pkg-config --exists glfw3; } || missing="$missing libglfw3-dev"
{ have pkg-config && pkg-config --exists epoxy; } || missing="$missing libepoxy-dev"
[ -f /usr/include/stb/stb_image.h ] || missing="$missing libstb-dev"
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # missing is a word list
    md2_apt_install $missing
else
    echo "all there: clang-14, wasi-libc, chromium, node, npm"
fi

# puppeteer-core drives chromium; three's MD2Loader is what the benchmark
# measures libmd2 against. Kept in the build folder with npm's cache.
npm_packages="puppeteer-core@24.43.1 three@0.187.0"
# shellcheck disable=SC2086 # npm_packages is a word list
if md2_npm_ready "$npm_dir" $npm_packages; then
    echo "npm packages already in $npm_dir: $npm_packages"
else
    say "Installing $npm_packages into $npm_dir"
    mkdir -p "$npm_dir"
    # shellcheck disable=SC2086 # npm_packages is a word list
    run npm install --prefix "$npm_dir" --cache "$npm_dir-cache" --no-audit --no-fund $npm_packages ||
        die "npm install failed"
fi

say "Configuring $build_dir"
run cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DMD2_WEB=ON -DMD2_REQUIRE_WEB=ON -DMD2_WEB_NPM_DIR="$npm_dir" \
    -DMD2_BUILD_TESTS=OFF -DMD2_BUILD_TOOL=OFF -DMD2_BUILD_EXAMPLES=ON -DMD2_INSTALL=OFF \
    -DMD2_REQUIRE_VIEWER=ON -DMD2_WERROR=ON

say "Building"
run cmake --build "$build_dir" -j"$jobs"

say "Running the web tests"
run ctest --test-dir "$build_dir" -L web --output-on-failure -j"$jobs" --timeout 900

say "The benchmark page's numbers (web_bench: $build_dir/tests/web/bench/bench.txt)"
cat "$build_dir/tests/web/bench/bench.txt"

say "Web tests passed ($build_dir)"
