/* chronoscope/module.h — what chronoscope-ab needs: benchmark modules.

   A/B comparisons across builds (tools/chronoscope-ab): CHRONO_MODULE exports
   a program table from a shared object, so that two builds of it load into
   one process.  The rule that names a comparison of the two builds faster,
   slower, no clear difference or inconclusive (chrono_change_decide) is
   baseline.h's, shared with chronoscope-cmd and --compare.

   Usage (the module; the loader is tools/chronoscope-ab.c):

       static size_t suite(const chrono_entry **table) { ... *table = t; return n; }
       CHRONO_MODULE(suite)                       // chrono_module_v1, and main() unless CHRONO_MODULE_NO_MAIN

       // the loader, on the symbol it found:
       char why[160];
       if (chrono_module_check(m, why, sizeof why) < 0) ... why ...
       chrono_change_verdict v;
       chrono_change_decide(&cmp, 0.02, 0.95, &v);   // cmp: A the base, B the head
       printf("%s: %s\n", chrono_change_name(v.change), v.why);

   Functions:
     CHRONO_MODULE(fn)                          export a program table (and a main)
     chrono_module_check(m, why, n)             0 when m is a module this header can use
     (chrono_change_decide, chrono_change_name: baseline.h) */
#ifndef CHRONOSCOPE_MODULE_H
#define CHRONOSCOPE_MODULE_H

#include "program.h"

/* A benchmark module is a program table compiled as a shared object, so that
   tools/chronoscope-ab can load two builds of it (the base commit's and the
   change's) into one process and compare them entry by entry:

       static size_t suite(const chrono_entry **table)
       {
           static char buf[4096];
           static chrono_entry t[2];
           t[0] = chrono_bench("sum/4KiB", sum, buf);
           t[1] = chrono_bench("copy", copy, buf);
           *table = t;
           return 2;
       }
       CHRONO_MODULE(suite)

   CHRONO_MODULE(fn) exports one symbol, chrono_module_v1 (CHRONO_MODULE_SYMBOL):
   a chrono_module holding fn and the version of the header the module was
   built with, which a loader checks (chrono_module_check) before it calls fn.
   Unless CHRONO_MODULE_NO_MAIN is defined it also defines main(), which runs
   the table with chrono_main: the same file builds as an ordinary program.
   With meson (the module carries its own copy of the library, linked in):

       shared_module('suite', 'suite.c', dependencies: chronoscope_dep, name_prefix: '')   # suite.so
       executable('suite', 'suite.c', dependencies: chronoscope_dep)                       # the program

   The symbol's name carries the layout of chrono_module ("v1"); its first
   three members (magic, version, version_string) keep their place in every
   later layout, so that a module of another header version is recognised and
   named, not misread. */
#define CHRONO_MODULE_SYMBOL "chrono_module_v1"
#define CHRONO_MODULE_MAGIC 0x43684d31ul   /* "ChM1" */

typedef size_t (*chrono_module_fn)(const chrono_entry **table);

typedef struct chrono_module {
    unsigned long magic;          /* CHRONO_MODULE_MAGIC */
    unsigned long version;        /* CHRONO_VERSION_NUM of the header it was built with */
    const char *version_string;   /* its CHRONO_VERSION_STRING */
    unsigned long entry_size;     /* sizeof(chrono_entry) there */
    chrono_module_fn table;       /* the program table: *table = its entries, returns how many */
} chrono_module;

#if defined(_WIN32)
#  define CHRONO__MODULE_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#  define CHRONO__MODULE_EXPORT __attribute__((visibility("default")))
#else
#  define CHRONO__MODULE_EXPORT
#endif
#ifdef __cplusplus
#  define CHRONO__MODULE_LINKAGE extern "C"
#else
#  define CHRONO__MODULE_LINKAGE
#endif

#ifdef CHRONO_MODULE_NO_MAIN
#  define CHRONO__MODULE_MAIN(fn)
#else
#  define CHRONO__MODULE_MAIN(fn)                                                  \
    int main(int argc, char **argv)                                                \
    {                                                                              \
        const chrono_entry *chrono__table = NULL;                                  \
        size_t chrono__nentries = fn(&chrono__table);                              \
        return chrono_main(argc, argv, chrono__table, chrono__nentries);           \
    }
#endif

#define CHRONO_MODULE(fn)                                                          \
    CHRONO__MODULE_LINKAGE CHRONO__MODULE_EXPORT const chrono_module chrono_module_v1; \
    CHRONO__MODULE_LINKAGE CHRONO__MODULE_EXPORT const chrono_module chrono_module_v1 = { \
        CHRONO_MODULE_MAGIC, CHRONO_VERSION_NUM, CHRONO_VERSION_STRING,            \
        (unsigned long)sizeof(chrono_entry), fn };                                 \
    CHRONO__MODULE_MAIN(fn)

CHRONO__EXTERN_C_BEGIN
/* 0 when m is a module this header can use; else CHRONO_EVERSION (built with
   another header version: why names both versions) or CHRONO_EINVAL (not a
   module descriptor).  why may be NULL. */
CHRONO_API int chrono_module_check(const chrono_module *m, char *why, size_t n);

CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_MODULE_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_MODULE_IMPL)
#define CHRONOSCOPE_MODULE_IMPL

CHRONO__EXTERN_C_BEGIN

CHRONO_API int chrono_module_check(const chrono_module *m, char *why, size_t n)
{
    char tmp[8];
    if (!why || !n) { why = tmp; n = sizeof tmp; }
    why[0] = '\0';
    if (!m || m->magic != CHRONO_MODULE_MAGIC) {
        (void)chrono__bprintf(why, n, "its %s symbol is not a chronoscope module descriptor",
                              CHRONO_MODULE_SYMBOL);
        return CHRONO_EINVAL;
    }
    if (m->version != (unsigned long)CHRONO_VERSION_NUM) {
        char theirs[24];
        chrono__str_copy(theirs, sizeof theirs, m->version_string ? m->version_string : "?");
        (void)chrono__bprintf(
            why, n,
            "built with chronoscope %s (version %lu), this program with %s (%lu): rebuild it",
            theirs, m->version, CHRONO_VERSION_STRING, (unsigned long)CHRONO_VERSION_NUM);
        return CHRONO_EVERSION;
    }
    if (m->entry_size != (unsigned long)sizeof(chrono_entry) || !m->table) {
        (void)chrono__bprintf(why, n,
                              "its program table's layout differs (entries of %lu bytes, here %lu)",
                              m->entry_size, (unsigned long)sizeof(chrono_entry));
        return CHRONO_EVERSION;
    }
    return 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_MODULE_IMPL */
