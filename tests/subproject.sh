#!/bin/sh
# Usage: subproject.sh SOURCE_ROOT
# A parent meson project that uses chronoscope as a subproject builds only the
# library: no chronoscope test or example, unless -Dchronoscope:tests=true.
# The parent's meson.build is README's ```meson block, verbatim: its program and
# the subproject's library are optimised, without assertions, as README says.
root=$(cd "$1" && pwd)
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/parent/subprojects"
ln -s "$root" "$t/parent/subprojects/chronoscope"
awk '/^```meson$/ && !done { on = 1; next } on && /^```$/ { on = 0; done = 1; next } on' \
  "$root/README.md" >"$t/parent/meson.build"
if ! grep -q "dependency('chronoscope')" "$t/parent/meson.build"; then
  echo "not ok 1 - README has no \`\`\`meson block with dependency('chronoscope')"; echo "1..1"; exit 1
fi
cat > "$t/parent/app.c" <<'SRC'
#include <stdio.h>
#include <chronoscope.h>
int main(void)
{
    chrono_env e;
    if (chrono_env_read(&e) < 0) return 1;
    printf("optimized=%d asserts=%d\n", e.optimized, e.asserts);
    return 0;
}
SRC
n=0 fail=0
check() {   # check NAME MESON-ARGS...: configure, build, count chronoscope's tests
  name=$1; shift
  rm -rf "$t/b"
  if ! meson setup "$t/b" "$t/parent" "$@" >"$t/log" 2>&1 || ! meson compile -C "$t/b" >>"$t/log" 2>&1; then
    n=$((n + 1)); echo "not ok $n - $name: the parent does not build"; sed 's/^/# /' "$t/log" | tail -20; fail=1; return
  fi
  tests=$(meson introspect --tests "$t/b" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
  targets=$(meson introspect --targets "$t/b" | python3 -c 'import json,sys; print(" ".join(sorted(x["name"] for x in json.load(sys.stdin))))')
  echo "$tests $targets" > "$t/result"
}
check "default"
read -r tests targets < "$t/result"
n=$((n + 1))
if [ "$tests" = 0 ] && [ "$targets" = "app chronoscope" ]; then
  echo "ok $n - as a subproject: only the library and the parent's program are built (targets: $targets)"
else
  echo "not ok $n - as a subproject: $tests chronoscope tests, targets: $targets"; fail=1
fi
# README's default_options: the program's own build facts, and the library's flags.
facts=$("$t/b/app" 2>&1)
n=$((n + 1))
if [ "$facts" = "optimized=1 asserts=0" ]; then echo "ok $n - README's meson.build: the program is optimised, without assertions ($facts)"
else echo "not ok $n - README's meson.build: the program reports '$facts' (want optimized=1 asserts=0)"; fail=1; fi
libflags=$(meson introspect --targets "$t/b" | python3 -c '
import json, sys
for x in json.load(sys.stdin):
    if x["name"] == "chronoscope":
        p = [a for s in x["target_sources"] for a in s.get("parameters", [])]
        print(" ".join(a for a in p if a.startswith("-O") or a == "-DNDEBUG"))')
n=$((n + 1))
if echo " $libflags " | grep -q -e ' -DNDEBUG ' && echo " $libflags " | grep -q -e ' -O[23] '; then
  echo "ok $n - the subproject's library compiles with $libflags"
else echo "not ok $n - the subproject's library compiles with '$libflags' (want -O2 or -O3, and -DNDEBUG)"; fail=1; fi
check "tests on" -Dchronoscope:tests=true -Dchronoscope:examples=false -Dbuildtype=debug   # debug: builds fast
read -r tests targets < "$t/result"
n=$((n + 1))
if [ "$tests" -gt 0 ]; then echo "ok $n - -Dchronoscope:tests=true turns the tests on ($tests tests)"
else echo "not ok $n - -Dchronoscope:tests=true gives no tests"; fail=1; fi
echo "1..$n"
exit $fail
