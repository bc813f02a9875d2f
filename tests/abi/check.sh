#!/bin/sh
# ABI check of the shared library against the committed baseline
# tests/abi/libmd2.abi, with libabigail (docs/abi.md explains the policy).
#
#   sh tests/abi/check.sh            build, compare with the baseline
#   sh tests/abi/check.sh --update   build, show what changed, rewrite the baseline
#
# It builds libmd2.so with debug info (-g, tests and examples off) in a
# fresh build-abi/, describes its ABI with abidw (only the types of the
# public headers in include/md2/ count), and compares the baseline with it
# using abidiff. Fails on any change to the existing ABI: a removed or
# changed function, a changed public struct, a changed enum value. Added
# functions pass (a compatible minor release), and so does a new code just
# before the count sentinel of an enum (tests/abi/suppressions.abignore).
#
# Update the baseline on purpose only: when a major release bumps the
# SONAME, or when a release adds API (then the additions become part of
# what is checked). Commit the new tests/abi/libmd2.abi with the change.
#
# Installs what is missing (cmake, a C compiler, abigail-tools) with
# apt-get, as tests/run.sh does.
#
# Environment:
#   MD2_ABI_BUILD_DIR  build folder (default build-abi), relative to the
#                      repository root; it is deleted and made again
#   MD2_JOBS           parallel build jobs (default 2)
#   CC                 C compiler
# Exit status: 0 compatible (or updated, or skipped on an architecture the
# baseline does not describe), 1 ABI change or failure.
#
# SPDX-License-Identifier: MIT
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
md2_script=tests/abi/check.sh
. "$root/tests/scripts/lib.sh"

update=0
case "${1:-}" in
"") ;;
--update) update=1 ;;
-h | --help)
    sed -n '2,/^# SPDX/p' "$0" | sed -e '/^# SPDX/d' -e 's/^# \{0,1\}//'
    exit 0
    ;;
*) die "usage: sh tests/abi/check.sh [--update]" ;;
esac
[ $# -le 1 ] || die "usage: sh tests/abi/check.sh [--update]"

build_dir=${MD2_ABI_BUILD_DIR:-build-abi}
jobs=${MD2_JOBS:-2}
baseline=tests/abi/libmd2.abi
suppressions=tests/abi/suppressions.abignore

# ---------------------------------------------------------------------------
# Prerequisites
# ---------------------------------------------------------------------------
say "Checking prerequisites"
missing=""
have cmake || missing="$missing cmake"
have cc || have "${CC:-cc}" || missing="$missing gcc"
{ have abidw && have abidiff; } || missing="$missing abigail-tools"
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # missing is a word list
    md2_apt_install $missing
fi
echo "$(abidw --version), $(abidiff --version)"

# ---------------------------------------------------------------------------
# Build the shared library with debug info, in a fresh folder
# ---------------------------------------------------------------------------
case "$build_dir" in
"" | / | . | ..) die "MD2_ABI_BUILD_DIR='$build_dir' is not a build folder" ;;
esac
if [ -e "$build_dir" ] && [ ! -f "$build_dir/CMakeCache.txt" ] &&
    [ -n "$(ls -A "$build_dir" 2>/dev/null)" ]; then
    die "$build_dir exists and is not a CMake build folder; not deleting it (set MD2_ABI_BUILD_DIR)"
fi
rm -rf "$build_dir"
mkdir -p "$build_dir"

say "Building the shared library in $build_dir"
log() { out=$1; shift; printf '+ %s > %s\n' "$*" "$out"; "$@" >"$out" 2>&1; }
log "$build_dir/configure.log" cmake -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-g \
    -DBUILD_SHARED_LIBS=ON \
    -DMD2_BUILD_TESTS=OFF -DMD2_BUILD_EXAMPLES=OFF -DMD2_INSTALL=OFF \
    -DMD2_WERROR=OFF -DMD2_SANITIZE=OFF ||
    { cat "$build_dir/configure.log"; die "configure failed"; }
log "$build_dir/build.log" cmake --build "$build_dir" -j"$jobs" ||
    { cat "$build_dir/build.log"; die "build failed"; }

lib="$build_dir/libmd2.so"
[ -f "$lib" ] || die "$lib was not built"
soname=$(readlink "$lib" || true)
echo "built $lib -> $soname"

# ---------------------------------------------------------------------------
# Describe the ABI. The same options make the baseline (--update) and the
# file compared with it: no paths, no source locations (so that editing a
# comment in a header does not change the file), no functions of other
# libraries that the code calls, hashed type ids. The second description
# keeps short locations, for a readable report only.
# ---------------------------------------------------------------------------
abidw_opts="--headers-dir include/md2 --drop-private-types --drop-undefined-syms
 --no-corpus-path --no-comp-dir-path --no-elf-needed --type-id-style hash"
current="$build_dir/libmd2.abi"
report_abi="$build_dir/libmd2-locs.abi"
say "Describing the ABI of $lib (public headers: include/md2/)"
# shellcheck disable=SC2086 # $abidw_opts is a word list
run abidw $abidw_opts --no-show-locs --out-file "$current.tmp" "$lib"
# shellcheck disable=SC2086
abidw $abidw_opts --short-locs --out-file "$report_abi.tmp" "$lib"
# Each translation unit is named by its absolute path; make it relative to
# the repository, so that every clone writes the same baseline.
root_re=$(printf '%s/\n' "$root" | sed 's/[][\.*^$|]/\\&/g')
for f in "$current" "$report_abi"; do
    sed "s|path='$root_re|path='|" "$f.tmp" >"$f"
    rm -f "$f.tmp"
done

# attr <file> <name>: an attribute of the abi-corpus element
attr() { sed -n "s/^<abi-corpus[^>]* $2='\([^']*\)'.*/\1/p" "$1" | head -n 1; }
arch=$(attr "$current" architecture)
new_soname=$(attr "$current" soname)
functions=$(grep -c '<elf-symbol name=' "$current" || true)
echo "$new_soname, $arch: $functions exported symbols"

# The SONAME must follow the major version in include/md2/md2.h.
major=$(sed -n 's/^#define MD2_VERSION_MAJOR[ 	]*\([0-9][0-9]*\).*/\1/p' include/md2/md2.h)
[ -n "$major" ] || die "cannot read MD2_VERSION_MAJOR from include/md2/md2.h"
if [ "$new_soname" != "libmd2.so.$major" ]; then
    die "the SONAME is '$new_soname', but MD2_VERSION_MAJOR is $major: expected libmd2.so.$major (CMakeLists.txt sets SOVERSION to the major version)"
fi

# ---------------------------------------------------------------------------
# Compare
# ---------------------------------------------------------------------------
# abidiff's exit status is a bit field: 1 error, 2 usage error, 4 the ABI
# changed, 8 the change is incompatible (a symbol was removed).
# --no-added-syms: added functions and variables are not a change.
diff_opts="--no-added-syms --suppressions $suppressions"

if [ "$update" = 1 ]; then
    if [ -f "$baseline" ]; then
        say "What changed since the old baseline"
        abidiff --suppressions "$suppressions" "$baseline" "$report_abi" || true
    fi
    cp "$current" "$baseline"
    say "Baseline $baseline written ($new_soname, $arch, $functions exported symbols)"
    echo "Commit it with the change that made it necessary (docs/abi.md)."
    exit 0
fi

[ -f "$baseline" ] || die "no baseline $baseline: make one with sh tests/abi/check.sh --update"

base_arch=$(attr "$baseline" architecture)
base_soname=$(attr "$baseline" soname)
if [ "$base_arch" != "$arch" ]; then
    say "ABI check SKIPPED: the baseline describes $base_arch, this host builds $arch"
    exit 0
fi

say "Comparing $baseline ($base_soname) with $new_soname"
status=0
# shellcheck disable=SC2086 # $diff_opts is a word list
abidiff $diff_opts "$baseline" "$report_abi" >"$build_dir/abidiff.txt" 2>&1 || status=$?
cat "$build_dir/abidiff.txt"

if [ $((status & 3)) != 0 ]; then
    die "abidiff failed (exit status $status)"
fi
if [ "$status" != 0 ]; then
    printf '\n'
    if [ "$base_soname" != "$new_soname" ]; then
        echo "ABI CHECK FAILED: the SONAME changed from $base_soname to $new_soname."
        echo "That is a major release: review the changes above, then run"
        echo "  sh tests/abi/check.sh --update"
        echo "and commit tests/abi/libmd2.abi (docs/abi.md)."
    else
        if [ $((status & 8)) != 0 ]; then
            echo "ABI CHECK FAILED: incompatible change to $new_soname (abidiff exit status $status:"
            echo "a function was removed)."
        else
            echo "ABI CHECK FAILED: the existing ABI of $new_soname changed (abidiff exit status $status)."
        fi
        echo "Within one SONAME, existing functions, public struct layouts and enum values"
        echo "must not change, and nothing may be removed. Undo the change, or keep it for"
        echo "the next major release (bump MD2_VERSION_MAJOR, which bumps the SONAME, then"
        echo "run sh tests/abi/check.sh --update). A compatible change that abidiff cannot"
        echo "tell apart (a new field in a struct's reserved space) is reviewed by hand,"
        echo "then accepted with sh tests/abi/check.sh --update. See docs/abi.md."
    fi
    exit 1
fi

# Compatible. Say what was added, if anything: the baseline is updated
# with each release that adds API, so that the additions are checked too.
added=0
abidiff --suppressions "$suppressions" "$baseline" "$report_abi" >"$build_dir/abidiff-added.txt" 2>&1 || added=$?
if [ $((added & 3)) != 0 ]; then
    cat "$build_dir/abidiff-added.txt"
    die "abidiff failed (exit status $added)"
fi
if [ "$added" != 0 ]; then
    printf '\nAdded since the baseline (allowed):\n'
    sed -n '/^[0-9]* Added function/,$p' "$build_dir/abidiff-added.txt"
    echo "ABI check passed: $new_soname is compatible with the baseline, with additions."
    echo "At the release that ships them, run sh tests/abi/check.sh --update and commit"
    echo "tests/abi/libmd2.abi, so that they are checked from then on."
elif cmp -s "$baseline" "$current"; then
    echo "ABI check passed: $new_soname matches the baseline exactly."
else
    echo "ABI check passed: $new_soname is compatible with the baseline."
fi
