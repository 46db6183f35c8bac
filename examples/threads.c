/* threads — multithreaded runs (threads.h): a thread-private counter keeps
   its time per increment with 2 threads; one shared atomic counter does not
   (its cache line travels between the cores at every increment).

       ./threads                    1 and 2 threads of each body, then each in
                                    as many threads as there are CPUs
       ./threads --threads=4        those last two in 4 threads
       ./threads --format=json      "threads", "slowest_thread_ns" and
                                    "iterations_per_second_all_threads" per entry

   Each row's time is the time an increment takes one thread (the median over
   the threads and the samples); after the distribution the row says how
   slow the slowest thread was and how many increments all threads made
   together per second. */
#include <chronoscope.h>

static unsigned long shared_counter;   /* every thread adds to this one */

/* The counter lives on the thread's own stack: nothing is shared. */
static void private_counter(void *ctx, uint64_t iters)
{
    uint64_t i, n = 0;
    (void)ctx;
    for (i = 0; i < iters; i++) { n++; chrono_keep(n); }
}

static void shared_atomic(void *ctx, uint64_t iters)
{
    volatile unsigned long *c = (volatile unsigned long *)ctx;
    uint64_t i;
    for (i = 0; i < iters; i++) (void)chrono_atomic_add(c, 1);
}

int main(int argc, char **argv)
{
    chrono_entry table[6];
    table[0] = chrono_with_threads(chrono_bench("private/threads:1", private_counter, NULL), 1);
    table[1] = chrono_with_threads(chrono_bench("private/threads:2", private_counter, NULL), 2);
    table[2] = chrono_with_threads(chrono_bench("shared/threads:1", shared_atomic, &shared_counter), 1);
    table[3] = chrono_with_threads(chrono_bench("shared/threads:2", shared_atomic, &shared_counter), 2);
    table[4] = chrono_with_threads(chrono_bench("private", private_counter, NULL), CHRONO_THREADS_CLI);
    table[5] = chrono_with_threads(chrono_bench("shared", shared_atomic, &shared_counter), CHRONO_THREADS_CLI);
    return chrono_main(argc, argv, table, 6);
}
