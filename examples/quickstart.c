/* quickstart — sum an array in order and with a stride, then compare the two side by side. */
#include <chronoscope.h>
static double data[1 << 14];

static void sum(void *ctx, uint64_t iters) /* ctx: the stride */
{
    int stride = *(const int *)ctx;
    for (uint64_t i = 0; i < iters; i++) {
        double s = 0;
        for (int k = 0; k < stride; k++)
            for (int j = k; j < (1 << 14); j += stride) s += data[j];
        chrono_keep(s);
    }
}

int main(int argc, char **argv)
{
    int one = 1, wide = 64, rc = 0;
    chrono_config cfg = chrono_config_default();
    chrono_cli cli;
    chrono_session s;
    if (chrono_cli_parse(&cfg, &cli, argc, argv) < 0) return chrono_cli_fail(&cli, argv[0]);
    if (chrono_cli_handle_info(&cli, argv[0]) || chrono_session_open(&s, &cfg) < 0) return cli.help || cli.version ? 0 : 1;
    if (rc == 0 && chrono_cli_want(&cli, "sum_in_order")) rc = chrono_run(&s, "sum_in_order", sum, &one, NULL);
    if (rc == 0 && chrono_cli_want(&cli, "sum_stride_64")) rc = chrono_run(&s, "sum_stride_64", sum, &wide, NULL);
    if (rc == 0 && chrono_cli_want(&cli, "in_order_vs_stride"))
        rc = chrono_compare(&s, "in_order", sum, &one, "stride_64", sum, &wide, NULL);
    if (rc < 0) fprintf(stderr, "%s: %s\n", argv[0], chrono_strerror(rc));   /* a failed run: say so, exit 1 */
    else if ((rc = chrono_cli_finish(&cli, &s)) < 0) fprintf(stderr, "%s: %s\n", argv[0], cli.error);
    chrono_session_close(&s);
    return rc < 0 ? 1 : 0;
}
