#!/bin/sh
# Usage: subproject.sh SOURCE_ROOT
# A parent meson project that uses chronoscope as a subproject builds only the
# library: no chronoscope test or example, unless -Dchronoscope:tests=true.
root=$(cd "$1" && pwd)
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/parent/subprojects"
ln -s "$root" "$t/parent/subprojects/chronoscope"
cat > "$t/parent/meson.build" <<'MESON'
project('parent', 'c')
exe = executable('app', 'app.c', dependencies: dependency('chronoscope'))
test('app', exe)
MESON
cat > "$t/parent/app.c" <<'SRC'
#include <stdio.h>
#include <chronoscope.h>
int main(void) { puts(chrono_strerror(CHRONO_OK)); return 0; }
SRC
n=0 fail=0
check() {   # check NAME MESON-ARGS...: configure, build, count chronoscope's tests
  name=$1; shift
  rm -rf "$t/b"
  if ! meson setup "$t/b" "$t/parent" "$@" >"$t/log" 2>&1 || ! meson compile -C "$t/b" >>"$t/log" 2>&1; then
    n=$((n + 1)); echo "not ok $n - $name: the parent does not build"; sed 's/^/# /' "$t/log" | tail -20; fail=1; return
  fi
  tests=$(meson introspect --tests "$t/b" | python3 -c 'import json,sys; print(len([x for x in json.load(sys.stdin) if x["name"] != "app"]))')
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
check "tests on" -Dchronoscope:tests=true -Dchronoscope:examples=false
read -r tests targets < "$t/result"
n=$((n + 1))
if [ "$tests" -gt 0 ]; then echo "ok $n - -Dchronoscope:tests=true turns the tests on ($tests tests)"
else echo "not ok $n - -Dchronoscope:tests=true gives no tests"; fail=1; fi
echo "1..$n"
exit $fail
