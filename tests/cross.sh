#!/bin/sh
# Builds and runs the whole test suite for another kind of host, and checks
# that what libmd2 decodes from the models is bit-identical to the native
# build:
#
#   sh tests/cross.sh s390x    big-endian 64-bit, gcc cross compiler, qemu-user
#   sh tests/cross.sh i386     32-bit x86, clang -m32 (SSE2 arithmetic)
#
# Installs what is missing with apt-get (Debian/Ubuntu; multiarch packages
# for the target's cmocka and C library). Build folders: build-s390x,
# build-i386; the native digest comes from build-test (tests/run.sh) or is
# built in build-digest. Exits non-zero on any failure or difference.
#
# SPDX-License-Identifier: MIT
set -eu

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'tests/cross.sh: %s\n' "$*" >&2; exit 1; }
run() { printf '+ %s\n' "$*"; "$@"; }

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

target=${1:-}
case "$target" in
s390x)
    arch=s390x
    packages="gcc-s390x-linux-gnu g++-s390x-linux-gnu libc6-dev-s390x-cross qemu-user libcmocka0:s390x"
    need="/usr/bin/s390x-linux-gnu-gcc /usr/bin/s390x-linux-gnu-g++ /usr/bin/qemu-s390x /usr/lib/s390x-linux-gnu/libcmocka.so.0"
    runner="qemu-s390x -L /"
    examples=ON
    ;;
i386)
    arch=i386
    # not gcc-multilib: Debian lets it coexist with no cross compiler; and
    # no linux-libc-dev:i386, which apt may trade for the native headers
    packages="clang libc6-dev-i386 lib32gcc-12-dev lib32stdc++-12-dev libcmocka0:i386"
    need="/usr/bin/clang /usr/lib32/crt1.o /usr/lib/i386-linux-gnu/libcmocka.so.0"
    runner=""
    # md2_demo includes <errno.h>, whose <asm/errno.h> only linux-libc-dev:i386 has
    examples=OFF
    ;;
*)
    die "usage: sh tests/cross.sh s390x|i386"
    ;;
esac

missing=0
for f in $need; do
    [ -e "$f" ] || missing=1
done
if [ "$missing" = 1 ]; then
    command -v apt-get >/dev/null 2>&1 || die "please install: $packages"
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    say "Installing $packages"
    case " $(dpkg --print-foreign-architectures | tr '\n' ' ') " in
    *" $arch "*) ;;
    *) run $sudo dpkg --add-architecture "$arch" ;;
    esac
    run $sudo env DEBIAN_FRONTEND=noninteractive apt-get update || echo "apt-get update reported errors; trying the install anyway"
    # shellcheck disable=SC2086 # word lists
    run $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends --no-remove $packages
fi

build="build-$target"
say "Configuring $build for $target"
run cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE="tests/cross/$arch-linux-gnu.cmake" \
    -DCMAKE_BUILD_TYPE=Debug -DMD2_WERROR=ON -DMD2_BUILD_TESTS=ON \
    -DMD2_BUILD_EXAMPLES="$examples" -DMD2_INSTALL=OFF
say "Building"
run cmake --build "$build" -j"${MD2_JOBS:-2}"
say "Running the test suite on $target"
run ctest --test-dir "$build" --output-on-failure -j"${MD2_JOBS:-2}" --timeout 900

say "Comparing decoded results with the native build"
models="examples/models/crystal.md2"
shared=$(sed -n 's/^MD2_SHARED_DIR:PATH=//p' "$build/CMakeCache.txt")
for m in faerie.md2 sydney.md2; do
    [ -f "$shared/corpus/$m" ] && models="$models $shared/corpus/$m"
done
native="build-test/tests/md2_digest"
if [ ! -x "$native" ]; then
    run cmake -S . -B build-digest -DMD2_BUILD_EXAMPLES=OFF -DMD2_INSTALL=OFF >/dev/null
    run cmake --build build-digest --target md2_digest -j"${MD2_JOBS:-2}"
    native="build-digest/tests/md2_digest"
fi
# shellcheck disable=SC2086 # word lists
"$native" $models > "$build/digest-native.txt"
# shellcheck disable=SC2086
$runner "$build/tests/md2_digest" $models > "$build/digest-$target.txt"
cat "$build/digest-$target.txt"
if ! diff "$build/digest-native.txt" "$build/digest-$target.txt"; then
    die "$target results differ from the native build"
fi
say "$target: all tests passed and results equal the native build's"
