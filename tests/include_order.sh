#!/bin/sh
# Usage: include_order.sh INCLUDE_DIR CC [CC ARGS...]
# chronoscope.h first in a strict C99 TU compiles; after <stdio.h> it stops
# with an #error naming _GNU_SOURCE; with -D_GNU_SOURCE it compiles again.
inc=$1; shift
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
printf '#include <chronoscope.h>\nint main(void){return 0;}\n' >"$t/first.c"
printf '#include <stdio.h>\n#include <chronoscope.h>\nint main(void){return 0;}\n' >"$t/after.c"
fail=0
if "$@" -std=c99 -pedantic -Werror -I"$inc" -c "$t/first.c" -o "$t/first.o" 2>"$t/log"; then
  echo "ok 1 - first in a strict C99 TU: compiles"
else
  echo "not ok 1 - first in a strict C99 TU does not compile"; sed 's/^/# /' "$t/log"; fail=1
fi
if "$@" -std=c99 -I"$inc" -c "$t/after.c" -o "$t/after.o" 2>"$t/log"; then
  echo "not ok 2 - after <stdio.h> under -std=c99 it compiled without _GNU_SOURCE"; fail=1
elif grep -q '_GNU_SOURCE' "$t/log"; then
  echo "ok 2 - after <stdio.h>: #error names _GNU_SOURCE"
else
  echo "not ok 2 - after <stdio.h>: error does not name _GNU_SOURCE"; sed 's/^/# /' "$t/log"; fail=1
fi
if "$@" -std=c99 -pedantic -Werror -D_GNU_SOURCE -I"$inc" -c "$t/after.c" -o "$t/after.o" 2>"$t/log"; then
  echo "ok 3 - after <stdio.h> with -D_GNU_SOURCE: compiles"
else
  echo "not ok 3 - with -D_GNU_SOURCE it still fails"; sed 's/^/# /' "$t/log"; fail=1
fi
echo "1..3"
exit $fail
