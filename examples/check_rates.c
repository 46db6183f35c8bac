/* check_rates — measures check.h's error rates: how often chrono_check_faster
   says PASS, FAIL or INCONCLUSIVE when the truth is known.

   Three scenarios, each `--trials` times (a fresh session each trial, as a
   test program would have), with the checker's defaults (alpha 0.01, budget
   500 ms) unless --budget-ms / --alpha say otherwise:
     gap1.5   slow does 1.5x the work of fast,  claim >= 1.2   (true:  FAIL is the error)
     same     identical bodies,                 claim >= 1.2   (false: PASS is the error)
     gap1.1   slow does 1.1x the work of fast,  claim >= 1.05  (true:  how often it PASSes)
   The work is a chain of dependent multiply-adds: its time is proportional
   to its length on any core.

   Usage: check_rates [common flags] [--trials=N] [--scenario=gap1.5|same|gap1.1|all]
                      [--budget-ms=X] [--alpha=X]
   For a busy neighbour: `yes > /dev/null &` on the other CPU, --cpu on this one;
   kill it afterwards. */
#include <chronoscope.h>
#include <stdlib.h>
#include <string.h>

static void chain(void *ctx, uint64_t iters)
{
    uint64_t reps = *(const uint64_t *)ctx, x = 1;
    for (uint64_t i = 0; i < iters; i++) {
        for (uint64_t k = 0; k < reps; k++) x = x * 6364136223846793005u + 1442695040888963407u;
        chrono_keep(x);
    }
}

typedef struct scenario { const char *name; uint64_t fast, slow; double claim; } scenario;

int main(int argc, char **argv)
{
    static const scenario all[] = { { "gap1.5", 200, 300, 1.2 }, { "same", 200, 200, 1.2 }, { "gap1.1", 200, 220, 1.05 } };
    chrono_config cfg = chrono_config_default();
    chrono_expect_config ecfg = chrono_expect_config_default();
    int trials = 100;
    double budget = 0, alpha = 0;
    const char *which = "all";
    chrono_cli_flag extra[] = {
        { "--trials", CHRONO_CLI_INT, &trials, 1, 100000, "trials per scenario (default 100)" },
        { "--scenario", CHRONO_CLI_STRING, &which, 0, 0, "gap1.5, same, gap1.1 or all (default all)" },
        { "--budget-ms", CHRONO_CLI_DOUBLE, &budget, 1, 86400000, "budget of each check (default 500)" },
        { "--alpha", CHRONO_CLI_DOUBLE, &alpha, 1e-9, 0.49, "rate of each wrong verdict (default 0.01)" },
    };
    chrono_cli cli;
    size_t k;
    if (chrono_cli_parse_ex(&cfg, &cli, argc, argv, extra, 4) < 0) return chrono_cli_fail(&cli, argv[0]);
    if (chrono_cli_handle_info(&cli, argv[0])) return 0;
    if (budget > 0) ecfg.budget_ms = budget;
    if (alpha > 0) ecfg.alpha = alpha;
    if (cli.quick) trials = trials < 5 ? trials : 5;
    printf("scenario  claim  trials   PASS   FAIL  INCONCL  median ratio  [min, max]        mean ms  mean pairs\n");
    for (k = 0; k < sizeof all / sizeof all[0]; k++) {
        const scenario *sc = &all[k];
        int t, count[4] = { 0, 0, 0, 0 };
        double *ratios, spent = 0, pairs = 0;
        if (strcmp(which, "all") && strcmp(which, sc->name)) continue;
        if (!(ratios = (double *)malloc((size_t)trials * sizeof *ratios))) return 1;
        for (t = 0; t < trials; t++) {
            chrono_session s;
            chrono_checker ck;
            chrono_verdict v;
            uint64_t f = sc->fast, sl = sc->slow;
            if (chrono_session_open(&s, &cfg) < 0 || chrono_checker_open(&ck, &s, &ecfg) < 0) {
                fprintf(stderr, "%s: session did not open\n", argv[0]);
                return 1;
            }
            v = chrono_check_faster(&ck, sc->name, chain, &f, chain, &sl, sc->claim);
            count[v]++;
            ratios[t] = ck.items[0].estimate;
            spent += ck.items[0].spent_ms;
            pairs += (double)ck.items[0].rounds;
            if (v == CHRONO_VERDICT_ERROR) fprintf(stderr, "trial %d: %s\n", t, ck.items[0].reason);
            chrono_checker_close(&ck);
            chrono_session_close(&s);
        }
        chrono_stats_sort(ratios, (size_t)trials);
        printf("%-8s  %5.2f  %6d  %5d  %5d  %7d  %12.3f  [%.3f, %.3f]  %8.0f  %10.0f\n", sc->name, sc->claim, trials,
               count[CHRONO_PASS], count[CHRONO_FAIL], count[CHRONO_INCONCLUSIVE], chrono_stats_quantile(ratios, (size_t)trials, 0.5),
               ratios[0], ratios[trials - 1], spent / trials, pairs / trials);
        if (count[CHRONO_VERDICT_ERROR]) printf("          %d errors\n", count[CHRONO_VERDICT_ERROR]);
        fflush(stdout);
        free(ratios);
    }
    return 0;
}
