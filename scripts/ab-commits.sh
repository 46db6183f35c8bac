#!/bin/sh
# ab-commits.sh BASE HEAD MODULE_TARGET [chronoscope-ab flags...]
#
# MODULE_TARGET: the module's meson target name ("ab_suite", or "examples/ab_suite"
# when names repeat); a module that shares its name with a program is found as
# NAME:shared_module.
#
# Did HEAD make the code slower than BASE?  Builds the benchmark module
# MODULE_TARGET (a meson shared_module made with CHRONO_MODULE, program.h) at
# both commits, each in a git worktree of its own, and runs the gate on the two:
#
#     chronoscope-ab BASE-build/MODULE.so HEAD-build/MODULE.so [flags...]
#
# Exit status: chronoscope-ab's (1: an entry is slower, 0: none, 2: bad input),
# or 2 when a commit cannot be checked out or built.
# Environment:
#   AB_TOOL        the chronoscope-ab to run (default: chronoscope-ab on PATH,
#                  else the one the HEAD build makes: chronoscope's own
#                  tools/chronoscope-ab, or in a project that has chronoscope
#                  as a meson subproject the subproject's target, built on
#                  request; else one compiled here from this script's own
#                  chronoscope source with cc)
#   AB_MESON_ARGS  extra arguments to `meson setup` (default: --buildtype=release)
#   AB_WORKDIR     where the worktrees go (default: a temporary directory)
#   AB_KEEP=1      keep the worktrees and builds afterwards
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 BASE HEAD MODULE_TARGET [chronoscope-ab flags...]" >&2
    exit 2
fi
base=$1; head=$2; target=$3; shift 3
case $target in *:*) ;; *) target=$target:shared_module ;; esac   # meson compile's [PATH/]NAME[:TYPE]
repo=$(git rev-parse --show-toplevel) || { echo "$0: not inside a git repository" >&2; exit 2; }
work=${AB_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/ab-commits.XXXXXX")}
mkdir -p "$work" || exit 2

cleanup() {
    if [ "${AB_KEEP:-0}" != 1 ]; then
        for side in base head; do
            [ -d "$work/$side" ] && git -C "$repo" worktree remove --force "$work/$side" >/dev/null 2>&1
        done
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# build SIDE REV: the module (and at HEAD the tool, when the project has one) at REV.
build() {
    side=$1; rev=$2
    sha=$(git -C "$repo" rev-parse --verify -q "$rev^{commit}") || { echo "$0: '$rev' is not a commit" >&2; return 1; }
    git -C "$repo" worktree add --detach "$work/$side" "$sha" >/dev/null 2>&1 ||
        { echo "$0: cannot check out '$rev' into $work/$side" >&2; return 1; }
    if [ -f "$work/$side/.gitmodules" ]; then   # chronoscope as a git submodule: a worktree has it empty
        git -C "$work/$side" submodule update --init --recursive >>"$work/$side.log" 2>&1 ||
            { echo "$0: cannot check out the submodules of '$rev'; the log follows" >&2; tail -n 30 "$work/$side.log" >&2; return 1; }
    fi
    # shellcheck disable=SC2086
    meson setup "$work/$side/build" "$work/$side" ${AB_MESON_ARGS:---buildtype=release} >"$work/$side.log" 2>&1 &&
        meson compile -C "$work/$side/build" "$target" >>"$work/$side.log" 2>&1 ||
        { echo "$0: building '$target' at '$rev' failed; the log follows" >&2; tail -n 30 "$work/$side.log" >&2; return 1; }
    if [ "$side" = head ] && [ -z "${AB_TOOL:-}" ] && ! command -v chronoscope-ab >/dev/null 2>&1; then
        # chronoscope's own build, or a parent's with chronoscope as a subproject (built on request there)
        meson compile -C "$work/head/build" chronoscope-ab >>"$work/$side.log" 2>&1 || true
    fi
    return 0
}

# The tool HEAD's build made (chronoscope's own tools/, or a subproject's), if any.
built_tool() {
    find "$work/head/build" -type f -name chronoscope-ab -perm -u+x 2>/dev/null | head -n 1
}

# Else chronoscope-ab compiled from the source this script belongs to (its
# tools/ and src/ beside scripts/), with cc; the path, or nothing.
compiled_tool() {
    src=$(cd "$(dirname "$0")/.." 2>/dev/null && pwd) || return 0
    [ -f "$src/tools/chronoscope-ab.c" ] && [ -f "$src/src/chronoscope.c" ] || return 0
    ${CC:-cc} -O2 -std=c99 -I"$src/include" "$src/tools/chronoscope-ab.c" "$src/src/chronoscope.c" \
        -o "$work/chronoscope-ab" -ldl -lm -lpthread >>"$work/tool.log" 2>&1 && echo "$work/chronoscope-ab"
}

# The module's file in SIDE's build: the shared object meson made for the target.
module_of() {
    name=$(basename "${target%%:*}")
    found=$(find "$work/$1/build" -type f \( -name "$name.so" -o -name "$name.dylib" -o -name "lib$name.so" \) | head -n 1)
    [ -n "$found" ] || { echo "$0: no shared object for target '$target' in $work/$1/build" >&2; return 1; }
    echo "$found"
}

build base "$base" || exit 2
build head "$head" || exit 2
mb=$(module_of base) || exit 2
mh=$(module_of head) || exit 2
tool=${AB_TOOL:-}
if [ -z "$tool" ]; then
    if command -v chronoscope-ab >/dev/null 2>&1; then tool=chronoscope-ab
    else tool=$(built_tool); [ -n "$tool" ] || tool=$(compiled_tool)
    fi
    if [ -z "$tool" ]; then
        echo "$0: no chronoscope-ab: HEAD's build has none and it could not be compiled from $(dirname "$0")/.. (set AB_TOOL, or install chronoscope)" >&2
        [ -f "$work/tool.log" ] && tail -n 20 "$work/tool.log" >&2
        exit 2
    fi
fi
echo "ab-commits: base $base ($(git -C "$repo" rev-parse --short "$base")), head $head ($(git -C "$repo" rev-parse --short "$head")), module $target, tool $tool" >&2
"$tool" "$mb" "$mh" "$@"
