#!/bin/sh
# Builds libmd2 for 64-bit Windows with mingw-w64 and runs its tests under
# Wine, headless (tests/cross/mingw-w64.cmake):
#
#   1. cmocka for Windows, built from Debian's source package (cmocka
#      1.1.5, fetched with apt-get source through a source list of this
#      build's own, so the system's apt configuration is not touched; its
#      one Debian patch changes only the documentation, which is not built)
#   2. build-windows: the static library, every cmocka test, the header
#      tests, the examples' tests (md2_demo, md2_bench --quick, README's
#      example, ...) and the one file (single_include/md2_single.h: its C and C++
#      consumers, the unit tests and the digest on it), all run as .exe
#      under Wine with CTest
#   3. build-windows-dll: the same with libmd2.dll and its import library
#      (but the one file's tests, which do not use the library), and the
#      DLL's export table (shared_exports)
#   4. md2_digest under Wine against the native build's: every bit decoded
#      from the bundled and corpus models is the same
#   5. MSVC hygiene without MSVC: every file of src/ and the one file's
#      implementation pass clang --target=x86_64-pc-windows-msvc
#      -fsyntax-only -std=c99 -Wall -Wextra -Wpedantic -Werror -Wvla against
#      the mingw-w64 C headers, with MSVC's view of the machine (no
#      __GNUC__, no __SSE2__), for the DLL (MD2_BUILDING) and static
#      (MD2_STATIC) declarations; the public headers also as C++
#   6. the md2 command as md2.exe (build-windows-tool; its Windows code is
#      tool/platform/platform_win32.c), with cJSON and libpng built for the
#      target from Debian's source packages (their Debian patches applied),
#      Debian's zlib for mingw-w64 and stb's two headers, all linked
#      statically (md2.exe needs no DLL but Windows' own)
#   7. the command's tables (tests/tool/*.cases) run on md2.exe under Wine
#      by a native build's runner and checkers (build-windows-native,
#      MD2_TOOL_WINDOWS_EXE), but for the POSIX-only cases, which
#      `md2_tool_cases --posix-only` lists by the rule of tests/tool/README.md
#      (the list is printed); no case may skip under CI=true
#   8. md2.exe's outputs against the native md2's, byte for byte: info
#      (text and --json), validate, export to .gltf, .glb and .obj (with
#      .mtl and the skin's .png), render to .png, on the bundled models and
#      the corpus's; and a model named soldat_é.md2 in a folder named 模型
#      (info, validate of the folder, export, render, and the export of the
#      folder to 出力/), whose outputs must land under those names
#
# With --tool, only step 6: md2.exe in build-windows-tool, with what it needs.
# Not built: md2_view (OpenGL; no Windows port). Installs what is missing
# with apt-get (Debian: gcc-mingw-w64-x86-64-posix,
# g++-mingw-w64-x86-64-posix, wine64, clang, libz-mingw-w64-dev, libstb-dev,
# dpkg-dev, and for the native side libpng-dev and libcjson-dev).
# Wine's prefix lives in each build folder. Exits non-zero on any failure
# or difference, and with CI=true on any skipped test (without the corpus
# in ../shared/corpus its checks skip, which is said).
#
# SPDX-License-Identifier: MIT
set -eu

# --tool: only md2.exe and what it needs (steps 6), no tests
only_tool=0
case "${1:-}" in
--tool) only_tool=1 ;;
"") ;;
*) printf 'usage: sh tests/windows/windows.sh [--tool]\n' >&2; exit 2 ;;
esac

started=$(date +%s)
# say TEXT: a step's title, with the seconds since the start
say() { printf '\n==> %s (at %ss)\n' "$*" "$(($(date +%s) - started))"; }
die() { printf 'tests/windows/windows.sh: %s\n' "$*" >&2; exit 1; }
run() { printf '+ %s\n' "$*"; "$@"; }

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
jobs=${MD2_JOBS:-2}
toolchain="$root/tests/cross/mingw-w64.cmake"

# ---------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------
packages="gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix mingw-w64-x86-64-dev wine64 clang xz-utils cmake \
libz-mingw-w64-dev libstb-dev dpkg-dev libpng-dev libcjson-dev"
need="/usr/bin/x86_64-w64-mingw32-gcc-posix /usr/bin/x86_64-w64-mingw32-g++-posix /usr/lib/wine/wine64 /usr/bin/clang /usr/bin/xz /usr/bin/cmake \
/usr/x86_64-w64-mingw32/lib/libz.a /usr/include/stb/stb_image.h /usr/bin/dpkg-source /usr/include/png.h /usr/include/cjson/cJSON.h"
missing=0
for f in $need; do [ -e "$f" ] || missing=1; done
if [ "$missing" = 1 ]; then
    command -v apt-get >/dev/null 2>&1 || die "please install: $packages"
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    say "Installing $packages"
    run $sudo env DEBIAN_FRONTEND=noninteractive apt-get update || echo "apt-get update reported errors; trying the install anyway"
    # shellcheck disable=SC2086 # word lists
    run $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends --no-remove $packages
fi
for f in $need; do [ -e "$f" ] || die "$f is missing after installing $packages"; done

# -fms-compatibility-version=11: the mingw-w64 headers put MSVC 12's
# __declspec(noreturn) where clang does not take it; -U__SSE2__: MSVC does
# not define it, so its build is the scalar code (same bits)
msvc="clang --target=x86_64-pc-windows-msvc -fsyntax-only -fms-extensions -fms-compatibility-version=11 \
-U__SSE2__ -Wall -Wextra -Wpedantic -Werror -Wvla -isystem /usr/x86_64-w64-mingw32/include -Iinclude -Isingle_include -Isrc"
deps="$root/build-windows-deps"
cmocka="$deps/cmocka"
apt_dir="$deps/apt"
apt_ready=0

# ---------------------------------------------------------------------------
# 1. cmocka for Windows, from Debian's source package
# ---------------------------------------------------------------------------
# debian_source PKG: PKG's source package into $apt_dir/src (apt-get source
# --download-only through a source list of this build's own)
debian_source() {
    if [ "$apt_ready" = 0 ]; then
        mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/src"
        suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
        [ -n "$suite" ] || suite=bookworm
        printf 'deb-src http://deb.debian.org/debian %s main\n' "$suite" > "$apt_dir/sources.list"
        apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=- \
-o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
        # shellcheck disable=SC2086 # word list
        run apt-get $apt_opts update
        apt_ready=1
    fi
    # shellcheck disable=SC2086
    (cd "$apt_dir/src" && run apt-get $apt_opts source --download-only "$1")
}
if [ "$only_tool" = 0 ]; then # steps 1 to 5
if [ ! -f "$cmocka/lib/libcmocka-static.a" ]; then
    say "Building cmocka for Windows from Debian's source package"
    debian_source cmocka
    orig=$(ls "$apt_dir"/src/cmocka_*.orig.tar.* | head -n 1)
    [ -f "$orig" ] || die "apt-get source cmocka gave no .orig tarball"
    rm -rf "$deps/cmocka-src"
    mkdir -p "$deps/cmocka-src"
    run tar -xf "$orig" -C "$deps/cmocka-src" --strip-components=1
    run cmake -S "$deps/cmocka-src" -B "$deps/cmocka-build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF \
        -DCMAKE_INSTALL_PREFIX="$cmocka"
    run cmake --build "$deps/cmocka-build" -j"$jobs"
    run cmake --install "$deps/cmocka-build"
fi

# ---------------------------------------------------------------------------
# 2, 3. The library and its tests, static and DLL, under Wine
# ---------------------------------------------------------------------------
# wine_boot BUILD: Wine's prefix for BUILD, made once before the tests run
# (two first runs at once would both make it)
wine_boot() {
    WINEPREFIX="$root/$1/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
        /usr/lib/wine/wine64 wineboot -i >/dev/null 2>&1 || true
    # the registry is written when the Wine server ends
    WINEPREFIX="$root/$1/wineprefix" /usr/lib/wine/wineserver -w || true
    [ -f "$root/$1/wineprefix/system.reg" ] || die "wineboot made no prefix in $1/wineprefix"
}

# windows BUILD SHARED
windows() {
    say "Configuring $1 for Windows (BUILD_SHARED_LIBS=$2)"
    run cmake -S . -B "$1" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Debug \
        -DBUILD_SHARED_LIBS="$2" -DMD2_WERROR=ON -DMD2_BUILD_TESTS=ON -DMD2_BUILD_EXAMPLES=ON \
        -DMD2_BUILD_TOOL=OFF -DMD2_INSTALL=OFF \
        -DMD2_CMOCKA_LIBRARY="$cmocka/lib/libcmocka-static.a" -DMD2_CMOCKA_INCLUDE_DIR="$cmocka/include"
    say "Building $1"
    run cmake --build "$1" -j"$jobs"
    wine_boot "$1"
    say "Running the test suite of $1 under Wine"
    if run ctest --test-dir "$1" --output-on-failure -j"$jobs" --timeout 900 > "$1/ctest.log" 2>&1; then
        status=0
    else
        status=$?
    fi
    cat "$1/ctest.log"
    if [ "$status" != 0 ] && grep -q 'wine client error' "$1/ctest.log"; then
        # Wine itself lost its server (not a test's failure): those tests once
        # more, one at a time; a real failure fails again
        say "$1: Wine lost its server during the run; the failed tests once more, one at a time"
        if run ctest --test-dir "$1" --rerun-failed --output-on-failure -j1 --timeout 900 \
            > "$1/ctest-rerun.log" 2>&1; then
            status=0
        else
            status=$?
        fi
        cat "$1/ctest-rerun.log"
    fi
    [ "$status" = 0 ] || die "$1: tests failed under Wine (see $1/ctest.log)"
    # a cmocka skip or a CTest skip is a failure here
    if grep -Eq '\*\*\*Skipped|Not Run|\[  SKIPPED \]' "$1/ctest.log"; then
        die "$1: tests were skipped (see $1/ctest.log)"
    fi
    # every test's output is in CTest's log: no cmocka skip either, but for
    # the one a 64-bit host skips natively too (test_size_overflow: size_t
    # overflow, which only a 32-bit size_t has)
    skipped=$(tr -d '\r' < "$1/Testing/Temporary/LastTest.log" | sed -n 's/^\[  SKIPPED \] \([A-Za-z_0-9]*\)$/\1/p' |
        sort -u | grep -vx 'test_size_overflow' || true)
    if [ -n "$skipped" ]; then
        # without ../shared/corpus the corpus checks skip; CI has the corpus
        [ "${CI:-}" != true ] || die "$1: cmocka skipped $(echo "$skipped" | tr '\n' ' ')"
        echo "$1: cmocka skipped (no ../shared/corpus here?): $(echo "$skipped" | tr '\n' ' ')"
    fi
}
windows build-windows OFF
windows build-windows-dll ON
[ -f build-windows-dll/libmd2.dll ] && [ -f build-windows-dll/libmd2.dll.a ] ||
    die "build-windows-dll: no libmd2.dll and import library libmd2.dll.a"

# ---------------------------------------------------------------------------
# 4. The digest of every decoded bit, Windows against native
# ---------------------------------------------------------------------------
say "Comparing decoded results with the native build"
models="examples/models/crystal.md2 examples/models/crystal.tag"
shared=$(sed -n 's/^MD2_SHARED_DIR:PATH=//p' build-windows/CMakeCache.txt)
for m in faerie.md2 sydney.md2; do
    [ -f "$shared/corpus/$m" ] && models="$models $shared/corpus/$m"
done
native="build-test/tests/md2_digest"
if [ ! -x "$native" ]; then
    run cmake -S . -B build-digest -DMD2_BUILD_EXAMPLES=OFF -DMD2_BUILD_TOOL=OFF -DMD2_INSTALL=OFF >/dev/null
    run cmake --build build-digest --target md2_digest -j"$jobs"
    native="build-digest/tests/md2_digest"
fi
# shellcheck disable=SC2086 # word lists
"$native" $models > build-windows/digest-native.txt
for b in build-windows build-windows-dll; do
    # shellcheck disable=SC2086
    WINEPREFIX="$root/$b/wineprefix" WINEPATH="$root/$b" WINEDEBUG=-all \
        /usr/lib/wine/wine64 "$b/tests/md2_digest.exe" $models | tr -d '\r' > "$b/digest-windows.txt"
    cat "$b/digest-windows.txt"
    diff build-windows/digest-native.txt "$b/digest-windows.txt" ||
        die "$b: results under Wine differ from the native build"
done

# ---------------------------------------------------------------------------
# 5. MSVC hygiene: MSVC's C, checked by clang in MSVC mode
# ---------------------------------------------------------------------------
say "MSVC hygiene: clang --target=x86_64-pc-windows-msvc -fsyntax-only"
checked=0
for f in src/*.c; do
    for api in MD2_BUILDING MD2_STATIC; do
        # shellcheck disable=SC2086 # word list
        $msvc -std=c99 -D"$api" "$f" || die "$f does not compile as MSVC C ($api)"
        checked=$((checked + 1))
    done
done
printf '#define MD2_IMPLEMENTATION\n#include "md2_single.h"\n' > build-windows/msvc_single.c
# shellcheck disable=SC2086
$msvc -std=c99 build-windows/msvc_single.c || die "single_include/md2_single.h does not compile as MSVC C"
printf '#include <md2/md2.h>\n#include <md2/animation.h>\n#include <md2/mesh.h>\n#include <md2/skin.h>\n#include <md2/tags.h>\n#include <md2/build.h>\n#include "md2_single.h"\nint main() { return md2_version_string() ? 0 : 1; }\n' > build-windows/msvc_headers.cpp
# shellcheck disable=SC2086
$msvc -x c++ -std=c++14 build-windows/msvc_headers.cpp || die "the public headers do not compile as MSVC C++"
echo "MSVC C: $checked compilations of src/ (DLL and static), the one file and the headers as C++: no findings"

fi # steps 1 to 5

# ---------------------------------------------------------------------------
# 6. md2.exe, with cJSON and libpng for Windows from Debian's source packages
# ---------------------------------------------------------------------------
prefix="$deps/prefix"
# windows_source PKG DIR: PKG's source with its Debian patches, in DIR
windows_source() {
    debian_source "$1"
    dsc=$(ls "$apt_dir"/src/"$1"_*.dsc | head -n 1)
    [ -f "$dsc" ] || die "apt-get source $1 gave no .dsc"
    rm -rf "$2"
    run dpkg-source --no-check -x "$dsc" "$2" >/dev/null
}
if [ ! -f "$prefix/lib/libcjson.a" ]; then
    say "Building cJSON for Windows from Debian's source package"
    windows_source cjson "$deps/cjson-src"
    run cmake -S "$deps/cjson-src" -B "$deps/cjson-build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DENABLE_CJSON_TEST=OFF \
        -DENABLE_CUSTOM_COMPILER_FLAGS=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
    run cmake --build "$deps/cjson-build" -j"$jobs" >/dev/null
    run cmake --install "$deps/cjson-build" >/dev/null
fi
mingw_zlib=/usr/x86_64-w64-mingw32/lib/libz.a
if [ ! -f "$prefix/lib/libpng16.a" ]; then
    say "Building libpng for Windows from Debian's source package (with Debian's zlib for mingw-w64)"
    windows_source libpng1.6 "$deps/libpng-src"
    run cmake -S "$deps/libpng-src" -B "$deps/libpng-build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
        -DCMAKE_BUILD_TYPE=Release -DPNG_SHARED=OFF -DPNG_STATIC=ON -DPNG_EXECUTABLES=OFF \
        -DPNG_TESTS=OFF -DZLIB_LIBRARY="$mingw_zlib" -DZLIB_INCLUDE_DIR=/usr/x86_64-w64-mingw32/include \
        -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null 2>&1
    run cmake --build "$deps/libpng-build" -j"$jobs" >/dev/null
    run cmake --install "$deps/libpng-build" >/dev/null
fi
# stb: its two headers alone (not all of /usr/include) in a folder of their own
mkdir -p "$deps/stb/stb"
cp /usr/include/stb/stb_image.h /usr/include/stb/stb_image_write.h "$deps/stb/stb/"

say "Building md2.exe (build-windows-tool)"
# Release: mingw-w64's sqrt() (libmingwex, the x87's fsqrt rounded twice)
# is not correctly rounded (1 in 4000 doubles is one ulp off), which
# changes the normals of md2 export; at -O2 gcc computes sqrt() with
# SSE2's sqrtsd, correctly rounded as glibc's is
run cmake -S . -B build-windows-tool -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DMD2_WERROR=ON -DMD2_BUILD_TESTS=OFF -DMD2_BUILD_EXAMPLES=OFF -DMD2_BUILD_TOOL=ON \
    -DMD2_REQUIRE_TOOL=ON -DMD2_INSTALL=OFF -DMD2_STB_INCLUDE_DIR="$deps/stb" \
    -DPNG_LIBRARY="$prefix/lib/libpng16.a" -DPNG_PNG_INCLUDE_DIR="$prefix/include" \
    -DZLIB_LIBRARY="$mingw_zlib" -DZLIB_INCLUDE_DIR=/usr/x86_64-w64-mingw32/include \
    -DcJSON_DIR="$prefix/lib/cmake/cJSON"
run cmake --build build-windows-tool -j"$jobs"
exe="$root/build-windows-tool/md2.exe"
dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | sort | tr '\n' ' ')
echo "md2.exe imports: $dlls"
[ "$dlls" = "kernel32.dll msvcrt.dll shell32.dll " ] ||
    die "md2.exe needs DLLs other than Windows' own: $dlls"

# MSVC hygiene of the command too: its portable files as MSVC's C (not
# platform_win32.c: the mingw-w64 <windows.h> does not parse in clang's MSVC
# mode, its intrinsics clash; gcc -Wpedantic -Werror builds it above)
checked=0
tool_dirs="-Itool/platform -Itool/image -Itool/core -Itool/formats -Itool/commands"
for f in tool/*.c tool/*/*.c; do
    case "$f" in */platform_posix.c|*/platform_win32.c) continue ;; esac
    # shellcheck disable=SC2086 # word lists
    $msvc -std=c99 -DMD2_STATIC $tool_dirs -isystem "$prefix/include" -isystem "$deps/stb" "$f" ||
        die "$f does not compile as MSVC C"
    checked=$((checked + 1))
done
echo "MSVC C: $checked files of the md2 command: no findings"
if [ "$only_tool" = 1 ]; then
    say "md2.exe is build-windows-tool/md2.exe (try: /usr/lib/wine/wine64 build-windows-tool/md2.exe --help)"
    exit 0
fi

# ---------------------------------------------------------------------------
# 7. The command's tables on md2.exe under Wine
# ---------------------------------------------------------------------------
say "Building the tables' native runner and checkers (build-windows-native)"
run cmake -S . -B build-windows-native -DCMAKE_BUILD_TYPE=Debug -DMD2_WERROR=ON \
    -DMD2_BUILD_EXAMPLES=OFF -DMD2_REQUIRE_TOOL=ON -DMD2_INSTALL=OFF -DMD2_TOOL_WINDOWS_EXE="$exe"
run cmake --build build-windows-native --target md2_tool_tests -j"$jobs"
wine_boot build-windows-tool
wprefix="$root/build-windows-tool/wineprefix"
# a Wine server that stays for the whole run (a new one for each of md2.exe's
# hundreds of runs costs a second each), with the services it starts
# (winedevice.exe) started here, on /dev/null: not on the output of a test,
# which CTest would wait for
WINEPREFIX="$wprefix" /usr/lib/wine/wineserver -p </dev/null >/dev/null 2>&1
WINEPREFIX="$wprefix" WINEDEBUG=-all /usr/lib/wine/wine64 "$exe" --version </dev/null >/dev/null 2>&1 ||
    die "md2.exe --version does not run under Wine"
stop_wine() { WINEPREFIX="$wprefix" /usr/lib/wine/wineserver -k >/dev/null 2>&1 || true; }
trap stop_wine EXIT
native_dir="$root/build-windows-native"
./build-windows-native/tests/tool/md2_tool_cases --posix-only "$native_dir/tests/tool/vars-Debug.txt" \
    tests/tool/*.cases > build-windows-native/posix-only.txt
echo "POSIX-only cases, left out of the Windows run (tests/tool/README.md, \"Windows\"):"
sed 's/^/  /' build-windows-native/posix-only.txt
excluded=$(sed 's/^\([a-z_]*\) \([A-Za-z0-9_]*\):.*/md2_\1_\2/' build-windows-native/posix-only.txt | paste -sd'|' -)
tables=$(for t in tests/tool/*.cases; do basename "$t" .cases; done | paste -sd'|' -)
say "Running the command's tables on md2.exe under Wine"
# twice as many at once as there are jobs: a case mostly waits on Wine's
# server (3.5 minutes at -j2, 1.1 at -j4 on 2 cores)
if run ctest --test-dir build-windows-native -R "^md2_($tables)_" -E "^($excluded)\$" \
    --output-on-failure -j"$((jobs * 2))" --timeout 300 > build-windows-native/ctest.log 2>&1; then
    status=0
else
    status=$?
fi
failed=$(grep -c '\*\*\*Failed\|\*\*\*Timeout' build-windows-native/ctest.log || true)
if [ "$status" != 0 ] && { grep -Eq '^wine: |wine client error' build-windows-native/ctest.log ||
                           [ "$failed" -le 3 ]; }; then
    # Wine itself failed (a "wine: " line), or a few cases did (seen: a case
    # of md2.exe that exits 1 with nothing on stderr once in a run of 651
    # under -j4, and passes alone): the failed cases once more, one at a
    # time; a failure of md2.exe itself fails again
    say "$failed cases failed under Wine; those once more, one at a time"
    grep -E '^wine: |wine client error' build-windows-native/ctest.log | sort -u || true
    if run ctest --test-dir build-windows-native --rerun-failed --output-on-failure -j1 \
        --timeout 300 > build-windows-native/ctest-rerun.log 2>&1; then
        status=0
    else
        status=$?
    fi
    cat build-windows-native/ctest-rerun.log
fi
grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|tests failed' build-windows-native/ctest.log | tail -n 5
[ "$status" = 0 ] || { cat build-windows-native/ctest.log; die "md2.exe failed cases of the tables (see build-windows-native/ctest.log)"; }
if grep -Eq '\*\*\*Skipped|Not Run' build-windows-native/ctest.log; then
    grep -E '\*\*\*Skipped|Not Run' build-windows-native/ctest.log
    # without ../shared/corpus its cases skip; CI has the corpus
    [ "${CI:-}" != true ] || die "cases of the tables were skipped under Wine"
    echo "(skipped: no ../shared/corpus here?)"
fi

# ---------------------------------------------------------------------------
# 8. md2.exe's outputs against the native md2's, byte for byte
# ---------------------------------------------------------------------------
say "Comparing md2.exe's outputs with the native md2's"
native_md2="$native_dir/md2"
out="$root/build-windows-tool/outputs"
rm -rf "$out"
mkdir -p "$out/native" "$out/windows"
# wine_md2 ARGS...: md2.exe ARGS... under Wine (its arguments in UTF-8)
wine_md2() {
    LC_ALL=C.UTF-8 WINEPREFIX="$wprefix" WINEDEBUG=-all /usr/lib/wine/wine64 "$exe" "$@"
}
# both SIDE ARGS...: md2 ARGS... in $out/native and md2.exe ARGS... in
# $out/windows, stdout and stderr kept as SIDE.stdout and SIDE.stderr
both() {
    name=$1
    shift
    (cd "$out/native" && "$native_md2" "$@" > "$name.stdout" 2> "$name.stderr") || true
    (cd "$out/windows" && wine_md2 "$@" > "$name.stdout" 2> "$name.stderr") || true
}
compared=0
models=""
for m in examples/models/*.md2; do models="$models $root/$m"; done
for m in faerie.md2 sydney.md2; do
    if [ -f "$shared/corpus/$m" ]; then
        models="$models $shared/corpus/$m"
    elif [ "${CI:-}" = true ]; then
        die "$shared/corpus/$m is missing (CI has the corpus)"
    else
        echo "no $shared/corpus/$m: its outputs are not compared"
    fi
done
for m in $models; do
    n=$(basename "$m" .md2)
    both "$n-info" info "$m"
    both "$n-json" info --json "$m"
    both "$n-validate" validate --strict "$m"
    both "$n-gltf" export "$m" -o "$n.gltf"
    both "$n-glb" export "$m" -o "$n.glb"
    both "$n-obj" export "$m" -o "$n.obj"
    both "$n-render" render "$m" -o "$n.png"
done
# the folders of the corpus and the bundled models, walked
both folder-models validate "$root/examples/models"
[ ! -d "$shared/corpus" ] || both folder-corpus validate "$shared/corpus"
# 模型/soldat_é.md2: every path through the wide API, under the same name
uni="模型"
for side in native windows; do
    mkdir -p "$out/$side/$uni"
    cp examples/models/crystal.md2 "$out/$side/$uni/soldat_é.md2"
    cp examples/models/skin.pcx "$out/$side/$uni/skin.pcx"
done
both uni-info info "$uni/soldat_é.md2"
both uni-json info --json "$uni/soldat_é.md2"
both uni-validate validate "$uni"
both uni-glb export "$uni/soldat_é.md2" -o "$uni/soldat_é.glb"
both uni-obj export "$uni/soldat_é.md2" -o "$uni/soldat_é.obj"
both uni-render render "$uni/soldat_é.md2" -o "$uni/soldat_é.png"
# the folder's export: the walk, the folders made (CreateDirectoryW) and the
# threads' captured messages, all under those names
uniout="出力"
both uni-folder export "$uni" -o "$uniout/"
for f in soldat_é.glb soldat_é.obj soldat_é.mtl soldat_é.png; do
    [ -s "$out/windows/$uni/$f" ] || die "md2.exe did not write $uni/$f under that name"
done
[ -s "$out/windows/$uniout/soldat_é.glb" ] ||
    die "md2.exe export $uni -o $uniout/ did not write $uniout/soldat_é.glb under that name: $(cat "$out/windows/uni-folder.stdout" "$out/windows/uni-folder.stderr")"
grep -q "^wrote $uniout/soldat_é.glb .*skin $uni/skin.pcx" "$out/windows/uni-folder.stdout" &&
    grep -qx "1 model: 1 exported, 0 failed" "$out/windows/uni-folder.stdout" ||
    die "md2.exe export $uni -o $uniout/ did not say it wrote $uniout/soldat_é.glb with its skin"
grep -q "$uni/skin.pcx" "$out/windows/uni-glb.stdout" || die "md2.exe did not find $uni/skin.pcx"
grep -qx "1 file: 1 ok, 0 with warnings, 0 refused" "$out/windows/uni-validate.stdout" ||
    die "md2.exe validate $uni did not find $uni/soldat_é.md2"
# Windows' own separator: the skin found beside the model, the same bytes,
# and one path spelled three ways validated once
(cd "$out/windows" && wine_md2 export "$uni\\soldat_é.md2" -o "$uni\\backslash.glb" > "$out/backslash.stdout" 2>&1) ||
    die "md2.exe export $uni\\soldat_é.md2 failed: $(cat "$out/backslash.stdout")"
grep -q "skin $uni.skin.pcx" "$out/backslash.stdout" || die "md2.exe did not find the skin through $uni\\"
cmp "$out/windows/$uni/backslash.glb" "$out/native/$uni/soldat_é.glb" || die "md2.exe's $uni\\backslash.glb differs"
rm "$out/windows/$uni/backslash.glb"
# -o OUTDIR\ : the export into a folder, as -o OUTDIR/
(cd "$out/windows" && wine_md2 export "$uni\\soldat_é.md2" -o "into\\" > "$out/backslash.stdout" 2>&1) ||
    die "md2.exe export $uni\\soldat_é.md2 -o into\\ failed: $(cat "$out/backslash.stdout")"
cmp "$out/windows/into/soldat_é.glb" "$out/native/$uni/soldat_é.glb" ||
    die "md2.exe export -o into\\ did not write into/soldat_é.glb as md2 export -o $uni/soldat_é.glb"
rm -r "$out/windows/into"
(cd "$out/windows" && wine_md2 validate "$uni\\soldat_é.md2" "$uni/soldat_é.md2" "$uni" > "$out/backslash.stdout" 2>&1) || true
grep -qx "1 file: 1 ok, 0 with warnings, 0 refused" "$out/backslash.stdout" ||
    die "md2.exe validate did not see $uni\\soldat_é.md2 and $uni/soldat_é.md2 as one: $(cat "$out/backslash.stdout")"
(cd "$out/native" && find . -type f | sort) > "$out/native.list"
(cd "$out/windows" && find . -type f | sort) > "$out/windows.list"
diff "$out/native.list" "$out/windows.list" || die "md2.exe wrote other files than md2"
while read -r f; do
    cmp "$out/native/$f" "$out/windows/$f" || die "md2.exe's $f differs from the native md2's"
    compared=$((compared + 1))
done < "$out/native.list"
[ "$(grep -c '\.png$' "$out/native.list")" -ge 4 ] || die "fewer PNG outputs than expected"
echo "md2.exe and md2: $compared files the same, byte for byte (outputs, stdout, stderr; PNG included)"

say "Windows: the static and DLL builds passed every test under Wine, with the native build's results; md2.exe passed the command's tables and wrote the native md2's bytes"
