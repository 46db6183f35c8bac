/* same_config(a, b): every field of two chrono_config equal — for the tests
   that check a call left a configuration untouched or set exactly what it
   should.  Include after <chronoscope.h>. */
#ifndef CHRONO_TEST_SAME_CONFIG_H
#define CHRONO_TEST_SAME_CONFIG_H

static int same_config(const chrono_config *a, const chrono_config *b)
{
    return a->samples == b->samples && a->warmup_ms == b->warmup_ms && a->min_sample_us == b->min_sample_us &&
           a->max_ms == b->max_ms && a->cpu == b->cpu && a->pin == b->pin && a->confidence == b->confidence &&
           a->clock == b->clock && a->seed == b->seed && a->cycles == b->cycles && a->ref_tolerance == b->ref_tolerance &&
           a->contention_tolerance == b->contention_tolerance && a->custom_clock == b->custom_clock &&
           a->expect_empty == b->expect_empty;
}

#endif
