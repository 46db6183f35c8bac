/* chronoscope.h — time code precisely: calibrated timestamps, warmup, CPU pinning,
   statistics, reports and unit-test helpers, in one header-only C99 library.

   Do this:
       #define CHRONOSCOPE_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the
   implementation (or #define CHRONO_STATIC for a private copy in a single-file
   program).  Every other file just includes it, in any order, under any -std.
   meson users need neither: dependency('chronoscope') links the implementation
   (src/chronoscope.c), and so does pkg-config.

   TABLE OF CONTENTS
     1. Usage              4. Platforms
     2. Configuration      5. Modules
     3. Errors             6. Licence

   1. USAGE ---------------------------------------------------------------------
   Include the header and link -lm (and the implementation, above).
   Time a loop of yours, compare two, report (examples/quickstart.c is whole):

       static void body(void *ctx, uint64_t iters) {        // the loop is yours
           for (uint64_t i = 0; i < iters; i++) { work(ctx); chrono_clobber(); }
       }
       chrono_session s;
       chrono_result r;
       chrono_comparison c;
       if (chrono_session_open(&s, NULL) < 0) return 1;     // pin, calibrate, read the machine
       chrono_run(&s, "work", body, ctx, &r);               // r.ns.median, r.ns.ci_low, r.cycles.median
       chrono_compare(&s, "a", body_a, NULL, "b", body_b, NULL, &c);   // c.ratio [c.ci_low, c.ci_high]
       chrono_report(&s, stdout, CHRONO_FORMAT_TEXT);        // or _MARKDOWN, _CSV, _JSON
       chrono_report_html(&s, file, NULL);                   // a page with plots (html.h)
       chrono_session_close(&s);

   Or only the clock:

       #include <chronoscope.h>

       chrono_clock clk;
       if (chrono_clock_open(&clk, CHRONO_CLOCK_AUTO) < 0) return 1;
       uint64_t t0 = chrono_clock_start(&clk);
       work();
       uint64_t t1 = chrono_clock_stop(&clk);
       printf("%.1f ns\n", chrono_clock_ns(&clk, t1 - t0 - clk.overhead_ticks));

   2. CONFIGURATION (define before including) ----------------------------------
     CHRONOSCOPE_IMPLEMENTATION compile the implementation here (one file)
     CHRONO_STATIC              a private static copy in this file (single-file programs)
     CHRONO_API                 storage of every function      default: extern (static with CHRONO_STATIC)
     CHRONO_MALLOC(n) / CHRONO_FREE(p)   both or neither       default: malloc / free
     CHRONO_USE_HWLOC           choose CPUs through hwloc (link -lhwloc)  default: off
     CHRONO_NO_RDTSCP           stop with lfence;rdtsc even where CPUID offers RDTSCP
                                (valgrind 3.19 offers it on CPUs that lack it)  default: off

   3. ERRORS ----------------------------------------------------------------------
   Every function returning int returns 0 or a negative CHRONO_E... code;
   chrono_strerror(code) describes it.  "Not supported here" is CHRONO_ENOTSUP.
   The library never prints, never aborts, and keeps no global mutable state.

   4. PLATFORMS -------------------------------------------------------------------
     x86, x86-64   TSC: lfence;rdtsc / rdtscp;lfence (lfence;rdtsc without RDTSCP)
     aarch64       isb; mrs cntvct_el0
     Linux, BSD    clock_gettime(CLOCK_MONOTONIC_RAW / CLOCK_MONOTONIC)
     Windows       QueryPerformanceCounter; SetThreadAffinityMask
     macOS         mach_absolute_time; no pinning (CHRONO_ENOTSUP)
   The declarations need only <stdint.h>, <stddef.h> and <stdio.h>.  The
   implementation wants glibc's GNU extensions: first in its file it defines
   _GNU_SOURCE itself; after a system header it makes the Linux system calls
   itself; only under a strict -std=c99 with a system header first (glibc then
   hides clock_gettime) it stops with an #error that names _GNU_SOURCE.
   What a program may test itself (base.h, each 0 or 1): CHRONO_ARCH_X86
   (x86 or x86-64), CHRONO_ARCH_X86_64, CHRONO_ARCH_I386, CHRONO_ARCH_ARM64,
   CHRONO_OS_LINUX, CHRONO_OS_WINDOWS, CHRONO_OS_APPLE, CHRONO_OS_POSIX (another
   POSIX system); CHRONO_NOINLINE keeps a function out of line.

   5. MODULES ---------------------------------------------------------------------
     chronoscope/base.h    CHRONO_API, allocation hooks, error codes, chrono_strerror,
                           platform facts
     chronoscope/clock.h   tick sources and their calibration
     chronoscope/cpu.h     pinning, migration checks and environment facts
     chronoscope/stats.h   statistics on arrays of doubles: quantiles, MAD, CIs, fits
     chronoscope/counters.h  perf_event counters (instructions, page faults ...) where offered
     chronoscope/types.h   the data: configuration, results, comparisons, sessions
     chronoscope/engine.h  the sampling engine: probes, reference chains, the one sampling loop
     chronoscope/bench.h   the runner: sessions, warmup, batches, samples, cycles, A/B, sweeps
     chronoscope/threads.h multithreaded runs: one body in N pinned threads, started together
     chronoscope/loop.h    a block timed where it stands: for (CHRONO_LOOP(s, name, out)) { ... }
     chronoscope/table.h   text every format shares (UTF-8, escaping, units) and tables of cells
     chronoscope/tmp.h     temp files removed on exit, on error and on a signal (a child
                           stopped first)
     chronoscope/summary.h what the reports a person reads share: the environment's lines,
                           the summary table's one column list and cells, verdicts in words
     chronoscope/html.h    one self-contained HTML page with SVG plots (chrono_report_html)
     chronoscope/report.h  text, markdown, CSV, Google-Benchmark JSON and BMF reports from one
                           field list; any format by the formats' list (chrono_report_write,
                           HTML included); the saved-run reader
     chronoscope/cli.h     the common command-line flags of programs built on it
     chronoscope/check.h   unit-test expectations (faster, below, scaling, saved) and TAP
     chronoscope/baseline.h  the change rule (A/B verdicts) and named baselines (--save, --compare)
     chronoscope/experiment.h  Δ with CI, projections, then-vs-now tables, literal runs
     chronoscope/command.h whole commands timed in child processes, interleaved (chronoscope-cmd)
     chronoscope/entry.h   a benchmark as data: the entries of a program table, one run
     chronoscope/processes.h  fresh processes: spawn, records, pooling (--processes)
     chronoscope/program.h a benchmark program as a table and one call (chrono_main)
     chronoscope/registry.h  registration without a table (CHRONO_BENCHMARK, CHRONO_MAIN)
     chronoscope/module.h  benchmark modules (CHRONO_MODULE) for chronoscope-ab
   Each module includes only modules above it in this list (a DAG, lowest
   first), directly these (tests/check_floors.py: no name runs upward):
     clock, cpu, stats, table, tmp: base     counters: base, stats
     types: base, clock, cpu, stats, counters                engine: types
     bench: engine       threads, loop: bench     summary: types, table
     html: summary       report: summary, html   cli: report
     check: engine, bench, cli
     baseline: check     entry: threads      experiment: bench, report, tmp
     command: experiment                     processes: bench, cli, entry
     program: entry, processes, baseline     registry, module: program
   A module uses of a lower one its public names, and of its private names
   (chrono__, CHRONO__) only those listed in that module's top comment under
   "Interface for the modules above", each with what it does (base, stats,
   counters, types, engine, table, summary, report); every other private name
   is its own file's (tests/check_floors.py holds it).

   6. LICENCE ---------------------------------------------------------------------
   MIT; see LICENSE. */
/* No include guard here: each module guards its declarations and its
   implementation apart, so a file may include the declarations first and
   define CHRONOSCOPE_IMPLEMENTATION before a second #include. */
#include "chronoscope/base.h"
#include "chronoscope/clock.h"
#include "chronoscope/cpu.h"
#include "chronoscope/stats.h"
#include "chronoscope/counters.h"
#include "chronoscope/types.h"
#include "chronoscope/engine.h"
#include "chronoscope/bench.h"
#include "chronoscope/threads.h"
#include "chronoscope/loop.h"
#include "chronoscope/table.h"
#include "chronoscope/tmp.h"
#include "chronoscope/summary.h"
#include "chronoscope/html.h"
#include "chronoscope/report.h"
#include "chronoscope/cli.h"
#include "chronoscope/check.h"
#include "chronoscope/baseline.h"
#include "chronoscope/experiment.h"
#include "chronoscope/command.h"
#include "chronoscope/entry.h"
#include "chronoscope/processes.h"
#include "chronoscope/program.h"
#include "chronoscope/registry.h"
#include "chronoscope/module.h"

