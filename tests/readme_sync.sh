#!/bin/sh
# The README's first program is examples/quickstart.c, verbatim: the code in
# the docs is code that compiles (the example is built by meson).
readme=$1 example=$2
t=$(mktemp) || exit 99
trap 'rm -f "$t"' EXIT
awk '/^```c$/ && !done { on = 1; next } on && /^```$/ { on = 0; done = 1; next } on' "$readme" >"$t"
if cmp -s "$t" "$example"; then
  echo "ok 1 - README's first C block is examples/quickstart.c"
  echo "1..1"
else
  echo "not ok 1 - README's first C block differs from examples/quickstart.c"
  diff "$t" "$example" | sed 's/^/# /'
  echo "1..1"
  exit 1
fi
