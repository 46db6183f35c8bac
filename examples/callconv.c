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
   printed through the report (the tables are report.h's chrono_table). */
#define _GNU_SOURCE
#include <chronoscope.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>

#if defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#  include <fcntl.h>
#  include <unistd.h>
#  include <sys/uio.h>
#  include <sys/syscall.h>
#  define CC_LINUX 1
#else
#  define CC_LINUX 0
#endif
#if defined(__x86_64__) && !defined(_WIN32) && (defined(__GNUC__) || defined(__clang__))
#  define CC_X64 1
#else
#  define CC_X64 0
#endif
#if defined(__i386__) && (defined(__GNUC__) || defined(__clang__))
#  define CC_I386 1
#else
#  define CC_I386 0
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

/* ==== the program's tables ==================================================== */
#define CC_CELL 200
#define CC_MAXROWS 64
#define CC_MAXCOLS 17
typedef struct cc_table {        /* a chrono_table and the storage of its cells */
    chrono_table t;
    char text[CC_MAXROWS * CC_MAXCOLS][CC_CELL];
    const char *cells[CC_MAXROWS * CC_MAXCOLS];
} cc_table;

static void cc_table_init(cc_table *tb, const char *key, const char *title, const char *const *cols, size_t ncols)
{
    memset(&tb->t, 0, sizeof tb->t);
    tb->t.key = key;
    tb->t.title = title;
    tb->t.cols = cols;
    tb->t.ncols = ncols;
    tb->t.cells = tb->cells;
}

/* Append a row: ncols printf-formatted cells, NAN as "n/a". */
static char *cc_cell(cc_table *tb, size_t col)
{
    size_t k = tb->t.nrows * tb->t.ncols + col;
    tb->cells[k] = tb->text[k];
    return tb->text[k];
}
static void cc_num(cc_table *tb, size_t col, const char *fmt, double v)
{
    if (v == v) (void)snprintf(cc_cell(tb, col), CC_CELL, fmt, v);
    else (void)snprintf(cc_cell(tb, col), CC_CELL, "n/a");
}
static void cc_str(cc_table *tb, size_t col, const char *s) { (void)snprintf(cc_cell(tb, col), CC_CELL, "%s", s); }

/* Δ cells (ns, CI low, CI high, verdict) from a comparison, its verdict at the confidence asked. */
static void cc_delta_cells(cc_table *tb, size_t col, const chrono_comparison *c, double confidence)
{
    chrono_delta d;
    int ok = chrono_delta_from(c, &d) == 0;
    cc_num(tb, col, "%+.2f", ok ? d.diff_ns : NAN);
    cc_num(tb, col + 1, "%+.2f", ok ? d.ci_low_ns : NAN);
    cc_num(tb, col + 2, "%+.2f", ok ? d.ci_high_ns : NAN);
    cc_str(tb, col + 3, ok ? chrono_delta_verdict(&d, confidence) : "n/a");
}

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

static int cc_p1_cmp(const void *x, const void *y)
{
    double a = ((const cc_p1 *)x)->r.ns.median, b = ((const cc_p1 *)y)->r.ns.median;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    static cc_table p2tab, p1tab, envtab;
    static cc_p1 p1[9];
    static chrono_entry entries[CC_NPART2 + 8];
    chrono_program p;
    chrono_then_now tn;
    int bytes = 16 << 20, literal = 0, have_tn = 0, rc, nproc;
    double seed_mhz = 0.0, ops;
    size_t i, n = 0, n2, np1 = 0;
    const chrono_cli_flag flags[] = {
        { "--bytes", CHRONO_CLI_INT, &bytes, 1, 1 << 30, "bytes of the copy to project (and copy with --literal), default 16777216" },
        { "--seed-mhz", CHRONO_CLI_DOUBLE, &seed_mhz, 1, 100000, "the 2002 Pentium III's clock in MHz, for its cycles (else n/a)" },
        { "--literal", CHRONO_CLI_BOOL, &literal, 0, 0, "really copy --bytes once per variant and time it" },
    };
#if CC_LINUX
    cc_fh h;
    h.zero = open("/dev/zero", O_RDONLY);
    h.null = open("/dev/null", O_WRONLY);
    h.failed = 0;
#endif

    /* ---- flags and the session ---- */
    if ((rc = chrono_program_begin(&p, argc, argv, flags, sizeof flags / sizeof flags[0])) != 1) return chrono_program_end(&p);
    if (p.cli.quick && literal && bytes > (1 << 20)) {
        chrono_program_note(&p, "%s: --quick: the literal copy is scaled down to 1 MiB (projection and copy alike)", p.cli.prog);
        bytes = 1 << 20;
    }
    ops = (double)bytes;
    cc_table_init(&envtab, "environment", "What dominates these figures", env_cols, 1);

    /* ---- the table: Part 2 (no kernel), then Part 1 (the replica) ---- */
    for (i = 0; i < CC_NPART2; i++)
        entries[n++] = chrono_versus(part2[i].name, part2[i].fn, NULL, part2[i].base_name, part2[i].base, NULL);
    n2 = n;
    /* Part 1 in fresh processes: one process's difference does not repeat in the next (code and
       data land elsewhere, the host's phase changes), so a verdict must hold across several */
    nproc = p.cli.processes > 1 ? p.cli.processes : 6;   /* 6: the fewest whose lowest to highest is a 95% interval */
    /* under an emulator the timings are its own, and a fresh process may not even start (qemu-user
       cannot re-execute a program the kernel does not run): Part 1 here */
    if (!p.cli.list && chrono_session_emulated(&p.session)) nproc = 1;
#if CC_LINUX
    if (h.zero < 0 || h.null < 0) {
        chrono_program_note(&p, "%s: Part 1 skipped: cannot open /dev/zero or /dev/null", p.cli.prog);
    } else {
        /* each of the nproc processes takes its share of the samples, the warm-up and the time budget */
        const chrono_config *c = &p.session.cfg;
        int share = (c->samples + nproc - 1) / nproc, least = c->samples < 21 ? c->samples : 21;
        entries[n++] = chrono_with_bytes(chrono_bench("p1/libc", copy_libc, &h), 1);
        for (i = 0; i < CC_NPART1; i++)
            entries[n++] = chrono_with_bytes(chrono_versus(part1[i].name, part1[i].fn, &h, "p1/libc", copy_libc, &h), 1);
        for (i = n2; i < n && !p.cli.list; i++)
            entries[i] = chrono_with_warmup(chrono_with_budget(chrono_with_samples(entries[i], share > least ? share : least),
                                                               c->max_ms / nproc), c->warmup_ms / nproc);
    }
#else
    cc_str(&envtab, 0, "Part 1 skipped: it needs Linux (/dev/zero, readv, the syscall instruction)");
    envtab.t.nrows++;
#endif
    if (nproc > 1)
        (void)snprintf(cc_cell(&envtab, 0), CC_CELL, "Part 1: pooled over %d fresh processes: a difference is resolved only "
                       "when every process saw its sign and the pooled interval excludes 0", nproc);
    else (void)snprintf(cc_cell(&envtab, 0), CC_CELL, "Part 1: in this process only (emulated): no verdict says more than that");
    envtab.t.nrows++;
    cc_str(&envtab, 0, "Part 1: projections use the MEAN ns per byte of every sample, interrupted ones included");
    envtab.t.nrows++;
    cc_str(&envtab, 0, literal ? "Part 1: literal_s is one real copy (wall time: with literal_switches > 0 others' time is in it); "
                                 "projected_beside_s projects the samples taken between its slices"
                               : "Part 1: --literal copies for real");
    envtab.t.nrows++;
    (void)chrono_program_table(&p, &envtab.t);
    {   /* Part 2 here, Part 1 pooled; the part with --baseline first, so that every row after it shows its ratio */
        int p1_first = p.cli.baseline && !strncmp(p.cli.baseline, "p1/", 3), k;
        for (k = 0; k < 2 && p.status != 2; k++) {
            if ((k == 0) != p1_first) (void)chrono_program_run(&p, entries, n2);
            else if (p.cli.list || n == n2 || nproc < 2) (void)chrono_program_run(&p, entries + n2, n - n2);
            else (void)chrono_program_run_processes(&p, entries + n2, n - n2, nproc);
        }
    }
    if (p.cli.list || chrono_program_child(&p)) goto done;   /* a child's results travel back by themselves */

    /* ---- Part 2's Δ table ---- */
    cc_table_init(&p2tab, "part2_conventions", "Part 2: calling conventions, no kernel (ns per call, against the plain one)",
                  p2_cols, 8);
    for (i = 0; i < CC_NPART2; i++) {
        const chrono_comparison *c = chrono_program_compared(&p, part2[i].name);
        if (!c) continue;
        cc_str(&p2tab, 0, part2[i].name);
        cc_str(&p2tab, 1, part2[i].base_name);
        cc_num(&p2tab, 2, "%.2f", c->a.ns.median);
        cc_num(&p2tab, 3, "%.2f", c->b.ns.median);
        cc_delta_cells(&p2tab, 4, c, p.session.cfg.confidence);
        p2tab.t.nrows++;
    }
    (void)chrono_program_table(&p, &p2tab.t);

    /* ---- Part 1: rows fastest first, --literal copies, projections ---- */
#if CC_LINUX
    {
        const chrono_result *base = chrono_program_find(&p, "p1/libc");
        if (base) { p1[np1].name = "p1/libc (baseline)"; p1[np1].r = *base; p1[np1].is_base = 1; np1++; }
        for (i = 0; i < CC_NPART1; i++) {
            const chrono_comparison *c = chrono_program_compared(&p, part1[i].name);
            if (c) { p1[np1].name = part1[i].name; p1[np1].c = *c; p1[np1].r = c->a; np1++; }
        }
        for (i = 0; i < np1 && literal; i++) {   /* --literal: the whole copy once, beside its own projection */
            chrono_fn fn = copy_libc;
            size_t k;
            for (k = 0; k < CC_NPART1; k++) if (!p1[i].is_base && !strcmp(part1[k].name, p1[i].name)) fn = part1[k].fn;
            p1[i].have_lit = chrono_literal_run(&p.session, p1[i].is_base ? "p1/libc" : p1[i].name, fn, &h,
                                                (uint64_t)bytes, &p1[i].lit) == 0;
        }
        if (literal && np1 && p1[0].is_base) {   /* the baseline once more, last: one literal copy's own noise */
            p1[np1] = p1[0];
            p1[np1].name = "p1/libc (copied again, last)";
            p1[np1].have_lit = chrono_literal_run(&p.session, "p1/libc/again", copy_libc, &h, (uint64_t)bytes, &p1[np1].lit) == 0;
            if (p1[0].have_lit && p1[np1].have_lit)
                chrono_program_note(&p, "Part 1: the same copy twice (libc, first and last): %.3f s and %.3f s, %.1f%% apart: "
                                    "the noise of one literal copy here", p1[0].lit.ns / 1e9, p1[np1].lit.ns / 1e9,
                                    100.0 * fabs(p1[np1].lit.ns / p1[0].lit.ns - 1.0));
            np1++;
        }
        if (h.failed) {
            fprintf(stderr, "%s: Part 1: a read or write did not move one byte\n", p.cli.prog);
            p.status = 1;
        }
    }
#endif
    qsort(p1, np1, sizeof p1[0], cc_p1_cmp);
    cc_table_init(&p1tab, "part1_replica", "Part 1: 1 byte /dev/zero -> /dev/null per op, fastest first", p1_cols, 17);
    for (i = 0; i < np1; i++) {
        chrono_projection pr;
        if (chrono_project(&p1[i].r, ops, p.session.cfg.confidence, &pr) < 0) continue;
        cc_str(&p1tab, 0, p1[i].name);
        cc_num(&p1tab, 1, "%.3f", pr.total_ns / 1e9);
        cc_num(&p1tab, 2, "%.3f", pr.ci_low_ns / 1e9);
        cc_num(&p1tab, 3, "%.3f", pr.ci_high_ns / 1e9);
        cc_num(&p1tab, 4, "%.1f", pr.per_op_mean_ns);
        cc_num(&p1tab, 5, "%.1f", pr.per_op_median_ns);
        cc_num(&p1tab, 10, "%.0f", (double)(p1[i].r.processes > 1 ? p1[i].r.processes : 1));
        if (p1[i].is_base) { size_t k; for (k = 6; k < 13; k++) if (k != 10) cc_str(&p1tab, k, k == 9 ? "baseline" : "0"); }
        else {
            chrono_delta d;
            int ok = chrono_delta_from(&p1[i].c, &d) == 0;
            cc_delta_cells(&p1tab, 6, &p1[i].c, p.session.cfg.confidence);
            cc_num(&p1tab, 11, "%+.2f", ok ? d.process_min_ns : NAN);
            cc_num(&p1tab, 12, "%+.2f", ok ? d.process_max_ns : NAN);
        }
        cc_num(&p1tab, 13, "%.3f", p1[i].have_lit ? p1[i].lit.ns / 1e9 : NAN);
        cc_num(&p1tab, 14, "%.3f", p1[i].have_lit ? p1[i].lit.beside.total_ns / 1e9 : NAN);
        cc_num(&p1tab, 15, "%.3f", p1[i].have_lit ? p1[i].lit.ratio : NAN);
        cc_num(&p1tab, 16, "%.0f", p1[i].have_lit && p1[i].lit.switches >= 0 ? (double)p1[i].lit.switches : NAN);
        p1tab.t.nrows++;
    }
    (void)chrono_program_table(&p, &p1tab.t);

    /* ---- Part 3: then vs now ---- */
    {
        /* the seed's rows, beside today's closest x86-64 shim (Part 1, ns per byte = read + write) */
        static const struct { const char *then, *now; double s; } seed[] = {
            { "regparm (2)", "p1/sysv_shim", 37.354 },          { "__stdcall, regparm (2)", "p1/sysv_shim", 37.440 },
            { "regparm (1)", "p1/sysv_shim", 37.482 },          { "regparm (2), regparm (3)", "p1/sysv_shim", 38.364 },
            { "regparm (3)", "p1/sysv_shim", 38.566 },          { "neither", "p1/pointer", 38.654 },
            { "__stdcall", "p1/ms_abi_shim", 38.848 },          { "__stdcall, regparm (3) (shipped)", "p1/ms_abi_shim", 39.409 },
        };
        chrono_then_now_row rows[10];
        chrono_delta fastest, slowest, spread;
        const char *fastest_name = NULL, *slowest_name = NULL;
        double readv_d = NAN, ghz = p.session.core_ghz;
        static char spread_note[CHRONO_THEN_NOW_CELL];
        size_t k;
        memset(rows, 0, sizeof rows);
        /* today's spread among the shims (not readv, not the raw instruction): from their paired
           differences against libc, each taken against libc at the same moments (the shims' own
           medians come from different moments, and the host drifts between them) */
        for (k = 0; k < np1; k++) {
            chrono_delta d;
            if (p1[k].is_base || chrono_delta_from(&p1[k].c, &d) < 0) continue;
            if (strstr(p1[k].name, "readv")) readv_d = d.diff_ns;
            if (strstr(p1[k].name, "readv") || strstr(p1[k].name, "syscall")) continue;
            if (!fastest_name || d.diff_ns < fastest.diff_ns) { fastest = d; fastest_name = p1[k].name; }
            if (!slowest_name || d.diff_ns > slowest.diff_ns) { slowest = d; slowest_name = p1[k].name; }
        }
        if (fastest_name && slowest_name && chrono_delta_between(&slowest, &fastest, &spread) == 0)
            (void)snprintf(spread_note, sizeof spread_note, "%s - %s: [%+.1f, %+.1f] ns (two %.0f%% CIs), %s", slowest_name + 3,
                           fastest_name + 3, spread.ci_low_ns, spread.ci_high_ns, 100 * fastest.ci_level,
                           spread.resolved ? "resolved" : "below noise");
        else spread.diff_ns = NAN;
        for (k = 0; k < 8; k++) {
            size_t j;
            rows[k].then = seed[k].then;
            rows[k].then_total_s = seed[k].s;
            rows[k].then_ops = 16777216.0;
            rows[k].now = CC_X64 ? seed[k].now : "p1/sysv_shim";
            rows[k].now_ns = NAN;
            rows[k].now_ghz = ghz;
            rows[k].note = k == 5 ? "no stack convention on x86-64: a call through a pointer"
                         : k >= 6 ? "stdcall -> the Windows x64 convention (Cygwin's today)"
                                  : "regparm -> sysv: arguments in registers";
            for (j = 0; j < np1; j++) if (!strcmp(p1[j].name, rows[k].now)) rows[k].now_ns = p1[j].r.ns.median;
        }
        rows[8].then = "fastest - slowest (1/8 us per read)";
        rows[8].then_total_s = 39.409 - 37.354;
        rows[8].then_ops = 16777216.0;
        rows[8].now = "slowest - fastest shim (each paired with libc)";
        rows[8].now_ns = spread.diff_ns;
        rows[8].now_ghz = ghz;
        rows[8].note = spread_note;
        rows[9].then = "read forwarded to readv (+1/2 us)";
        rows[9].then_total_s = NAN;
        rows[9].then_us_per_op = 0.5;
        rows[9].now = "p1/readv - libc (delta)";
        rows[9].now_ns = readv_d;
        rows[9].now_ghz = ghz;
        if (chrono_then_now_build(&tn, "then_vs_now", "Part 3: then (2002, Pentium III, 16 MB copy) vs now; "
                                  "now_cycles_est are estimated core cycles", rows, 10, seed_mhz) == 0) {
            have_tn = 1;
            (void)chrono_program_table(&p, &tn.table);
        }
    }

done:
    rc = chrono_program_end(&p);
    if (have_tn) chrono_then_now_free(&tn);
#if CC_LINUX
    if (h.zero >= 0) close(h.zero);
    if (h.null >= 0) close(h.null);
#endif
    return rc;
}
