/* callconv — "__stdcall and regparm" (cygwin-developers, 20 Aug 2002) today.

   In 2002 the calling convention of Cygwin's fhandler::read was varied eight
   ways and a program that copies 16 MB from /dev/zero to /dev/null one byte
   at a time was timed: 37.354 s (regparm(2)) to 39.409 s (stdcall +
   regparm(3)), ~1/8 µs per byte; forwarding read to readv cost ~1/2 µs.

     Part 2  the conventions without the kernel: a tight loop of calls with
             1, 2 and 3 arguments, and a caller keeping values live, each
             against the plain convention (sysv on x86-64, cdecl on i386);
     Part 1  the replica: read one byte from /dev/zero and write it to
             /dev/null through each kind of shim, against libc, in 6 fresh
             processes (N with --processes=N), pooled: a difference is
             "resolved" only when every process saw its sign and the pooled
             interval, at the confidence asked, excludes 0; the 16 MiB copy (--bytes)
             projected from the MEAN cost per byte, and with --literal
             really copied and timed;
     Part 3  then vs now: the post's eight rows beside today's closest
             x86-64 counterpart, in µs and cycles (--seed-mhz for the
             Pentium III's), with the ratios; the spread between the shims
             from their paired differences against libc, with its interval.

   Everything measured goes through chrono_run / chrono_compare, everything
   printed through the report (the tables are table.h's chrono_table_builder). */
#define _GNU_SOURCE
#include <chronoscope.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>

#if defined(__GNUC__) || defined(__clang__)
#  define CC_GNU 1                /* GNU C: attributes, inline asm */
#else
#  define CC_GNU 0
#endif
#define CC_LINUX (CHRONO_OS_LINUX && CC_GNU)
#define CC_X64 (CHRONO_ARCH_X86_64 && !CHRONO_OS_WINDOWS && CC_GNU)
#define CC_I386 (CHRONO_ARCH_I386 && CC_GNU)
#if CC_LINUX
#  include <fcntl.h>
#  include <unistd.h>
#  include <sys/uio.h>
#  include <sys/syscall.h>
#endif
/* No inlining, no cloning, no constant propagation into the callee: the call
   stays a real call with the convention written on it.
   Every callee and every loop starts on a 64-byte boundary, so that no
   variant wins or loses by where the linker happened to put its code (a
   call/ret pair that straddles a fetch block costs a cycle on some cores). */
#if defined(__clang__)
#  define CC_NOINL __attribute__((noinline, aligned(64)))
#  define CC_ALIGN __attribute__((aligned(64), unused))   /* unused: not every form has a row on every compiler */
#elif defined(__GNUC__)
#  define CC_NOINL __attribute__((noipa, aligned(64)))
#  define CC_ALIGN __attribute__((aligned(64), unused))   /* unused: not every form has a row on every compiler */
#else
#  define CC_NOINL
#  define CC_ALIGN
#endif

/* ---- the "DLL" (callconv_lib.c, a shared library: calls go through the PLT) ---- */
unsigned cc_lib_add1(unsigned a);
unsigned cc_lib_add2(unsigned a, unsigned b);
unsigned cc_lib_add3(unsigned a, unsigned b, unsigned c);
long cc_lib_read(int fd, void *buf, unsigned long n);
long cc_lib_write(int fd, const void *buf, unsigned long n);

/* ==== Part 2: calls without the kernel ==================================== */
/* One convention: leaf functions of 1, 2 and 3 arguments and the loops that
   call them, each call depending on the previous result. */
#define CC_CONV(tag, attr)                                                                              \
    CC_NOINL unsigned attr cc_##tag##_1(unsigned a);                                                    \
    CC_NOINL unsigned attr cc_##tag##_2(unsigned a, unsigned b);                                        \
    CC_NOINL unsigned attr cc_##tag##_3(unsigned a, unsigned b, unsigned c);                            \
    CC_NOINL unsigned attr cc_##tag##_1(unsigned a) { return a + 1u; }                                  \
    CC_NOINL unsigned attr cc_##tag##_2(unsigned a, unsigned b) { return a + b; }                       \
    CC_NOINL unsigned attr cc_##tag##_3(unsigned a, unsigned b, unsigned c) { return a + b + c; }       \
    CC_ALIGN static void loop_##tag##_1(void *ctx, uint64_t n) { CC_LOOP(cc_##tag##_1(a)) }                      \
    CC_ALIGN static void loop_##tag##_2(void *ctx, uint64_t n) { CC_LOOP(cc_##tag##_2(a, b)) }                   \
    CC_ALIGN static void loop_##tag##_3(void *ctx, uint64_t n) { CC_LOOP(cc_##tag##_3(a, b, c)) }                \
    CC_ALIGN static void live_##tag(void *ctx, uint64_t n) { CC_LIVE(cc_##tag##_3(a, v0, v1)) }
#define CC_LOOP(call)                                                    \
    unsigned a = 1u, b = 2u, c = 3u;                                     \
    uint64_t i;                                                          \
    (void)ctx;                                                           \
    chrono_keep(b); chrono_keep(c);                                      \
    for (i = 0; i < n; i++) { a = call; chrono_keep(a); }                \
    chrono_keep(a);
/* The post's guess: a convention that takes registers for arguments leaves
   fewer to a caller that keeps several values live across the call. */
#define CC_LIVE(call)                                                                    \
    unsigned a = 1u, v0 = 2u, v1 = 3u, v2 = 4u, v3 = 5u, v4 = 6u, v5 = 7u;               \
    uint64_t i;                                                                          \
    (void)ctx;                                                                           \
    for (i = 0; i < n; i++) {                                                            \
        a = call;                                                                        \
        v0 += a; v1 ^= v0; v2 += v1; v3 ^= v2; v4 += v3; v5 ^= v4; a += v5;              \
    }                                                                                    \
    chrono_keep(a); chrono_keep(v0); chrono_keep(v1); chrono_keep(v2);                   \
    chrono_keep(v3); chrono_keep(v4); chrono_keep(v5);

/* Only the conventions the compiler honours on this target: gcc and clang
   ignore regparm on x86-64, so no such row exists there. */
CC_CONV(native, )                                       /* sysv on x86-64, cdecl on i386 */
#if CC_X64
CC_CONV(ms_abi, __attribute__((ms_abi)))
#  if defined(__clang__)
CC_CONV(regcall, __attribute__((regcall)))
CC_CONV(vectorcall, __attribute__((vectorcall)))
#  endif
#endif
#if CC_I386
CC_CONV(regparm1, __attribute__((regparm(1))))
CC_CONV(regparm2, __attribute__((regparm(2))))
CC_CONV(regparm3, __attribute__((regparm(3))))
CC_CONV(stdcall, __attribute__((stdcall)))
CC_CONV(fastcall, __attribute__((fastcall)))
CC_CONV(stdcall_regparm3, __attribute__((stdcall, regparm(3))))
#  if defined(__clang__)                                /* gcc honours thiscall on C++ methods only */
CC_CONV(thiscall, __attribute__((thiscall)))
#  endif
#endif

/* A wrapper that calls the plain leaf: sysv→sysv, and (x86-64) ms_abi→sysv,
   which must save xmm6-15, rsi and rdi around the call, as Cygwin's DLL does. */
CC_NOINL unsigned cc_native_calls_native(unsigned a, unsigned b, unsigned c);
CC_NOINL unsigned cc_native_calls_native(unsigned a, unsigned b, unsigned c) { return cc_native_3(a, b, c) + 1u; }
CC_ALIGN static void loop_native_calls_native(void *ctx, uint64_t n) { CC_LOOP(cc_native_calls_native(a, b, c)) }
#if CC_X64
CC_NOINL unsigned __attribute__((ms_abi)) cc_ms_calls_native(unsigned a, unsigned b, unsigned c);
CC_NOINL unsigned __attribute__((ms_abi)) cc_ms_calls_native(unsigned a, unsigned b, unsigned c)
{
    return cc_native_3(a, b, c) + 1u;
}
CC_ALIGN static void loop_ms_calls_native(void *ctx, uint64_t n) { CC_LOOP(cc_ms_calls_native(a, b, c)) }
#endif

/* The same leaf through a function pointer (a virtual method), through the
   PLT (the DLL) and inlined. */
CC_ALIGN static void loop_pointer_3(void *ctx, uint64_t n)
{
    unsigned (*f)(unsigned, unsigned, unsigned) = cc_native_3;
    chrono_keep(f);
    { CC_LOOP(f(a, b, c)) }
}
CC_ALIGN static void loop_plt_1(void *ctx, uint64_t n) { CC_LOOP(cc_lib_add1(a)) }
CC_ALIGN static void loop_plt_2(void *ctx, uint64_t n) { CC_LOOP(cc_lib_add2(a, b)) }
CC_ALIGN static void loop_plt_3(void *ctx, uint64_t n) { CC_LOOP(cc_lib_add3(a, b, c)) }
static inline unsigned cc_inline_3(unsigned a, unsigned b, unsigned c) { return a + b + c; }
CC_ALIGN static void loop_inline_3(void *ctx, uint64_t n) { CC_LOOP(cc_inline_3(a, b, c)) }

#if CC_X64
#  define CC_NATIVE "sysv"
#elif CC_I386
#  define CC_NATIVE "cdecl"
#else
#  define CC_NATIVE "native"
#endif

typedef struct cc_entry {
    const char *name;            /* the variant, compared against base */
    chrono_fn fn;
    const char *base_name;
    chrono_fn base;
} cc_entry;

static const cc_entry part2[] = {
    { "p2/plt/1", loop_plt_1, "p2/" CC_NATIVE "/1", loop_native_1 },
    { "p2/plt/2", loop_plt_2, "p2/" CC_NATIVE "/2", loop_native_2 },
    { "p2/plt/3", loop_plt_3, "p2/" CC_NATIVE "/3", loop_native_3 },
    { "p2/pointer/3", loop_pointer_3, "p2/" CC_NATIVE "/3", loop_native_3 },
    { "p2/inline/3", loop_inline_3, "p2/" CC_NATIVE "/3", loop_native_3 },
#if CC_X64
    { "p2/ms_abi/1", loop_ms_abi_1, "p2/sysv/1", loop_native_1 },
    { "p2/ms_abi/2", loop_ms_abi_2, "p2/sysv/2", loop_native_2 },
    { "p2/ms_abi/3", loop_ms_abi_3, "p2/sysv/3", loop_native_3 },
    { "p2/ms_abi_calls_sysv/3", loop_ms_calls_native, "p2/sysv/3", loop_native_3 },   /* the bar */
    { "p2/ms_abi_calls_sysv/3-vs-wrapper", loop_ms_calls_native, "p2/sysv_calls_sysv/3", loop_native_calls_native },
    { "p2/live6/ms_abi", live_ms_abi, "p2/live6/sysv", live_native },
#  if defined(__clang__)
    { "p2/regcall/3", loop_regcall_3, "p2/sysv/3", loop_native_3 },
    { "p2/vectorcall/3", loop_vectorcall_3, "p2/sysv/3", loop_native_3 },
    { "p2/live6/regcall", live_regcall, "p2/live6/sysv", live_native },
#  endif
#endif
#if CC_I386
#  define CC_I386_ROWS(tag)                                               \
    { "p2/" #tag "/1", loop_##tag##_1, "p2/cdecl/1", loop_native_1 },     \
    { "p2/" #tag "/2", loop_##tag##_2, "p2/cdecl/2", loop_native_2 },     \
    { "p2/" #tag "/3", loop_##tag##_3, "p2/cdecl/3", loop_native_3 },     \
    { "p2/live6/" #tag, live_##tag, "p2/live6/cdecl", live_native },
    CC_I386_ROWS(regparm1) CC_I386_ROWS(regparm2) CC_I386_ROWS(regparm3) CC_I386_ROWS(stdcall)
    CC_I386_ROWS(fastcall) CC_I386_ROWS(stdcall_regparm3)
#  if defined(__clang__)
    CC_I386_ROWS(thiscall)
#  endif
#endif
};
#define CC_NPART2 (sizeof part2 / sizeof part2[0])

/* ==== Part 1: the replica, one byte from /dev/zero to /dev/null ============ */
typedef struct cc_fh {
    int zero, null;              /* the two descriptors */
    int failed;                  /* a read or write did not move one byte */
} cc_fh;

#if CC_LINUX
CC_NOINL long cc_read_sysv(cc_fh *h, void *buf, unsigned long n);
CC_NOINL long cc_write_sysv(cc_fh *h, const void *buf, unsigned long n);
CC_NOINL long cc_read_sysv(cc_fh *h, void *buf, unsigned long n) { return (long)read(h->zero, buf, n); }
CC_NOINL long cc_write_sysv(cc_fh *h, const void *buf, unsigned long n) { return (long)write(h->null, buf, n); }
/* read forwarded to readv (and write to writev), as in the post's new DLL */
CC_NOINL long cc_read_readv(cc_fh *h, void *buf, unsigned long n);
CC_NOINL long cc_write_writev(cc_fh *h, const void *buf, unsigned long n);
CC_NOINL long cc_read_readv(cc_fh *h, void *buf, unsigned long n)
{
    struct iovec v;
    v.iov_base = buf;
    v.iov_len = n;
    return (long)readv(h->zero, &v, 1);
}
CC_NOINL long cc_write_writev(cc_fh *h, const void *buf, unsigned long n)
{
    struct iovec v;
    v.iov_base = (void *)(uintptr_t)buf;
    v.iov_len = n;
    return (long)writev(h->null, &v, 1);
}
#  if CC_X64
CC_NOINL long __attribute__((ms_abi)) cc_read_ms(cc_fh *h, void *buf, unsigned long n);
CC_NOINL long __attribute__((ms_abi)) cc_write_ms(cc_fh *h, const void *buf, unsigned long n);
CC_NOINL long __attribute__((ms_abi)) cc_read_ms(cc_fh *h, void *buf, unsigned long n) { return (long)read(h->zero, buf, n); }
CC_NOINL long __attribute__((ms_abi)) cc_write_ms(cc_fh *h, const void *buf, unsigned long n)
{
    return (long)write(h->null, buf, n);
}
/* The raw system call instruction: no libc at all. */
static inline long cc_syscall3(long nr, long a, long b, long c)
{
    long ret;
    __asm__ __volatile__("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}
#  endif
/* The virtual methods of an fhandler */
typedef struct cc_ops {
    long (*read)(cc_fh *, void *, unsigned long);
    long (*write)(cc_fh *, const void *, unsigned long);
} cc_ops;
static const cc_ops cc_sysv_ops = { cc_read_sysv, cc_write_sysv };

/* One iteration: one byte read, the same byte written. */
#  define CC_COPY(RD, WR)                                                       \
    cc_fh *h = (cc_fh *)ctx;                                                    \
    unsigned char byte = 1;                                                     \
    uint64_t i;                                                                 \
    for (i = 0; i < n; i++) {                                                   \
        if ((RD) != 1) h->failed = 1;                                           \
        if ((WR) != 1) h->failed = 1;                                           \
    }
static void copy_libc(void *ctx, uint64_t n) { CC_COPY(read(h->zero, &byte, 1), write(h->null, &byte, 1)) }
static void copy_sysv(void *ctx, uint64_t n) { CC_COPY(cc_read_sysv(h, &byte, 1), cc_write_sysv(h, &byte, 1)) }
static void copy_pointer(void *ctx, uint64_t n)
{
    const cc_ops *ops = &cc_sysv_ops;
    chrono_keep(ops);
    { CC_COPY(ops->read(h, &byte, 1), ops->write(h, &byte, 1)) }
}
static void copy_plt(void *ctx, uint64_t n) { CC_COPY(cc_lib_read(h->zero, &byte, 1), cc_lib_write(h->null, &byte, 1)) }
static void copy_readv(void *ctx, uint64_t n) { CC_COPY(cc_read_readv(h, &byte, 1), cc_write_writev(h, &byte, 1)) }
#  if CC_X64
static void copy_ms_abi(void *ctx, uint64_t n) { CC_COPY(cc_read_ms(h, &byte, 1), cc_write_ms(h, &byte, 1)) }
static void copy_syscall(void *ctx, uint64_t n)
{
    CC_COPY(cc_syscall3(SYS_read, h->zero, (long)(uintptr_t)&byte, 1),
            cc_syscall3(SYS_write, h->null, (long)(uintptr_t)&byte, 1))
}
#  endif

typedef struct cc_copy_entry { const char *name; chrono_fn fn; } cc_copy_entry;
static const cc_copy_entry part1[] = {
    { "p1/sysv_shim", copy_sysv },
#  if CC_X64
    { "p1/ms_abi_shim", copy_ms_abi },
#  endif
    { "p1/pointer", copy_pointer },
    { "p1/plt", copy_plt },
    { "p1/readv", copy_readv },
#  if CC_X64
    { "p1/syscall_insn", copy_syscall },
#  endif
};
#  define CC_NPART1 (sizeof part1 / sizeof part1[0])
#else
#  define CC_NPART1 0
#endif

/* ==== the program ============================================================= */
static const char *const p2_cols[] = { "variant", "against", "ns_variant", "ns_against", "delta_ns", "delta_ci_low",
                                       "delta_ci_high", "verdict" };
static const char *const p1_cols[] = { "variant", "projected_s_mean", "proj_ci_low_s", "proj_ci_high_s",
                                       "ns_per_byte_mean", "ns_per_byte_median", "delta_ns_vs_libc", "delta_ci_low",
                                       "delta_ci_high", "verdict", "processes", "delta_lowest_process",
                                       "delta_highest_process", "literal_s", "projected_beside_s",
                                       "literal_vs_beside", "literal_switches" };
static const char *const env_cols[] = { "note" };

typedef struct cc_p1 {           /* one Part 1 row, to sort fastest first */
    const char *name;
    chrono_result r;
    chrono_comparison c;         /* against libc; unused for libc itself */
    int is_base;
    chrono_literal lit;          /* --literal: the copy and the projection measured beside it */
    int have_lit;
} cc_p1;

/* Everything one run of the program holds: its flags, the entries, Part 1's
   rows and the tables (the report keeps views of them until it is written). */
typedef struct cc_prog {
    chrono_program p;
    int bytes, literal, nproc;
    double seed_mhz;
#if CC_LINUX
    cc_fh h;
#endif
    chrono_entry entries[CC_NPART2 + 8];
    size_t n, n2;                /* entries: Part 2 is [0, n2), Part 1 [n2, n) */
    cc_p1 p1[9];
    size_t np1;
    chrono_table_builder notes, p2tab, p1tab;
    chrono_then_now tn;
    int have_tn;
} cc_prog;

static int cc_p1_cmp(const void *x, const void *y)
{
    double a = ((const cc_p1 *)x)->r.ns.median, b = ((const cc_p1 *)y)->r.ns.median;
    return (a > b) - (a < b);
}

/* Δ cells (ns, CI low, CI high, verdict) from a comparison, its verdict at the confidence asked. */
static void cc_delta_cells(chrono_table_builder *tb, const chrono_comparison *c, double confidence)
{
    chrono_delta d;
    int ok = chrono_delta_from(c, &d) == 0;
    chrono_table_number(tb, ok ? d.diff_ns : NAN, "%+.2f", NULL);
    chrono_table_number(tb, ok ? d.ci_low_ns : NAN, "%+.2f", NULL);
    chrono_table_number(tb, ok ? d.ci_high_ns : NAN, "%+.2f", NULL);
    chrono_table_text(tb, ok ? chrono_delta_verdict(&d, confidence) : "n/a");
}

/* The entries: Part 2 (no kernel), then Part 1 (the replica) in fresh processes. */
static void cc_entries(cc_prog *st)
{
    chrono_program *p = &st->p;
    size_t i;
    for (i = 0; i < CC_NPART2; i++)
        st->entries[st->n++] = chrono_versus(part2[i].name, part2[i].fn, NULL, part2[i].base_name, part2[i].base, NULL);
    st->n2 = st->n;
    /* Part 1 in fresh processes: one process's difference does not repeat in the next (code and
       data land elsewhere, the host's phase changes), so a verdict must hold across several */
    st->nproc = p->cli.processes > 1 ? p->cli.processes : 6;   /* 6: the fewest whose lowest to highest is a 95% interval */
    /* under an emulator the timings are its own, and a fresh process may not even start (qemu-user
       cannot re-execute a program the kernel does not run): Part 1 here */
    if (!p->cli.list && chrono_session_emulated(&p->session)) st->nproc = 1;
#if CC_LINUX
    if (st->h.zero < 0 || st->h.null < 0) {
        chrono_program_note(p, "%s: Part 1 skipped: cannot open /dev/zero or /dev/null", p->cli.prog);
    } else {
        /* each of the nproc processes takes its share of the samples, the warm-up and the time budget */
        const chrono_config *c = &p->session.cfg;
        int share = (c->samples + st->nproc - 1) / st->nproc, least = c->samples < 21 ? c->samples : 21;
        st->entries[st->n++] = chrono_with_bytes(chrono_bench("p1/libc", copy_libc, &st->h), 1);
        for (i = 0; i < CC_NPART1; i++)
            st->entries[st->n++] = chrono_with_bytes(chrono_versus(part1[i].name, part1[i].fn, &st->h, "p1/libc",
                                                                   copy_libc, &st->h), 1);
        for (i = st->n2; i < st->n && !p->cli.list; i++)
            st->entries[i] = chrono_with_warmup(chrono_with_budget(chrono_with_samples(st->entries[i], share > least ? share : least),
                                                                   c->max_ms / st->nproc), c->warmup_ms / st->nproc);
    }
#endif
}

/* How to read Part 1: a table of notes, before the benchmarks. */
static void cc_notes(cc_prog *st)
{
    chrono_table_builder *tb = &st->notes;
    chrono_table_init(tb, "environment", "What dominates these figures", env_cols, 1);
    if (!CC_LINUX) chrono_table_text(tb, "Part 1 skipped: it needs Linux (/dev/zero, readv, the syscall instruction)");
    if (st->nproc > 1)
        chrono_table_textf(tb, "Part 1: pooled over %d fresh processes: a difference is resolved only "
                           "when every process saw its sign and the pooled interval excludes 0", st->nproc);
    else chrono_table_text(tb, "Part 1: in this process only (emulated): no verdict says more than that");
    chrono_table_text(tb, "Part 1: projections use the MEAN ns per byte of every sample, interrupted ones included");
    chrono_table_text(tb, st->literal ? "Part 1: literal_s is one real copy (wall time: with literal_switches > 0 others' "
                                        "time is in it); projected_beside_s projects the samples taken between its slices"
                                      : "Part 1: --literal copies for real");
    (void)chrono_program_table(&st->p, &tb->table);
}

/* Part 2 here, Part 1 pooled; the part with --baseline first, so that every row after it shows its ratio. */
static void cc_run(cc_prog *st)
{
    chrono_program *p = &st->p;
    int p1_first = p->cli.baseline && !strncmp(p->cli.baseline, "p1/", 3), k;
    for (k = 0; k < 2 && p->status != 2; k++) {
        if ((k == 0) != p1_first) (void)chrono_program_run(p, st->entries, st->n2);
        else if (p->cli.list || st->n == st->n2 || st->nproc < 2) (void)chrono_program_run(p, st->entries + st->n2, st->n - st->n2);
        else (void)chrono_program_run_processes(p, st->entries + st->n2, st->n - st->n2, st->nproc);
    }
}

/* Part 2's Δ table. */
static void cc_part2_table(cc_prog *st)
{
    chrono_table_builder *tb = &st->p2tab;
    size_t i;
    chrono_table_init(tb, "part2_conventions", "Part 2: calling conventions, no kernel (ns per call, against the plain one)",
                      p2_cols, 8);
    for (i = 0; i < CC_NPART2; i++) {
        const chrono_comparison *c = chrono_program_compared(&st->p, part2[i].name);
        if (!c) continue;
        chrono_table_text(tb, part2[i].name);
        chrono_table_text(tb, part2[i].base_name);
        chrono_table_number(tb, c->a.ns.median, "%.2f", NULL);
        chrono_table_number(tb, c->b.ns.median, "%.2f", NULL);
        cc_delta_cells(tb, c, st->p.session.cfg.confidence);
    }
    (void)chrono_program_table(&st->p, &tb->table);
}

#if CC_LINUX
/* --literal: each copy once, beside its own projection, and the baseline once more, last. */
static void cc_part1_literal(cc_prog *st)
{
    cc_p1 *p1 = st->p1;
    size_t i, k;
    for (i = 0; i < st->np1; i++) {
        chrono_fn fn = copy_libc;
        for (k = 0; k < CC_NPART1; k++) if (!p1[i].is_base && !strcmp(part1[k].name, p1[i].name)) fn = part1[k].fn;
        p1[i].have_lit = chrono_literal_run(&st->p.session, p1[i].is_base ? "p1/libc" : p1[i].name, fn, &st->h,
                                            (uint64_t)st->bytes, &p1[i].lit) == 0;
    }
    if (!st->np1 || !p1[0].is_base) return;
    i = st->np1++;   /* the baseline again: one literal copy's own noise */
    p1[i] = p1[0];
    p1[i].name = "p1/libc (copied again, last)";
    p1[i].have_lit = chrono_literal_run(&st->p.session, "p1/libc/again", copy_libc, &st->h, (uint64_t)st->bytes, &p1[i].lit) == 0;
    if (p1[0].have_lit && p1[i].have_lit)
        chrono_program_note(&st->p, "Part 1: the same copy twice (libc, first and last): %.3f s and %.3f s, %.1f%% apart: "
                            "the noise of one literal copy here", p1[0].lit.ns / 1e9, p1[i].lit.ns / 1e9,
                            100.0 * fabs(p1[i].lit.ns / p1[0].lit.ns - 1.0));
}
#endif

/* Part 1's rows: the baseline and each shim against it, fastest first. */
static void cc_part1_rows(cc_prog *st)
{
#if CC_LINUX
    const chrono_result *base = chrono_program_find(&st->p, "p1/libc");
    size_t i;
    if (base) { st->p1[st->np1].name = "p1/libc (baseline)"; st->p1[st->np1].r = *base; st->p1[st->np1].is_base = 1; st->np1++; }
    for (i = 0; i < CC_NPART1; i++) {
        const chrono_comparison *c = chrono_program_compared(&st->p, part1[i].name);
        if (c) { st->p1[st->np1].name = part1[i].name; st->p1[st->np1].c = *c; st->p1[st->np1].r = c->a; st->np1++; }
    }
    if (st->literal) cc_part1_literal(st);
    if (st->h.failed) {
        fprintf(stderr, "%s: Part 1: a read or write did not move one byte\n", st->p.cli.prog);
        st->p.status = 1;
    }
#endif
    qsort(st->p1, st->np1, sizeof st->p1[0], cc_p1_cmp);
}

/* Part 1's table: projections, Δ against libc, processes, literal copies. */
static void cc_part1_table(cc_prog *st)
{
    chrono_table_builder *tb = &st->p1tab;
    double conf = st->p.session.cfg.confidence;
    size_t i;
    chrono_table_init(tb, "part1_replica", "Part 1: 1 byte /dev/zero -> /dev/null per op, fastest first", p1_cols, 17);
    for (i = 0; i < st->np1; i++) {
        const cc_p1 *r = &st->p1[i];
        chrono_projection pr;
        chrono_delta d;
        int ok = !r->is_base && chrono_delta_from(&r->c, &d) == 0;
        if (chrono_project(&r->r, (double)st->bytes, conf, &pr) < 0) continue;
        chrono_table_text(tb, r->name);
        chrono_table_number(tb, pr.total_ns / 1e9, "%.3f", NULL);
        chrono_table_number(tb, pr.ci_low_ns / 1e9, "%.3f", NULL);
        chrono_table_number(tb, pr.ci_high_ns / 1e9, "%.3f", NULL);
        chrono_table_number(tb, pr.per_op_mean_ns, "%.1f", NULL);
        chrono_table_number(tb, pr.per_op_median_ns, "%.1f", NULL);
        if (r->is_base) { chrono_table_text(tb, "0"); chrono_table_text(tb, "0"); chrono_table_text(tb, "0"); chrono_table_text(tb, "baseline"); }
        else cc_delta_cells(tb, &r->c, conf);
        chrono_table_number(tb, (double)(r->r.processes > 1 ? r->r.processes : 1), "%.0f", NULL);
        if (r->is_base) { chrono_table_text(tb, "0"); chrono_table_text(tb, "0"); }
        else { chrono_table_number(tb, ok ? d.process_min_ns : NAN, "%+.2f", NULL); chrono_table_number(tb, ok ? d.process_max_ns : NAN, "%+.2f", NULL); }
        chrono_table_number(tb, r->have_lit ? r->lit.ns / 1e9 : NAN, "%.3f", NULL);
        chrono_table_number(tb, r->have_lit ? r->lit.beside.total_ns / 1e9 : NAN, "%.3f", NULL);
        chrono_table_number(tb, r->have_lit ? r->lit.ratio : NAN, "%.3f", NULL);
        chrono_table_number(tb, r->have_lit && r->lit.switches >= 0 ? (double)r->lit.switches : NAN, "%.0f", NULL);
    }
    (void)chrono_program_table(&st->p, &tb->table);
}

/* Today's spread among the shims (not readv, not the raw instruction): from their paired
   differences against libc, each taken against libc at the same moments (the shims' own
   medians come from different moments, and the host drifts between them).  NAN when there is none. */
static double cc_spread(const cc_prog *st, char *note, size_t len, double *readv_d)
{
    chrono_delta fastest, slowest, spread;
    const char *fastest_name = NULL, *slowest_name = NULL;
    size_t k;
    *readv_d = NAN;
    for (k = 0; k < st->np1; k++) {
        const cc_p1 *r = &st->p1[k];
        chrono_delta d;
        if (r->is_base || chrono_delta_from(&r->c, &d) < 0) continue;
        if (strstr(r->name, "readv")) *readv_d = d.diff_ns;
        if (strstr(r->name, "readv") || strstr(r->name, "syscall")) continue;
        if (!fastest_name || d.diff_ns < fastest.diff_ns) { fastest = d; fastest_name = r->name; }
        if (!slowest_name || d.diff_ns > slowest.diff_ns) { slowest = d; slowest_name = r->name; }
    }
    if (!fastest_name || !slowest_name || chrono_delta_between(&slowest, &fastest, &spread) != 0) return NAN;
    (void)snprintf(note, len, "%s - %s: [%+.1f, %+.1f] ns (two %.0f%% CIs), %s", slowest_name + 3, fastest_name + 3,
                   spread.ci_low_ns, spread.ci_high_ns, 100 * fastest.ci_level, spread.resolved ? "resolved" : "below noise");
    return spread.diff_ns;
}

/* One then-vs-now row. */
static chrono_then_now_row cc_row(const char *then, double then_s, const char *now, double now_ns, double ghz, const char *note)
{
    chrono_then_now_row r;
    memset(&r, 0, sizeof r);
    r.then = then;
    r.then_total_s = then_s;
    r.then_ops = 16777216.0;
    r.now = now;
    r.now_ns = now_ns;
    r.now_ghz = ghz;
    r.note = note;
    return r;
}

/* Part 3: the seed's rows, beside today's closest x86-64 shim (Part 1, ns per byte = read + write). */
static void cc_part3(cc_prog *st)
{
    static const struct { const char *then, *now; double s; } seed[] = {
        { "regparm (2)", "p1/sysv_shim", 37.354 },          { "__stdcall, regparm (2)", "p1/sysv_shim", 37.440 },
        { "regparm (1)", "p1/sysv_shim", 37.482 },          { "regparm (2), regparm (3)", "p1/sysv_shim", 38.364 },
        { "regparm (3)", "p1/sysv_shim", 38.566 },          { "neither", "p1/pointer", 38.654 },
        { "__stdcall", "p1/ms_abi_shim", 38.848 },          { "__stdcall, regparm (3) (shipped)", "p1/ms_abi_shim", 39.409 },
    };
    static char spread_note[CHRONO_THEN_NOW_CELL];
    chrono_then_now_row rows[10];
    double readv_d, ghz = st->p.session.core_ghz, spread = cc_spread(st, spread_note, sizeof spread_note, &readv_d);
    size_t k, j;
    for (k = 0; k < 8; k++) {
        const char *now = CC_X64 ? seed[k].now : "p1/sysv_shim";
        double ns = NAN;
        for (j = 0; j < st->np1; j++) if (!strcmp(st->p1[j].name, now)) ns = st->p1[j].r.ns.median;
        rows[k] = cc_row(seed[k].then, seed[k].s, now, ns, ghz,
                         k == 5 ? "no stack convention on x86-64: a call through a pointer"
                         : k >= 6 ? "stdcall -> the Windows x64 convention (Cygwin's today)"
                                  : "regparm -> sysv: arguments in registers");
    }
    rows[8] = cc_row("fastest - slowest (1/8 us per read)", 39.409 - 37.354, "slowest - fastest shim (each paired with libc)",
                     spread, ghz, spread_note);
    rows[9] = cc_row("read forwarded to readv (+1/2 us)", NAN, "p1/readv - libc (delta)", readv_d, ghz, NULL);
    rows[9].then_ops = 0;
    rows[9].then_us_per_op = 0.5;
    if (chrono_then_now_build(&st->tn, "then_vs_now", "Part 3: then (2002, Pentium III, 16 MB copy) vs now; "
                              "now_cycles_est are estimated core cycles", rows, 10, st->seed_mhz) == 0) {
        st->have_tn = 1;
        (void)chrono_program_table(&st->p, &st->tn.table);
    }
}

/* The report, then what the tables and the descriptors hold. */
static int cc_end(cc_prog *st)
{
    int rc = chrono_program_end(&st->p);
    if (st->have_tn) chrono_then_now_free(&st->tn);
    chrono_table_free(&st->notes);
    chrono_table_free(&st->p2tab);
    chrono_table_free(&st->p1tab);
#if CC_LINUX
    if (st->h.zero >= 0) close(st->h.zero);
    if (st->h.null >= 0) close(st->h.null);
#endif
    return rc;
}

int main(int argc, char **argv)
{
    static cc_prog st;
    const chrono_cli_flag flags[] = {
        { "--bytes", CHRONO_CLI_INT, &st.bytes, 1, 1 << 30, "bytes of the copy to project (and copy with --literal), default 16777216" },
        { "--seed-mhz", CHRONO_CLI_DOUBLE, &st.seed_mhz, 1, 100000, "the 2002 Pentium III's clock in MHz, for its cycles (else n/a)" },
        { "--literal", CHRONO_CLI_BOOL, &st.literal, 0, 0, "really copy --bytes once per variant and time it" },
    };
    st.bytes = 16 << 20;
#if CC_LINUX
    st.h.zero = open("/dev/zero", O_RDONLY);
    st.h.null = open("/dev/null", O_WRONLY);
#endif
    if (chrono_program_begin(&st.p, argc, argv, flags, sizeof flags / sizeof flags[0]) != 1) return cc_end(&st);
    if (st.p.cli.quick && st.literal && st.bytes > (1 << 20)) {
        chrono_program_note(&st.p, "%s: --quick: the literal copy is scaled down to 1 MiB (projection and copy alike)", st.p.cli.prog);
        st.bytes = 1 << 20;
    }
    cc_entries(&st);
    cc_notes(&st);
    cc_run(&st);
    if (st.p.cli.list || chrono_program_child(&st.p)) return cc_end(&st);   /* a child's results travel back by themselves */
    cc_part2_table(&st);
    cc_part1_rows(&st);
    cc_part1_table(&st);
    cc_part3(&st);
    return cc_end(&st);
}
