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
#      example, ...) and the one file (include/md2_single.h: its C and C++
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
#
# Not built: the md2 command and md2_view (their Windows ports are not
# done). Installs what is missing with apt-get (Debian:
# gcc-mingw-w64-x86-64-posix, g++-mingw-w64-x86-64-posix, wine64, clang).
# Wine's prefix lives in each build folder. Exits non-zero on any failure
# or difference, and with CI=true on any skipped test (without the corpus
# in ../shared/corpus its checks skip, which is said).
#
# SPDX-License-Identifier: MIT
set -eu

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'tests/windows.sh: %s\n' "$*" >&2; exit 1; }
run() { printf '+ %s\n' "$*"; "$@"; }

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${MD2_JOBS:-2}
toolchain="$root/tests/cross/mingw-w64.cmake"

# ---------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------
packages="gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix mingw-w64-x86-64-dev wine64 clang xz-utils cmake"
need="/usr/bin/x86_64-w64-mingw32-gcc-posix /usr/bin/x86_64-w64-mingw32-g++-posix /usr/lib/wine/wine64 /usr/bin/clang /usr/bin/xz /usr/bin/cmake"
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

# ---------------------------------------------------------------------------
# 1. cmocka for Windows, from Debian's source package
# ---------------------------------------------------------------------------
deps="$root/build-windows-deps"
cmocka="$deps/cmocka"
if [ ! -f "$cmocka/lib/libcmocka-static.a" ]; then
    say "Building cmocka for Windows from Debian's source package"
    apt_dir="$deps/apt"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/src"
    suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
    [ -n "$suite" ] || suite=bookworm
    printf 'deb-src http://deb.debian.org/debian %s main\n' "$suite" > "$apt_dir/sources.list"
    apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=- \
-o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
    # shellcheck disable=SC2086 # word list
    run apt-get $apt_opts update
    # shellcheck disable=SC2086
    (cd "$apt_dir/src" && run apt-get $apt_opts source --download-only cmocka)
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
# -fms-compatibility-version=11: the mingw-w64 headers put MSVC 12's
# __declspec(noreturn) where clang does not take it; -U__SSE2__: MSVC does
# not define it, so its build is the scalar code (same bits)
msvc="clang --target=x86_64-pc-windows-msvc -fsyntax-only -fms-extensions -fms-compatibility-version=11 \
-U__SSE2__ -Wall -Wextra -Wpedantic -Werror -Wvla -isystem /usr/x86_64-w64-mingw32/include -Iinclude -Isrc"
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
$msvc -std=c99 build-windows/msvc_single.c || die "include/md2_single.h does not compile as MSVC C"
printf '#include <md2/md2.h>\n#include <md2/animation.h>\n#include <md2/mesh.h>\n#include <md2/skin.h>\n#include <md2/tags.h>\n#include <md2/build.h>\n#include "md2_single.h"\nint main() { return md2_version_string() ? 0 : 1; }\n' > build-windows/msvc_headers.cpp
# shellcheck disable=SC2086
$msvc -x c++ -std=c++14 build-windows/msvc_headers.cpp || die "the public headers do not compile as MSVC C++"
echo "MSVC C: $checked compilations of src/ (DLL and static), the one file and the headers as C++: no findings"

say "Windows: the static and DLL builds passed every test under Wine, with the native build's results"
