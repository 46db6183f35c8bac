/* bench_loop — the loop form (loop.h) against the function form, the bar of
   issue 34: bodies of 5 ns, 500 ns, 50 us and 5 ms, each as 21 pairs of
   short runs side by side (ABBA; 31 samples, 300 ms a run, 3 s for the 5 ms
   body: the finer the interleaving, the less the machine's phases weigh),
   the median ratio loop/function within 2%.  TAP: one
   line a body with the median and the range of the pairs.  A benchmark()
   target (meson test --benchmark), not a test: it takes about a minute. */
#define CHRONO_STATIC
#include <chronoscope.h>
#include "tap.h"
#include "loop_pairs.h"

int main(void)
{
    static const struct { uint64_t steps; const char *what; } bodies[] = {
        { 5, "5 ns" }, { 500, "500 ns" }, { 50000, "50 us" }, { 5000000, "5 ms" },
    };
    chrono_session s;
    chrono_config cfg = chrono_config_default();
    size_t b;
    cfg.samples = 31;
    cfg.max_ms = 300;
    cfg.warmup_ms = 20;
    if (chrono_session_open(&s, &cfg) < 0) { tap_skip("no session"); return tap_done(); }
    for (b = 0; b < sizeof bodies / sizeof bodies[0]; b++) {
        double ratio[21];
        int rc;
        double m;
        /* a run of 5 ms samples wants more than 300 ms to take its 31 (rejected ones replaced) */
        s.cfg.max_ms = bodies[b].steps >= 5000000 ? 3000 : 300;
        m = lp_pairs(&s, bodies[b].steps, 21, ratio, &rc);
        if (rc == CHRONO_ENOTSUP) { tap_skip("the loop form is not supported here"); break; }
        tap_ok(rc == 0 && fabs(m - 1) < 0.02, "%s body (%llu steps): loop/function %.4f, pairs %.4f .. %.4f (want within 2%%)",
               bodies[b].what, (unsigned long long)bodies[b].steps, m, ratio[0], ratio[20]);
    }
    chrono_session_close(&s);
    return tap_done();
}
