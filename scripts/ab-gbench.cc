// ab-gbench.cc — a benchmark module's runs under Google Benchmark, for
// scripts/ab-error-rates.sh's side-by-side figures (separate runs, compare.py).
//     ab-gbench MODULE.so [--benchmark_... flags]
// Each run entry of the module's table (CHRONO_MODULE, program.h) becomes a
// Google Benchmark that calls the entry's body once per iteration.
#include <benchmark/benchmark.h>
#include <chronoscope.h>
#include <dlfcn.h>
#include <cstdio>

static void run_entry(benchmark::State &state, const chrono_entry *e)
{
    for (auto _ : state) e->fn(e->ctx, 1);
}

int main(int argc, char **argv)
{
    if (argc < 2) { std::fprintf(stderr, "usage: %s MODULE.so [--benchmark_... flags]\n", argv[0]); return 2; }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    const chrono_module *m = h ? static_cast<const chrono_module *>(dlsym(h, CHRONO_MODULE_SYMBOL)) : nullptr;
    if (!m || m->magic != CHRONO_MODULE_MAGIC || m->version != CHRONO_VERSION_NUM) {
        std::fprintf(stderr, "%s: '%s' is not a benchmark module of chronoscope %s\n", argv[0], argv[1], CHRONO_VERSION_STRING);
        return 2;
    }
    const chrono_entry *t = nullptr;
    size_t n = m->table(&t);
    for (size_t i = 0; i < n; i++)
        if (t[i].kind == CHRONO_ENTRY_RUN && !t[i].setup) benchmark::RegisterBenchmark(t[i].name, run_entry, &t[i]);
    argv[1] = argv[0];
    argc--;
    argv++;
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
