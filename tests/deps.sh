#!/bin/sh
# tests/deps.sh — what `make test` and `make bench` need besides the CUDA
# toolkit, obtained by themselves.  The Makefile calls it; nobody has to.
#
#   deps.sh check FLAGS_FILE   make test: find the Check unit-test library and
#                              write the compiler flags for it to FLAGS_FILE
#                              (line 1: -I..., line 2: -L...; rewritten only
#                              when they change).  In this order: the system's
#                              Check (default paths, then pkg-config), then
#                              $DEPS if it is populated (no network), then
#                              Debian's packages downloaded with `apt-get
#                              download` (no root needed) and unpacked into
#                              $DEPS.  Prints one line saying which.  When none
#                              works: one message naming the packages and the
#                              command, exit 2.
#   deps.sh fetch              make deps: download and unpack the packages into
#                              $DEPS even when the system has Check, so that
#                              the folder can be carried to a machine without
#                              network (copy the tree and $DEPS, run make test).
#   deps.sh gnuplot            make bench / make plots: as root, install
#                              gnuplot when it is missing.  Never fails.
#   deps.sh gnuplot-note       after rendering: if there is still no gnuplot,
#                              say how to get the plots.
#   deps.sh system             make deps-system (root): install the packages
#                              below system-wide with apt-get.
#   deps.sh wheel PKG VER DIR  make peers / make sass: the PyPI wheel PKG==VER
#                              (pip download, no root, nothing installed)
#                              unpacked into $DEPS/DIR, stamped DIR/.ok.  A
#                              populated DIR is used as it is (no network).
#
# Environment (the Makefile passes its variables of the same names):
#   DEPS          the folder of unpacked packages (default build/deps)
#   CC            C compiler for the link test (default gcc)
#   CHECK_LIBS    how the test runner links Check (static Check and subunit)
#   CHECK_SYSTEM  auto (default): use an installed Check when there is one;
#                 0: ignore it (the set-up test uses this)
#   APT_GET       the apt-get command (default apt-get); APT_GET=false means
#                 "no way to download anything here"
#   GNUPLOT       the gnuplot command (default gnuplot)
set -u

# The one list of system packages (Debian/Ubuntu names).  Static libraries
# only: the test runner links libcheck.a and libsubunit.a, so nothing needs
# to be installed where it runs.
CHECK_PKGS="check libsubunit-dev"
PLOT_PKGS="gnuplot-nox"

DEPS=${DEPS:-build/deps}
CC=${CC:-gcc}
CHECK_LIBS=${CHECK_LIBS:--Wl,-Bstatic -lcheck -lsubunit -Wl,-Bdynamic -lm -lrt -pthread}
CHECK_SYSTEM=${CHECK_SYSTEM:-auto}
APT_GET=${APT_GET:-apt-get}
GNUPLOT=${GNUPLOT:-gnuplot}
# apt must fail fast on a machine without network, not hang on a mirror.
APT_OPTS="-o Acquire::Retries=0 -o Acquire::http::Timeout=15 -o Acquire::https::Timeout=15"
TIMEOUT=""
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 90"

T=$(mktemp -d "${TMPDIR:-/tmp}/deps.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT

is_root() { [ "$(id -u)" = 0 ]; }
have_apt() { # can this machine download Debian packages?  If not, $T/why says why.
    if [ "$APT_GET" = false ]; then
        echo "    downloading is turned off (APT_GET=false)" >"$T/why"
    elif ! command -v "$APT_GET" >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
        echo "    this machine has no apt-get/dpkg-deb (not Debian or Ubuntu)" >"$T/why"
    else
        return 0
    fi
    return 1
}

# links CFLAGS LDFLAGS: does a program using Check compile, link and run?
links() {
    cat >"$T/t.c" <<'EOF'
#include <check.h>
int main(void)
{
    SRunner *r = srunner_create(suite_create("link test"));
    srunner_free(r);
    return 0;
}
EOF
    # shellcheck disable=SC2086  # lists of flags
    $CC $1 "$T/t.c" -o "$T/t" $2 $CHECK_LIBS >"$T/cc.log" 2>&1 && "$T/t"
}

# deps_flags: the flags for Check unpacked under $DEPS ("" if it is not there)
deps_flags() {
    [ -f "$DEPS/usr/include/check.h" ] || return 1
    lc=$(find "$DEPS/usr" -name libcheck.a 2>/dev/null | head -n 1)
    ls=$(find "$DEPS/usr" -name libsubunit.a 2>/dev/null | head -n 1)
    [ -n "$lc" ] && [ -n "$ls" ] || return 1
    DCFLAGS="-I$DEPS/usr/include"
    DLDFLAGS="-L$(dirname "$lc")"
    [ "$(dirname "$lc")" = "$(dirname "$ls")" ] || DLDFLAGS="$DLDFLAGS -L$(dirname "$ls")"
    return 0
}

# apt_download DIR PKGS...: the .deb files of PKGS into DIR, no root needed.
# Uses the system's package lists; without them (a fresh container) it reads
# the sources into private lists under $T first.
apt_download() {
    dir=$1
    shift
    have_apt || return 1
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    if (cd "$dir" && $TIMEOUT "$APT_GET" $APT_OPTS -q download "$@") >"$T/apt.log" 2>&1; then
        return 0
    fi
    # No package lists (or stale ones): fetch lists of our own, leaving the
    # system's untouched; works without root.
    mkdir -p "$T/lists/partial" "$T/cache/archives/partial"
    PRIV="-o Dir::State::Lists=$T/lists -o Dir::Cache=$T/cache -o Debug::NoLocking=1"
    # shellcheck disable=SC2086
    if $TIMEOUT "$APT_GET" $APT_OPTS $PRIV -q update >>"$T/apt.log" 2>&1 &&
        (cd "$dir" && $TIMEOUT "$APT_GET" $APT_OPTS $PRIV -q download "$@") >>"$T/apt.log" 2>&1; then
        return 0
    fi
    apt_why
    return 1
}

apt_why() { # the lines of $T/apt.log that say why: no network, no package
    { grep '^W: Failed to fetch' "$T/apt.log" | head -n 1; grep '^E:' "$T/apt.log" | tail -n 1; } |
        cut -c1-150 | sed 's/^/    /' >"$T/why"
    [ -s "$T/why" ] || tail -n 2 "$T/apt.log" | sed 's/^/    /' >"$T/why"
}

# fetch: Debian's Check and subunit packages unpacked into $DEPS.
fetch() {
    new=$DEPS.new
    rm -rf "$new"
    # shellcheck disable=SC2086  # a list of package names
    if ! apt_download "$new/debs" $CHECK_PKGS; then
        rm -rf "$new"
        return 1
    fi
    for deb in "$new"/debs/*.deb; do
        if ! dpkg-deb -x "$deb" "$new" 2>"$T/why"; then
            rm -rf "$new"
            return 1
        fi
    done
    rm -rf "$new/usr/share/doc" "$new/usr/share/info" "$new/usr/share/man"
    {
        echo "Check and subunit for make test, unpacked from Debian packages by tests/deps.sh"
        echo "(make deps).  Copy this folder with the tree to a machine without network."
        for deb in "$new"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | awk '{ printf "%s ", $2 } END { print "" }'; done
    } >"$new/README"
    # the wheels (CUTLASS, the SASS tools) stay: they are not Debian's
    for w in "$DEPS"/*/.ok; do [ -f "$w" ] && mv "$(dirname "$w")" "$new/"; done
    rm -rf "$DEPS"
    mv "$new" "$DEPS"
}

# wheel PKG VER DIR: PyPI's wheel of PKG==VER unpacked into $DEPS/DIR.
cmd_wheel() {
    dest=$DEPS/$3
    [ -f "$dest/.ok" ] && return 0
    echo "deps: downloading $1==$2 from PyPI into $dest (pip download: no root, nothing installed)"
    py=$(command -v python3 || command -v python)
    if [ -z "$py" ] || ! $TIMEOUT "$py" -m pip download -q --no-deps --only-binary :all: \
            -d "$T/whl" "$1==$2" >"$T/pip.log" 2>&1; then
        echo "deps: could not download $1==$2 (needs python3 -m pip and network):" >&2
        tail -n 2 "$T/pip.log" 2>/dev/null | sed 's/^/    /' >&2
        echo "    on a machine with network: make deps, then copy $DEPS/ into this tree" >&2
        exit 2
    fi
    rm -rf "$dest.new" && mkdir -p "$dest.new" &&
        "$py" -m zipfile -e "$T"/whl/*.whl "$dest.new" && rm -rf "$dest" && mv "$dest.new" "$dest" &&
        echo "$1==$2" >"$dest/.ok" || { echo "deps: could not unpack $1==$2 into $dest" >&2; exit 2; }
}

cannot() { # cannot: the one message when Check cannot be had here
    {
        echo
        echo "make test needs the Check unit-test library (packages: $CHECK_PKGS)."
        echo "It is not installed here, and it could not be downloaded:"
        if [ -s "$T/why" ]; then cat "$T/why"; fi
        echo "Install it:   apt-get install $CHECK_PKGS   (as root), then make test again;"
        echo "or, on a machine without network: run \`make deps\` on one with network and copy"
        echo "its $DEPS/ folder into this tree."
    } >&2
    exit 2
}

write_flags() { # write_flags FILE CFLAGS LDFLAGS
    printf '%s\n%s\n' "$2" "$3" >"$T/flags"
    cmp -s "$T/flags" "$1" 2>/dev/null || cp "$T/flags" "$1"
}

cmd_check() {
    out=$1
    mkdir -p "$(dirname "$out")" || exit 2
    if [ "$CHECK_SYSTEM" != 0 ]; then
        if links "" ""; then
            write_flags "$out" "" ""
            echo "check: using the system's Check"
            return 0
        fi
        if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists check 2>/dev/null; then
            pc=$(pkg-config --cflags check)
            pl=$(pkg-config --libs-only-L check libsubunit 2>/dev/null || pkg-config --libs-only-L check)
            if links "$pc" "$pl"; then
                write_flags "$out" "$pc" "$pl"
                echo "check: using the system's Check (pkg-config)"
                return 0
            fi
        fi
    fi
    if deps_flags && links "$DCFLAGS" "$DLDFLAGS"; then
        write_flags "$out" "$DCFLAGS" "$DLDFLAGS"
        echo "check: using the Debian packages unpacked in $DEPS"
        return 0
    fi
    have_apt || cannot
    echo "check: not installed; downloading Debian packages $CHECK_PKGS into $DEPS (no root needed)"
    fetch || cannot
    if deps_flags && links "$DCFLAGS" "$DLDFLAGS"; then
        write_flags "$out" "$DCFLAGS" "$DLDFLAGS"
        echo "check: unpacked Debian packages into $DEPS"
        return 0
    fi
    tail -n 5 "$T/cc.log" | sed 's/^/    /' >"$T/why"
    cannot
}

cmd_fetch() {
    echo "deps: downloading Debian packages $CHECK_PKGS into $DEPS"
    fetch || cannot
    if ! deps_flags || ! links "$DCFLAGS" "$DLDFLAGS"; then
        tail -n 5 "$T/cc.log" | sed 's/^/    /' >"$T/why"
        cannot
    fi
    sed -n '3,$s/^/    /p' "$DEPS/README"
    echo "deps: $DEPS is ready.  On a machine without network: copy the tree with $DEPS/"
    echo "      and run make test there; nothing is downloaded when $DEPS is present."
}

apt_install() { # apt_install PKGS...: as root; updates the lists only when they lack a package
    export DEBIAN_FRONTEND=noninteractive
    : >"$T/apt.log"
    for p in "$@"; do
        if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then
            # shellcheck disable=SC2086
            $TIMEOUT "$APT_GET" $APT_OPTS -qq update >>"$T/apt.log" 2>&1
            break
        fi
    done
    # shellcheck disable=SC2086
    $TIMEOUT "$APT_GET" $APT_OPTS -qq install -y --no-install-recommends "$@" >>"$T/apt.log" 2>&1
}

cmd_gnuplot() {
    command -v "$GNUPLOT" >/dev/null 2>&1 && return 0
    is_root && have_apt || return 0
    echo "plots: gnuplot not found; installing $PLOT_PKGS (apt-get, as root)"
    # shellcheck disable=SC2086  # a list of package names
    if apt_install $PLOT_PKGS && command -v "$GNUPLOT" >/dev/null 2>&1; then
        echo "plots: gnuplot installed"
        return 0
    fi
    echo "plots: could not install $PLOT_PKGS:"
    apt_why
    cat "$T/why"
    return 0
}

cmd_gnuplot_note() { # after rendering: how to get the plots, if they were not drawn
    command -v "$GNUPLOT" >/dev/null 2>&1 && return 0
    echo "plots: no gnuplot here, so the README tables were written but no PNGs were drawn."
    echo "       To draw them: apt-get install $PLOT_PKGS (as root) and make plots; or copy"
    echo "       plots/results/*.csv to a machine with gnuplot and run make plots there."
}

cmd_system() {
    if ! is_root; then
        echo "make deps-system installs $CHECK_PKGS $PLOT_PKGS with apt-get: run it as root" >&2
        echo "(make test alone needs no root: it unpacks Check into $DEPS)." >&2
        exit 2
    fi
    have_apt || { echo "make deps-system: no apt-get on this machine" >&2; exit 2; }
    echo "deps-system: apt-get install $CHECK_PKGS $PLOT_PKGS"
    # shellcheck disable=SC2086
    if ! apt_install $CHECK_PKGS $PLOT_PKGS; then
        tail -n 5 "$T/apt.log" >&2
        exit 2
    fi
    echo "deps-system: installed"
}

case ${1:-} in
check) [ $# -eq 2 ] || { echo "usage: $0 check FLAGS_FILE" >&2; exit 2; }; cmd_check "$2" ;;
fetch) cmd_fetch ;;
gnuplot) cmd_gnuplot ;;
gnuplot-note) cmd_gnuplot_note ;;
system) cmd_system ;;
wheel) [ $# -eq 4 ] || { echo "usage: $0 wheel PKG VERSION DIR" >&2; exit 2; }; cmd_wheel "$2" "$3" "$4" ;;
*)
    echo "usage: $0 check FLAGS_FILE | fetch | gnuplot | gnuplot-note | system | wheel PKG VER DIR" >&2
    exit 2
    ;;
esac
