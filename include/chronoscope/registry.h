/* chronoscope/registry.h — registration without a table (CHRONO_BENCHMARK, CHRONO_MAIN).

   For users who prefer Google Benchmark's style; the table and chrono_main stay
   the first choice (one place that lists what runs, nothing before main).

       static void sum(void *ctx, uint64_t iters) { ... }
       CHRONO_BENCHMARK("sum", sum, NULL);                               // at file scope
       CHRONO_BENCHMARK_ENTRY(chrono_with_bytes(chrono_bench("copy", copy, buf), 4096));
       CHRONO_MAIN()                                                     // defines main

   Each line defines a static node and a function that the C runtime calls
   before main (gcc and clang: __attribute__((constructor)), mingw included;
   MSVC: a pointer in the .CRT$XCU section); that function fills the node's
   entry and links the node into the registry.  CHRONO_MAIN() defines main,
   which copies the registered entries into a table, in source order (file
   name, then line), and runs it with chrono_main: every flag and format
   works the same.  At most one registration per source line.
   The registry (one pointer to the first node) is the library's one piece of
   global mutable state, the exception to the rule, made necessary by
   registration itself: nothing is allocated to register, and it is written
   only before main, by those functions.  Under CHRONO_STATIC each translation
   unit has its own registry: register in the file that holds CHRONO_MAIN().

   Functions:
     CHRONO_BENCHMARK(name, fn, ctx)        register a run (chrono_bench) at file scope
     CHRONO_BENCHMARK_ENTRY(entry)          register any entry expression
     CHRONO_MAIN()                          define main over the registered entries
     chrono_register(node)                  what those lines call before main
     chrono_registered_entries(out, cap)    the registered entries, in source order
     chrono_main_registered(argc, argv)     chrono_main over them (a macro) */
#ifndef CHRONOSCOPE_REGISTRY_H
#define CHRONOSCOPE_REGISTRY_H

#include "program.h"

typedef struct chrono_registered {
    chrono_entry entry;
    const char *file;
    int line;
    struct chrono_registered *chrono__next;
} chrono_registered;

CHRONO__EXTERN_C_BEGIN
/* Link a node (static storage, entry filled) into the registry, in source order. */
CHRONO_API void chrono_register(chrono_registered *node);
/* The registered entries, in source order, into out[0..cap); the count of all of them. */
CHRONO_API size_t chrono_registered_entries(chrono_entry *out, size_t cap);
/* chrono_main over the registered entries (CHRONO_MAIN's body): 0, 1 or 2. */
CHRONO_API int chrono_main_registered_at(int argc, char **argv, unsigned long caller);
#define chrono_main_registered(argc, argv) chrono_main_registered_at((argc), (argv), CHRONO__CALLER)
CHRONO__EXTERN_C_END

#define CHRONO__CAT2(a, b) a##b
#define CHRONO__CAT(a, b) CHRONO__CAT2(a, b)
#define CHRONO__REG_ID(what) CHRONO__CAT(CHRONO__CAT(chrono__reg_, what), __LINE__)
#if defined(__GNUC__) || defined(__clang__)
#  define CHRONO__REG_CONSTRUCTOR(fn) static void fn(void) __attribute__((constructor));
#elif defined(_MSC_VER)
#  pragma section(".CRT$XCU", read)
#  define CHRONO__REG_CONSTRUCTOR(fn)                                                    \
      static void __cdecl fn(void);                                                      \
      __declspec(allocate(".CRT$XCU")) void(__cdecl * CHRONO__CAT(fn, _ptr))(void) = fn; \
      __pragma(comment(linker, "/include:" CHRONO__REG_SYM(fn)))
#  if defined(_M_IX86)
#    define CHRONO__REG_SYM(fn) "_" #fn "_ptr"
#  else
#    define CHRONO__REG_SYM(fn) #fn "_ptr"
#  endif
#else
#  define CHRONO__REG_CONSTRUCTOR(fn) \
      typedef char chrono__registration_needs_gcc_clang_or_msvc__use_a_table_and_chrono_main[-1];
#endif

/* Register any entry expression (chrono_bench, chrono_versus, a sweep, with modifiers). */
#define CHRONO_BENCHMARK_ENTRY(expr)                \
    static chrono_registered CHRONO__REG_ID(node_); \
    CHRONO__REG_CONSTRUCTOR(CHRONO__REG_ID(ctor_))  \
    static void CHRONO__REG_ID(ctor_)(void)         \
    {                                               \
        CHRONO__REG_ID(node_).entry = (expr);       \
        CHRONO__REG_ID(node_).file = __FILE__;      \
        CHRONO__REG_ID(node_).line = __LINE__;      \
        chrono_register(&CHRONO__REG_ID(node_));    \
    }                                               \
    typedef int CHRONO__REG_ID(semicolon_)
#define CHRONO_BENCHMARK(name, fn, ctx) CHRONO_BENCHMARK_ENTRY(chrono_bench((name), (fn), (ctx)))
#define CHRONO_MAIN() \
    int main(int argc, char **argv) { return chrono_main_registered(argc, argv); }

#endif /* CHRONOSCOPE_REGISTRY_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_REGISTRY_IMPL)
#define CHRONOSCOPE_REGISTRY_IMPL

CHRONO__EXTERN_C_BEGIN

/* The registry: the library's one global mutable state (see chrono_registered),
   written only by the registering functions the C runtime runs before main. */
static chrono_registered *chrono__registry;

/* -1, 0, 1: a's place in source order against b's (file name, then line). */
CHRONO__PRIVATE int chrono__registered_order(const chrono_registered *a, const chrono_registered *b)
{
    int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
    if (c) return c < 0 ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

CHRONO_API void chrono_register(chrono_registered *node)
{
    chrono_registered **at = &chrono__registry;
    if (!node) return;
    for (; *at; at = &(*at)->chrono__next)
        if (*at == node) return;   /* registered already */
    for (at = &chrono__registry; *at && chrono__registered_order(*at, node) <= 0;
         at = &(*at)->chrono__next) {}
    node->chrono__next = *at;
    *at = node;
}

CHRONO_API size_t chrono_registered_entries(chrono_entry *out, size_t cap)
{
    const chrono_registered *r;
    size_t n = 0;
    for (r = chrono__registry; r; r = r->chrono__next, n++)
        if (out && n < cap) out[n] = r->entry;
    return n;
}

CHRONO_API int chrono_main_registered_at(int argc, char **argv, unsigned long caller)
{
    size_t n = chrono_registered_entries(NULL, 0);
    chrono_entry *table = (chrono_entry *)CHRONO_MALLOC((n ? n : 1) * sizeof *table);
    int rc;
    if (!table) {
        fprintf(stderr, "%s: out of memory for the table of %zu registered benchmarks\n",
                argc > 0 && argv && argv[0] ? argv[0] : "chronoscope", n);
        return 1;
    }
    (void)chrono_registered_entries(table, n);
    rc = chrono_main_at(argc, argv, table, n, caller);
    CHRONO_FREE(table);
    return rc;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_REGISTRY_IMPL */
