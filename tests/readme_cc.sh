#!/bin/sh
# Usage: readme_cc.sh SOURCE_ROOT
# README's plain-cc recipe (the ```sh block after the comment naming this
# script), run as a user types it: each line in turn, in a scratch folder whose
# include/, src/ and examples/ link SOURCE_ROOT's.  Checks that it compiles the
# implementation once, optimised and with -DNDEBUG, that the program it builds
# runs, and that its report says "optimised, assertions off" with no
# assertions warning.  Skips (77) without cc or ar.
root=$(cd "$1" && pwd) || exit 99
for tool in cc ar; do
  command -v $tool >/dev/null 2>&1 || { echo "1..0 # SKIP no $tool on PATH"; exit 77; }
done
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
awk '/<!-- tests\/readme_cc.sh runs the next block/ { want = 1; next }
     want && /^```sh$/ { on = 1; want = 0; next }
     on && /^```$/ { exit }
     on && !/^[[:space:]]*(#|$)/' "$root/README.md" >"$t/recipe"
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
finish() { echo "1..$n"; exit $fail; }

# The recipe's shape: the implementation compiled once, every cc line -O2 -DNDEBUG.
lines=$(wc -l <"$t/recipe")
impl=$(grep -c 'src/chronoscope\.c' "$t/recipe")
if [ "$lines" -gt 0 ] && [ "$impl" = 1 ]; then ok "the recipe ($lines commands) compiles src/chronoscope.c once"
else no "the recipe has $lines commands and compiles src/chronoscope.c $impl times (want 1)"; sed 's/^/# /' "$t/recipe"; finish; fi
bad=$(grep '^cc ' "$t/recipe" | grep -v -e '-O2 .*-DNDEBUG' | head -1)
ccs=$(grep -c '^cc ' "$t/recipe")
if [ "$ccs" -ge 2 ] && [ -z "$bad" ]; then ok "each of its $ccs cc lines has -O2 -DNDEBUG"
else no "cc lines: $ccs; without -O2 -DNDEBUG: ${bad:-none}"; fi

# Run it, line by line, as written.
mkdir "$t/w" && for d in include src examples; do ln -s "$root/$d" "$t/w/$d"; done
status=0
while IFS= read -r line; do
  echo "# + $line"
  (cd "$t/w" && sh -c "$line") >"$t/out" 2>&1 || { status=$?; break; }
done <"$t/recipe"
if [ $status = 0 ]; then ok "every command of the recipe succeeds"
else no "'$line' exits $status"; sed 's/^/# /' "$t/out" | tail -20; finish; fi

# The last command ran the program: its report describes an optimised build
# without assertions, and carries no warning about them.
if grep -q '^build .*optimised, assertions off' "$t/out" && ! grep -q 'NOT optimised' "$t/out"; then
  ok "the report's build line: $(grep '^build ' "$t/out" | sed 's/^build *//')"
else no "the report's build line is not 'optimised, assertions off'"; sed 's/^/# /' "$t/out" | head -20; fi
if grep -q -i 'warning.*assertion' "$t/out"; then no "the report warns about assertions"; grep -i 'warning' "$t/out" | sed 's/^/# /'
else ok "no assertions warning"; fi
if grep -q ' vs .*x \[' "$t/out"; then ok "the program printed its comparison"
else no "no comparison in the program's output"; sed 's/^/# /' "$t/out" | tail -20; fi
finish
