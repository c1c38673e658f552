# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by the XKCP peer scripts: XKCP's tree with its build system XKCBuild (a submodule)
# in DEST, from `git clone` of github.com/XKCP/XKCP and XKCP/XKCBuild or, where GitHub is out
# of reach, from local copies: XKCP_SRC and XKCBUILD_SRC name either a git directory (a clone
# or a mirror; its HEAD is taken) or a work tree. Nothing of it enters this tree.
#   xkcp_source NAME BUILD DEST [lib]   (NAME: the calling script, for its messages)
# With `lib`, XKCP's tree alone: for a script that compiles a few of its files itself and so
# needs neither XKCBuild nor make and xsltproc.

# export SRC DEST: a git directory's HEAD, a work tree's HEAD, or a plain folder, into DEST.
export_tree() {
    mkdir -p "$2"
    if [ -f "$1/HEAD" ] && [ -d "$1/objects" ]; then
        git --git-dir="$1" archive HEAD | tar x -C "$2"
    elif [ -e "$1/.git" ]; then
        git -C "$1" archive HEAD | tar x -C "$2"
    else
        cp -R "$1"/. "$2"
    fi
}

xkcp_source() {
    [ -f "$3/Makefile.build" ] &&
        { [ "${4:-}" = lib ] || [ -f "$3/support/XKCBuild/src/Main.makefile" ]; } && return 0
    rm -rf "$3"
    need="XKCP_SRC and XKCBUILD_SRC to local copies"
    [ "${4:-}" = lib ] && need="XKCP_SRC to a local copy"
    if [ -n "${XKCP_SRC:-}" ]; then
        export_tree "$XKCP_SRC" "$3"
    else
        git clone --quiet --depth 1 https://github.com/XKCP/XKCP "$2/clone" ||
            { echo "$1: cannot clone XKCP; set $need" >&2; exit 2; }
        export_tree "$2/clone" "$3"
    fi
    [ "${4:-}" = lib ] && return 0
    if [ ! -f "$3/support/XKCBuild/src/Main.makefile" ]; then
        rm -rf "$3/support/XKCBuild"
        if [ -n "${XKCBUILD_SRC:-}" ]; then
            export_tree "$XKCBUILD_SRC" "$3/support/XKCBuild"
        else
            git clone --quiet --depth 1 https://github.com/XKCP/XKCBuild "$2/xkcbuild" ||
                { echo "$1: cannot clone XKCBuild; set XKCBUILD_SRC" >&2; exit 2; }
            export_tree "$2/xkcbuild" "$3/support/XKCBuild"
        fi
    fi
}
