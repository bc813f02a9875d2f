# Shell helpers sourced by tests/run.sh and tests/web/web.sh (POSIX sh). Set
# md2_script to the script's name before sourcing (die() names it).
#   say TEXT                 a heading
#   run CMD...               prints the command, then runs it
#   have NAME                status 0 when NAME is a command
#   die TEXT                 the message on stderr, exit status 1
#   md2_apt_install PACKAGE...
#                            installs them with apt-get (sudo when not root)
#   md2_npm_ready DIR NAME@VERSION...
#                            status 0 when DIR/node_modules holds every
#                            NAME at its VERSION
# SPDX-License-Identifier: MIT
say() { printf '\n==> %s\n' "$*"; }
run() { printf '+ %s\n' "$*"; "$@"; }
have() { command -v "$1" >/dev/null 2>&1; }
die() {
    printf '%s: %s\n' "${md2_script:-tests}" "$*" >&2
    exit 1
}

md2_npm_ready() {
    md2_npm_dir=$1
    shift
    for md2_npm_spec in "$@"; do
        md2_npm_name=${md2_npm_spec%@*}
        md2_npm_version=${md2_npm_spec##*@}
        grep -q "\"version\": *\"$md2_npm_version\"" \
            "$md2_npm_dir/node_modules/$md2_npm_name/package.json" 2>/dev/null || return 1
    done
}

# md2_apt_install PACKAGE...: installs them with apt-get, through sudo when
# not root, or dies saying what to install.
md2_apt_install() {
    echo "missing: $*"
    have apt-get || die "please install: $* (no apt-get here to do it)"
    md2_sudo=""
    if [ "$(id -u)" != 0 ]; then
        have sudo || die "please install: $* (not root, and no sudo)"
        md2_sudo="sudo"
    fi
    say "Installing $* with apt-get"
    # A mirror that is syncing can fail one index; the install below says
    # whether what we need is there, so an update error is not fatal.
    # shellcheck disable=SC2086 # md2_sudo is empty or one word
    run $md2_sudo env DEBIAN_FRONTEND=noninteractive apt-get update ||
        echo "apt-get update reported errors; trying the install anyway"
    # shellcheck disable=SC2086
    run $md2_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends --no-remove "$@"
}
