#!/bin/sh
# Writes single_include/md2_single.h, libmd2 as one file in the style of stb and
# cgltf: the public declarations always, the implementation where the
# including file defines MD2_IMPLEMENTATION first. Generated, never edited
# by hand: run this after any change to src/ or include/.
#
#   sh cmake/single_header.sh            write single_include/md2_single.h
#   sh cmake/single_header.sh OUT        write OUT instead
#   sh cmake/single_header.sh --check    fail when the committed copy differs
#
# The sources are the library's own list, read from add_library(md2 ...) in
# CMakeLists.txt, in its order, so a file added there is picked up here.
# Each "local.h" a source includes is copied in where it is first included
# when it has an include guard, and each time when it has none (the kernel
# templates, expanded once for each instruction set as in the library); <md2/...> headers are the
# declarations above. The macros a .c file defines are #undef'd after it,
# as they would end with its translation unit, and a name a .c file
# declares at file scope for itself (a static function or object, a
# typedef, a struct tag) that another .c file also uses is renamed
# md2_single__<file>_<name> within it by a macro: each file keeps its own
# names as in its own translation unit (two may declare one name, and the
# locals of one do not hide the functions of another). A name the file
# also uses as a member (.name, ->name), defines as a macro or pastes (##)
# keeps its name: the compiler says so if it then collides.
#
# SPDX-License-Identifier: MIT
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

out=single_include/md2_single.h
check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
*) out=$1 ;;
esac

# The library's files, in CMakeLists.txt's order.
sources=$(awk '
    /^add_library\(md2$/ { inside = 1; next }
    inside {
        line = $0
        sub(/#.*/, "", line)
        n = split(line, words, /[ \t()]+/)
        for (i = 1; i <= n; i++)
            if (words[i] ~ /\.[ch]$/) print words[i]
        if (line ~ /\)/) exit
    }' CMakeLists.txt)
[ -n "$sources" ] || { echo "cmake/single_header.sh: no add_library(md2 ...) in CMakeLists.txt" >&2; exit 1; }
public=""
impl=""
for f in $sources; do
    [ -f "$f" ] || { echo "cmake/single_header.sh: $f (CMakeLists.txt) is missing" >&2; exit 1; }
    case "$f" in
    include/*.h) public="$public $f" ;;
    src/*.c) impl="$impl $f" ;;
    src/*.h) ;; # copied where the .c files include them
    *) echo "cmake/single_header.sh: $f: not include/*.h or src/*.[ch]" >&2; exit 1 ;;
    esac
done
version=$(sed -n 's/^#define MD2_VERSION_\(MAJOR\|MINOR\|PATCH\)[ \t]*\([0-9]*\).*/\2/p' include/md2/md2.h | paste -sd. -)

tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT INT TERM

# shellcheck disable=SC2086 # word lists
awk -v public="$public" -v impl="$impl" -v version="$version" '
# sort_names(a, n): a[1..n] in byte order (the output must not depend on
# the order awk walks an array in)
function sort_names(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
function dirname(p) { if (p ~ /\//) { sub(/\/[^\/]*$/, "", p); return p } return "." }
function exists(p,   line, r) {
    r = (getline line < p)
    close(p)
    return r >= 0
}
# resolve(name, from): the file that #include "name" in file from means
function resolve(name, from,   d) {
    d = dirname(from)
    if (exists(d "/" name)) return d "/" name
    if (exists("src/" name)) return "src/" name
    if (exists("include/" name)) return "include/" name
    printf "cmake/single_header.sh: %s includes \"%s\", which is not in src/ or include/\n", from, name > "/dev/stderr"
    exit 2
}
# scan(file): the names file declares at file scope for itself
function scan(file,   line, line_copy, name, n, k, parts, words) {
    while ((getline line < file) > 0) {
        line_copy = line
        name = ""
        if (line ~ /^__attribute__.*\)\)[ \t]+static[ \t]/)
            sub(/^__attribute__.*\)\)[ \t]+/, "", line)
        if (line ~ /^static[ \t]/) {
            sub(/[(=\[;].*/, "", line)
            n = split(line, parts, /[^A-Za-z_0-9]+/)
            while (n > 0 && parts[n] == "") n--
            if (n > 0) name = parts[n]
        } else if (line ~ /^}[ \t]*[A-Za-z_][A-Za-z_0-9]*[ \t]*;/) {
            name = line
            sub(/^}[ \t]*/, "", name)
            sub(/[ \t;].*/, "", name)
        } else if (line ~ /^typedef[ \t].*;[ \t]*$/) {
            if (line ~ /\(\*[ \t]*[A-Za-z_][A-Za-z_0-9]*[ \t]*\)/) {
                match(line, /\(\*[ \t]*[A-Za-z_][A-Za-z_0-9]*/)
                name = substr(line, RSTART + 2, RLENGTH - 2)
                gsub(/[ \t]/, "", name)
            } else {
                sub(/[ \t]*;[ \t]*$/, "", line)
                n = split(line, parts, /[^A-Za-z_0-9]+/)
                name = parts[n]
            }
        }
        if (name != "" && !(name in keyword))
            own[file, name] = 1
        words = line_copy
        gsub(/[^A-Za-z_0-9]+/, " ", words)
        n = split(words, parts, " ")
        for (k = 1; k <= n; k++)
            if (!((parts[k], file) in uses)) { uses[parts[k], file] = 1; users[parts[k]]++ }
        words = line_copy
        while (match(words, /(\.|->|##)[ \t]*[A-Za-z_][A-Za-z_0-9]*/)) {
            name = substr(words, RSTART, RLENGTH)
            sub(/^(\.|->|##)[ \t]*/, "", name)
            keep[file, name] = 1
            words = substr(words, RSTART + RLENGTH)
        }
        words = line_copy
        while (match(words, /[A-Za-z_][A-Za-z_0-9]*[ \t]*##/)) {
            name = substr(words, RSTART, RLENGTH)
            sub(/[ \t]*##$/, "", name)
            keep[file, name] = 1
            words = substr(words, RSTART + RLENGTH)
        }
        if (line_copy ~ /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]/) {
            name = line_copy
            sub(/^[ \t]*#[ \t]*define[ \t]+/, "", name)
            sub(/[^A-Za-z_0-9].*/, "", name)
            keep[file, name] = 1
        }
        if (line ~ /^(typedef[ \t]+)?(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z_0-9]*/) {
            sub(/^(typedef[ \t]+)?(struct|union|enum)[ \t]+/, "", line)
            sub(/[^A-Za-z_0-9].*/, "", line)
            own[file, line] = 1
        }
    }
    close(file)
}
# guarded(file): 1 when file opens with an include guard (#ifndef X,
# #define X), so that one copy is enough
function guarded(file,   line, n, name, r) {
    r = 0
    n = 0
    while ((getline line < file) > 0) {
        if (line !~ /^[ \t]*#/) continue
        n++
        if (n == 1) {
            if (line !~ /^#ifndef[ \t]+[A-Za-z_]/) break
            name = line
            sub(/^#ifndef[ \t]+/, "", name)
            sub(/[ \t].*/, "", name)
        } else {
            r = (line ~ ("^#define[ \t]+" name "([ \t]|$)"))
            break
        }
    }
    close(file)
    return r
}
# copy(file, section): file with its local includes expanded
function copy(file, section,   line, name, path) {
    while ((getline line < file) > 0) {
        if (line ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
            name = line
            sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", name)
            sub(/".*/, "", name)
            path = resolve(name, file)
            if (path ~ /^include\//) {
                if (section == "impl") continue  # declared above
                if (path in done) continue
                done[path] = 1
                copy(path, section)
                continue
            }
            if (path in inlined) continue  # its guard would keep it out
            if (guarded(path)) inlined[path] = 1
            print "/* ---- " path " (included by " file ") ---- */"
            copy(path, section)
            print "/* ---- back in " file " ---- */"
            continue
        }
        if (section == "impl" && file ~ /\.c$/ && line ~ /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z_0-9]*/) {
            name = line
            sub(/^[ \t]*#[ \t]*define[ \t]+/, "", name)
            match(name, /^[A-Za-z_][A-Za-z_0-9]*/)
            name = substr(name, 1, RLENGTH)
            if (!(name in defined)) { defined[name] = 1; order[++ndefined] = name }
        }
        print line
    }
    close(file)
}
BEGIN {
    split("auto char const double float int inline long short signed static unsigned void volatile", kw, " ")
    for (k in kw) keyword[kw[k]] = 1
    n = split(impl, files, " ")
    for (i = 1; i <= n; i++)
        scan(files[i])
    print "/*"
    print " * md2_single.h: libmd2 " version " in one file. GENERATED by cmake/single_header.sh"
    print " * from src/ and include/: do not edit; change those and run the script again."
    print " *"
    print " * In exactly one C or C++ file of your program (C99, or C++11 and later):"
    print " *"
    print " *     #define MD2_IMPLEMENTATION"
    print " *     #include \"md2_single.h\""
    print " *"
    print " * and #include \"md2_single.h\" alone wherever you call libmd2. It declares what"
    print " * <md2/md2.h>, <md2/animation.h>, <md2/mesh.h>, <md2/skin.h>, <md2/tags.h>,"
    print " * <md2/bundle.h>, <md2/build.h> and <md2/simplify.h> declare (README.md,"
    print " * docs/api.md); link with -lm where sqrtf needs it. The implementation is"
    print " * the library compiled as one translation unit: the same code, SIMD kernels"
    print " * included, and the same results."
    print " *"
    print " * SPDX-License-Identifier: MIT (see the LICENSE file of libmd2)"
    print " */"
    print "#ifndef MD2_SINGLE_H"
    print "#define MD2_SINGLE_H"
    print ""
    print "/* The functions are compiled into the program that includes this file: no"
    print " * DLL import or export. */"
    print "#ifndef MD2_STATIC"
    print "#define MD2_STATIC"
    print "#endif"
    n = split(public, files, " ")
    for (i = 1; i <= n; i++) {
        if (files[i] in done) continue
        done[files[i]] = 1
        print ""
        print "/* ==== " files[i] " ==== */"
        copy(files[i], "decl")
    }
    print ""
    print "#endif /* MD2_SINGLE_H */"
    print ""
    print "#if defined(MD2_IMPLEMENTATION) && !defined(MD2_SINGLE_IMPLEMENTED)"
    print "#define MD2_SINGLE_IMPLEMENTED"
    n = split(impl, files, " ")
    for (i = 1; i <= n; i++) {
        print ""
        print "/* ==== " files[i] " ==== */"
        ndefined = 0
        split("", defined)
        base = files[i]
        sub(/^.*\//, "", base)
        sub(/\.c$/, "", base)
        nrenamed = 0
        for (key in own) {
            split(key, pair, SUBSEP)
            name = pair[2]
            if (pair[1] == files[i] && users[name] - ((name, files[i]) in uses) > 0 &&
                !((files[i], name) in keep))
                renamed[++nrenamed] = name
        }
        sort_names(renamed, nrenamed)
        for (k = 1; k <= nrenamed; k++)
            print "#define " renamed[k] " md2_single__" base "_" renamed[k]
        copy(files[i], "impl")
        for (k = 1; k <= ndefined; k++)
            print "#undef " order[k]
        for (k = 1; k <= nrenamed; k++)
            print "#undef " renamed[k]
    }
    print ""
    print "#endif /* MD2_IMPLEMENTATION */"
}' > "$tmp"

if [ "$check" = 1 ]; then
    if ! cmp -s "$tmp" "$out"; then
        diff -u "$out" "$tmp" | head -n 40 >&2 || true
        echo "cmake/single_header.sh: $out differs from what src/ and include/ make: run sh cmake/single_header.sh and commit it" >&2
        exit 1
    fi
    echo "$out matches src/ and include/"
else
    mv "$tmp" "$out"
    echo "wrote $out"
fi
