/* chronoscope/loop.h — time a block of code where it stands, without writing
   a function: Google Benchmark's `for (auto _ : state)`, in C.

   Usage:

       chrono_result r;
       for (CHRONO_LOOP(&s, "parse", &r)) {        // the block is the body
           chrono_keep(parse(text));
       }
       printf("%.1f ns\n", r.ns.median);

   or, with the run's error code and a loop of your own shape:

       chrono_loop l;
       chrono_loop_begin(&l, &s, "parse", &r);
       while (chrono_loop_next(&l)) chrono_keep(parse(text));
       if (chrono_loop_end(&l) < 0) ...            // 0 or chrono_run's error

   Functions:
       CHRONO_LOOP(s, name, out)         for's header: a loop named `name` (a chrono_loop
                                         of its own); the result into *out (may be NULL)
       chrono_loop_begin(l, s, name, out)  start a loop: 0 or an error (then no iteration)
       chrono_loop_next(l)               1: run the block once more; 0: the run is over (inline)
       chrono_loop_end(l)                the run's code (0 or chrono_run's error); a
                                         loop left early (break) is abandoned here

   What it measures: exactly chrono_run's figures (bench.h: sizing, warm-up,
   probes, reference chains, controls, rejections, statistics, the result
   kept in the session and reported in every format).  chrono_run times a
   function that runs `iters` iterations; here that function hands the batch
   to the block and waits: the runner runs on a stack of its own (allocated
   at chrono_loop_begin, freed at the end), and each batch moves from the
   runner to the block and back by a switch of stacks (a few instructions:
   the callee-saved registers, the stack pointer, a jump), once a batch, not
   once an iteration.  The block's fast path, chrono_loop_next, is inline:
   a compare, a decrement and a branch an iteration, what `for (i = 0; i <
   iters; i++)` costs the function form.  Measured side by side (tests/
   bench_loop.c; docs/loop.md has the figures) the two forms agree within 2% on
   bodies of 5 ns to 5 ms.

   What it does not do: a comparison, a claim (check.h), a threaded run or a
   program table need a function (chrono_fn); a loop is one run, as
   chrono_run.  The body's own counters (chrono_user_counter, in the
   session's configuration) are read as chrono_run reads them.  Where the
   stacks cannot be switched (only x86-64 with GCC or clang for now)
   chrono_loop_begin returns CHRONO_ENOTSUP and the loop runs no iteration.
   Nothing is allocated while a sample is timed; nothing global is kept.

   Every int return: 0 or a negative CHRONO_E... code. */
#ifndef CHRONOSCOPE_LOOP_H
#define CHRONOSCOPE_LOOP_H

#include "bench.h"

/* A loop in progress.  .left is read by chrono_loop_next; the rest is the
   runner's (private). */
typedef struct chrono_loop {
    uint64_t left;                /* iterations left in the batch being run */
    chrono_session *chrono__s;
    const char *chrono__name;
    chrono_result *chrono__out;
    int chrono__state;            /* 0 not started, 1 running, 2 over */
    int chrono__rc;               /* chrono_run's code, when over */
    void *chrono__stack;          /* the runner's stack (CHRONO_MALLOC) */
    void *chrono__sp_user, *chrono__sp_run;   /* each side's stack pointer while the other runs */
} chrono_loop;

CHRONO__EXTERN_C_BEGIN
CHRONO_API int chrono_loop_begin(chrono_loop *l, chrono_session *s, const char *name,
                                 chrono_result *out);
/* The slow path of chrono_loop_next, at a batch's end: 1 with the next batch
   in .left (one of its iterations taken), 0 when the run is over. */
CHRONO_API int chrono_loop_batch(chrono_loop *l);
CHRONO_API int chrono_loop_end(chrono_loop *l);
CHRONO__EXTERN_C_END

CHRONO__INLINE int chrono_loop_next(chrono_loop *l)
{
    if (l->left) {
        l->left--;
        return 1;
    }
    return chrono_loop_batch(l);
}

/* for (CHRONO_LOOP(s, name, out)) { block }: a chrono_loop named chrono_loop_
   of the for statement's own, started at the first test. */
#define CHRONO_LOOP(s, name, out) \
    chrono_loop chrono_loop_[1] = { { 0, (s), (name), (out), 0, 0, NULL, NULL, \
                                     NULL } }; chrono_loop_next(chrono_loop_);

#endif /* CHRONOSCOPE_LOOP_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_LOOP_IMPL)
#define CHRONOSCOPE_LOOP_IMPL

CHRONO__EXTERN_C_BEGIN

#define CHRONO__LOOP_STACK ((size_t)512 * 1024)   /* the runner's stack: chrono_run needs ~40 KiB */

#if CHRONO_ARCH_X86_64 && (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#  define CHRONO__LOOP_SWITCH 1
/* Save this side (its callee-saved registers and where to resume, on its own
   stack; the stack pointer into *save), then resume the other side at `load`
   with `arg` as its first argument (for a fresh stack: the function whose
   address tops it).  128 bytes are stepped over first: the red zone of the
   SysV ABI, which this function may use, is not written. */
CHRONO__PRIVATE CHRONO_NOINLINE void chrono__loop_switch(void **save, void *load, void *arg)
{
    __asm__ __volatile__(
        "lea -128(%%rsp), %%rsp\n\t"
        "push %%rbp\n\tpush %%rbx\n\tpush %%r12\n\tpush %%r13\n\tpush %%r14\n\tpush %%r15\n\t"
        "lea 1f(%%rip), %%rax\n\t"
        "push %%rax\n\t"
        "mov %%rsp, (%%rdi)\n\t"
        "mov %%rsi, %%rsp\n\t"
        "mov %%rdx, %%rdi\n\t"
        "ret\n"
        "1:\n\t"
        "pop %%r15\n\tpop %%r14\n\tpop %%r13\n\tpop %%r12\n\tpop %%rbx\n\tpop %%rbp\n\t"
        "lea 128(%%rsp), %%rsp\n\t"
        : "+D"(save), "+S"(load), "+d"(arg)
        :
        : "rax", "rcx", "r8", "r9", "r10", "r11", "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3",
          "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
          "xmm14", "xmm15");
}

/* A fresh stack for fn: its top (16-byte aligned) holds fn's address, which
   the switch's `ret` jumps to with the stack as a call would leave it. */
CHRONO__PRIVATE void *chrono__loop_stack_top(void *stack, size_t size, void (*fn)(chrono_loop *))
{
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    void (**slot)(chrono_loop *) = (void (**)(chrono_loop *))(top - 16);
    *slot = fn;
    return (void *)slot;
}
#else
#  define CHRONO__LOOP_SWITCH 0
#endif

/* The function chrono_run times: the batch of `iters` handed to the block,
   back here when the block asks for the next. */
CHRONO__PRIVATE void chrono__loop_fn(void *ctx, uint64_t iters)
{
    chrono_loop *l = (chrono_loop *)ctx;
#if CHRONO__LOOP_SWITCH
    if (iters == 0) return;
    l->left = iters;
    chrono__loop_switch(&l->chrono__sp_run, l->chrono__sp_user, l);
#else
    (void)l; (void)iters;
#endif
}

#if CHRONO__LOOP_SWITCH
/* The runner's side, on its own stack: one chrono_run of the block, then
   back to the block's side for good (this stack is freed there). */
CHRONO__PRIVATE void chrono__loop_main(chrono_loop *l)
{
    l->chrono__rc = chrono_run(l->chrono__s, l->chrono__name, chrono__loop_fn, l, l->chrono__out);
    l->chrono__state = 2;
    l->left = 0;
    for (;;) chrono__loop_switch(&l->chrono__sp_run, l->chrono__sp_user, l);
}
#endif

CHRONO_API int chrono_loop_begin(chrono_loop *l, chrono_session *s, const char *name,
                                 chrono_result *out)
{
    if (!l) return CHRONO_EINVAL;
    memset(l, 0, sizeof *l);
    l->chrono__s = s;
    l->chrono__name = name;
    l->chrono__out = out;
    /* defined whatever follows (ENOTSUP too) */
    if (out) chrono__result_init(out, name ? name : "", 0);
#if CHRONO__LOOP_SWITCH
    return 0;
#else
    l->chrono__state = 2;
    return l->chrono__rc = CHRONO_ENOTSUP;
#endif
}

/* The first batch: the runner's stack made, touched and entered (outside
   any timed region), the run's arguments checked by chrono_run itself. */
CHRONO__PRIVATE int chrono__loop_start(chrono_loop *l)
{
#if CHRONO__LOOP_SWITCH
    size_t i;
    if (!(l->chrono__stack = CHRONO_MALLOC(CHRONO__LOOP_STACK))) return CHRONO_ENOMEM;
    /* every page written before the run: its first touches (page faults,
       peak RSS) are not the run's (its memory line read +128 KiB) */
    for (i = 0; i < CHRONO__LOOP_STACK; i += 4096) ((volatile char *)l->chrono__stack)[i] = 0;
    l->chrono__state = 1;
    chrono__loop_switch(
        &l->chrono__sp_user,
        chrono__loop_stack_top(l->chrono__stack, CHRONO__LOOP_STACK, chrono__loop_main), l);
    return 0;
#else
    (void)l;
    return CHRONO_ENOTSUP;
#endif
}

/* The run over: its stack freed, its code kept. */
CHRONO__PRIVATE int chrono__loop_over(chrono_loop *l, int rc)
{
    if (l->chrono__state != 2) l->chrono__rc = rc;
    l->chrono__state = 2;
    l->left = 0;
    CHRONO_FREE(l->chrono__stack);
    l->chrono__stack = NULL;
    return 0;
}

CHRONO_API int chrono_loop_batch(chrono_loop *l)
{
    int rc;
    if (!l || l->chrono__state == 2) return 0;
    if (l->chrono__state == 0) {
        if ((rc = chrono__loop_start(l)) < 0) return chrono__loop_over(l, rc);
    } else {
#if CHRONO__LOOP_SWITCH
        /* the batch done: back to the runner */
        chrono__loop_switch(&l->chrono__sp_user, l->chrono__sp_run, l);
#endif
    }
    if (l->chrono__state == 2) return chrono__loop_over(l, l->chrono__rc);
    return chrono_loop_next(l);
}

/* A loop left before its end (a break) is abandoned: the runner's stack is
   freed without running on (the session keeps no half result), and the
   code is CHRONO_EINVAL, as for a loop never run. */
CHRONO_API int chrono_loop_end(chrono_loop *l)
{
    if (!l) return CHRONO_EINVAL;
    /* never run, or left early */
    if (l->chrono__state != 2) (void)chrono__loop_over(l, CHRONO_EINVAL);
    return l->chrono__rc;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_LOOP_IMPL */
