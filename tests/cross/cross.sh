#!/bin/sh
# Builds and runs the whole test suite for another kind of host, and checks
# that what libmd2 decodes from the models is bit-identical to the native
# build:
#
#   sh tests/cross/cross.sh s390x     big-endian 64-bit, gcc cross compiler, qemu-user
#   sh tests/cross/cross.sh aarch64   64-bit ARM (NEON pose kernels), gcc cross
#                               compiler, qemu-user
#   sh tests/cross/cross.sh i386      32-bit x86, all three below:
#     i386-sse2                 clang -m32, SSE2 arithmetic
#     i386-x87                  gcc -m32: x87 arithmetic, floats evaluated in
#                               80-bit registers (FLT_EVAL_METHOD 2)
#     i386-x87-clang            clang -m32 -mno-sse: x87, and clang does not
#                               round a float variable until it stores it to
#                               memory
#
#   sh tests/cross/cross.sh native    this host, with the scalar code only (use
#                               with MD2_SIMD=OFF): the library's suite (no
#                               examples or command: CI's stage 1 runs their
#                               tables), and the digest against the SIMD build's
#
# With MD2_SIMD=OFF in the environment every build is configured with
# -DMD2_SIMD=OFF (scalar C only) in a folder whose name ends in -nosimd,
# and its digest must still equal the native (SIMD) build's.
#
# The x87 builds are optimised: at -O0 every value goes through memory,
# which rounds it, and hides what x87 does to float arithmetic.
#
# Installs what is missing with apt-get (Debian/Ubuntu; multiarch packages
# for the target's cmocka and C library). Build folders: build-s390x,
# build-aarch64, build-i386 (SSE2), build-i386-x87, build-i386-x87-clang; the native digest
# comes from build-test (tests/run.sh) or is built in build-digest. Exits
# non-zero on any failure or difference.
#
# SPDX-License-Identifier: MIT
set -eu

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'tests/cross/cross.sh: %s\n' "$*" >&2; exit 1; }
run() { printf '+ %s\n' "$*"; "$@"; }

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

target=${1:-}
case "$target" in
s390x) variants="s390x" ;;
aarch64) variants="aarch64" ;;
i386) variants="i386 i386-x87 i386-x87-clang" ;;
i386-sse2) variants="i386" ;;
i386-x87 | i386-x87-clang) variants="$target" ;;
native) variants="native" ;;
*) die "usage: sh tests/cross/cross.sh s390x|aarch64|i386|i386-sse2|i386-x87|i386-x87-clang|native" ;;
esac
simd=${MD2_SIMD:-ON}
case "$simd" in
ON | on | 1) simd=ON ;;
OFF | off | 0) simd=OFF ;;
*) die "MD2_SIMD is '$simd': ON or OFF" ;;
esac

# variant VARIANT: sets arch, packages, need, runner, examples, toolchain,
# build_type, suite, build and extra (configure arguments) for one build.
variant() {
    build="build-$1"
    build_type=Debug
    suite=yes
    extra=""
    toolchain=""
    case "$1" in
    native)
        arch=""
        packages=""
        need=""
        runner=""
        examples=OFF
        extra="-DMD2_BUILD_TOOL=OFF"
        ;;
    s390x)
        arch=s390x
        packages="gcc-s390x-linux-gnu g++-s390x-linux-gnu libc6-dev-s390x-cross qemu-user libcmocka0:s390x"
        need="/usr/bin/s390x-linux-gnu-gcc /usr/bin/s390x-linux-gnu-g++ /usr/bin/qemu-s390x /usr/lib/s390x-linux-gnu/libcmocka.so.0"
        runner="qemu-s390x -L /"
        examples=ON
        toolchain=tests/cross/s390x-linux-gnu.cmake
        ;;
    aarch64)
        arch=arm64
        packages="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libcmocka0:arm64"
        need="/usr/bin/aarch64-linux-gnu-gcc /usr/bin/aarch64-linux-gnu-g++ /usr/bin/qemu-aarch64 /usr/lib/aarch64-linux-gnu/libcmocka.so.0"
        runner="qemu-aarch64 -L /"
        examples=ON
        toolchain=tests/cross/aarch64-linux-gnu.cmake
        ;;
    i386*)
        arch=i386
        # not gcc-multilib: Debian lets it coexist with no cross compiler
        # (gcc -m32 needs only lib32gcc-12-dev, lib32stdc++-12-dev and
        # libc6-dev-i386); and no linux-libc-dev:i386, which apt may trade
        # for the native headers
        packages="clang libc6-dev-i386 lib32gcc-12-dev lib32stdc++-12-dev libcmocka0:i386"
        need="/usr/bin/clang /usr/lib32/crt1.o /usr/lib/gcc/x86_64-linux-gnu/12/32/libgcc.a /usr/lib/i386-linux-gnu/libcmocka.so.0"
        runner=""
        # the library and its tests only: the examples add nothing to compare
        examples=OFF
        toolchain=tests/cross/i386-linux-gnu.cmake
        ;;
    esac
    case "$1" in
    i386-x87)
        toolchain=tests/cross/i386-x87-linux-gnu.cmake
        build_type=Release
        ;;
    i386-x87-clang)
        toolchain=tests/cross/i386-x87-clang-linux-gnu.cmake
        build_type=Release
        ;;
    esac
}

install_missing() {
    missing=0
    for f in $need; do
        [ -e "$f" ] || missing=1
    done
    [ "$missing" = 1 ] || return 0
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
}

# i386_asm_headers: <errno.h> includes <asm/errno.h>, which only
# linux-libc-dev:i386 has for i386, and apt cannot install that beside the
# native linux-libc-dev unless both have the same version. The x86 kernel
# headers are the same for both (they choose by __i386__), so the build
# gets an include folder with only asm/, a link to the native one.
i386_asm_headers() {
    native_asm=/usr/include/x86_64-linux-gnu/asm
    [ ! -e /usr/include/i386-linux-gnu/asm/errno.h ] || return 0
    [ -e "$native_asm/errno.h" ] || die "no $native_asm/errno.h: please install linux-libc-dev"
    mkdir -p "$build/asm-include"
    ln -sfn "$native_asm" "$build/asm-include/asm"
    extra="-DCMAKE_C_STANDARD_INCLUDE_DIRECTORIES=$root/$build/asm-include"
    extra="$extra -DCMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES=$root/$build/asm-include"
}

# i386_runner: a kernel without 32-bit support (IA32 emulation off, as on
# some virtual machines) refuses i386 programs ("Exec format error"); then
# they run under qemu-i386, as CTest's emulator, like s390x and aarch64.
i386_runner() {
    probe="$root/$build-probe"
    printf 'int main(void) { return 0; }\n' > "$probe.c"
    clang -m32 -o "$probe" "$probe.c" || die "clang -m32 cannot build a program"
    if "$probe" 2>/dev/null; then
        echo "this kernel runs i386 programs"
    else
        command -v qemu-i386 >/dev/null 2>&1 || apt-get install -y --no-install-recommends qemu-user ||
            die "qemu-i386 (qemu-user) is needed to run i386 programs here"
        runner="qemu-i386 -L /"
        extra="$extra -DCMAKE_CROSSCOMPILING_EMULATOR=qemu-i386;-L;/"
        echo "this kernel does not run i386 programs: they run under $runner"
    fi
    rm -f "$probe" "$probe.c"
}

# check_x87: an x87 build must really compute in x87 registers, or it tests
# nothing that the SSE2 build does not.
check_x87() {
    cc=$(sed -n 's/^set(CMAKE_C_COMPILER "\(.*\)")$/\1/p' "$build"/CMakeFiles/*/CMakeCCompiler.cmake | head -n 1)
    flags=$(sed -n 's/^C_FLAGS = //p' "$build/CMakeFiles/md2.dir/flags.make" 2>/dev/null || true)
    [ -n "$flags" ] || flags=$(sed -n 's/^CMAKE_C_FLAGS:[A-Z]*=//p' "$build/CMakeCache.txt")
    # shellcheck disable=SC2086 # flags is a word list
    method=$(printf '__FLT_EVAL_METHOD__\n' | "$cc" $flags -E -P -x c - | tr -d ' \n')
    echo "FLT_EVAL_METHOD in $build ($cc $flags): $method"
    [ "$method" = 2 ] || die "$build: FLT_EVAL_METHOD is $method, not 2 (x87)"
    if command -v objdump >/dev/null 2>&1; then
        objdump -d "$build/libmd2.a" > "$build/libmd2.dis"
        if grep -q '%xmm' "$build/libmd2.dis"; then
            die "$build: libmd2 uses SSE registers (see $build/libmd2.dis)"
        fi
        grep -Eq '[[:space:]]fmul[lps]*[[:space:]]' "$build/libmd2.dis" ||
            die "$build: no x87 multiplication in libmd2 (see $build/libmd2.dis)"
        echo "libmd2 in $build: x87 arithmetic, no SSE registers"
    fi
}

# check_no_simd: with MD2_SIMD=OFF an x86-64 libmd2 has none of its AVX2
# code (the compiler may still vectorise plain C with SSE2, the baseline).
check_no_simd() {
    command -v objdump >/dev/null 2>&1 || return 0
    case "$(uname -m)" in x86_64) ;; *) return 0 ;; esac
    objdump -d "$build/libmd2.a" > "$build/libmd2.dis"
    if grep -q '%ymm' "$build/libmd2.dis"; then
        die "$build: MD2_SIMD=OFF, yet libmd2 has AVX2 code (see $build/libmd2.dis)"
    fi
    echo "libmd2 in $build: no AVX2 code"
}

# cross VARIANT: build, run the suite, compare the digest with the native one.
cross() {
    variant "$1"
    install_missing
    if [ "$simd" = OFF ]; then
        build="$build-nosimd"
    fi
    case "$1" in i386*) i386_asm_headers; i386_runner ;; esac
    if [ -n "$toolchain" ]; then
        extra="$extra -DCMAKE_TOOLCHAIN_FILE=$toolchain"
    fi
    say "Configuring $build for $1 (MD2_SIMD=$simd)"
    # shellcheck disable=SC2086 # extra is a word list
    run cmake -S . -B "$build" -DMD2_SIMD="$simd" \
        -DCMAKE_BUILD_TYPE="$build_type" -DMD2_WERROR=ON -DMD2_BUILD_TESTS=ON \
        -DMD2_BUILD_EXAMPLES="$examples" -DMD2_INSTALL=OFF $extra
    say "Building"
    case "$suite" in
    yes) run cmake --build "$build" -j"${MD2_JOBS:-2}" ;;
    *) run cmake --build "$build" --target md2_digest -j"${MD2_JOBS:-2}" ;;
    esac
    case "$1" in *x87*) check_x87 ;; esac
    if [ "$simd" = OFF ] && [ "$1" = native ]; then check_no_simd; fi
    if [ "$suite" = yes ]; then
        say "Running the test suite on $1"
        run ctest --test-dir "$build" --output-on-failure -j"${MD2_JOBS:-2}" --timeout 900
    fi

    say "Comparing decoded results with the native build"
    models="examples/models/crystal.md2 examples/models/crystal.tag"
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
    # the library's md2_digest, then the one file's (tests/embed/single: as C, and as C++ where built),
    # which are CTest tests natively but not here: each run under qemu is minutes on x87
    for digest in "$build/tests/md2_digest" "$build"/tests/embed/single/single_md2_digest*; do
        [ -x "$digest" ] || continue
        # shellcheck disable=SC2086
        $runner "$digest" $models > "$build/digest-$1.txt"
        echo "$(basename "$digest"):"
        cat "$build/digest-$1.txt"
        if ! diff "$build/digest-native.txt" "$build/digest-$1.txt"; then
            die "$1 (MD2_SIMD=$simd): $(basename "$digest")'s results differ from the native build"
        fi
    done
    if [ "$suite" = yes ]; then
        say "$1 (MD2_SIMD=$simd): all tests passed and results equal the native build's"
    else
        say "$1 (MD2_SIMD=$simd): results equal the native build's (test suite not run)"
    fi
}

for v in $variants; do
    cross "$v"
done
