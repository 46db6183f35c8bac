/* ab_oldversion.c — a module as a build against chronoscope 0.1.0 would
   export it: the descriptor's first three members say its version.  With
   -DAB_PLAIN_LIB: a shared library that is no module (no descriptor). */
#include <chronoscope.h>

static size_t table(const chrono_entry **t) { *t = NULL; return 0; }

#ifdef AB_PLAIN_LIB
size_t ab_plain_function(const chrono_entry **t);
size_t ab_plain_function(const chrono_entry **t) { return table(t); }
#else
CHRONO__MODULE_LINKAGE CHRONO__MODULE_EXPORT const chrono_module chrono_module_v1;
const chrono_module chrono_module_v1 = { CHRONO_MODULE_MAGIC, 100, "0.1.0", sizeof(chrono_entry), table };
#endif
