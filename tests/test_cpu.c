/* tests/test_cpu.c — TAP test of chronoscope/cpu.h: pinning (values checked
   with the OS's own calls), CPU queries and the environment reader.
   Linux: pthreads + sched_*; Windows: CreateThread + SetThreadAffinityMask.
   Exit 0 when every test passes, else 1. */
#include "chronoscope/cpu.h"

#include <stdlib.h>

#if defined(_WIN32)
#  define T_WIN 1
typedef DWORD_PTR t_mask;
#elif defined(__linux__)
#  define T_LINUX 1
#  include <pthread.h>
#  include <semaphore.h>
typedef cpu_set_t t_mask;
#endif

#define NTESTS 56

static int t_n, t_failed;

static void ok(int cond, const char *what)
{
    ++t_n;
    if (!cond) t_failed = 1;
    printf("%sok %d - %s\n", cond ? "" : "not ", t_n, what);
}

static void skip(const char *what, const char *why)
{
    printf("ok %d - %s # SKIP %s\n", ++t_n, what, why);
}

/* ---- platform helpers for the checks ---------------------------------- */
#if defined(T_LINUX) || defined(T_WIN)
static int t_get(t_mask *m)
{
#  if defined(T_LINUX)
    CPU_ZERO(m);
    return sched_getaffinity(0, sizeof *m, m);
#  else
    DWORD_PTR proc, sys, old;
    if (!GetProcessAffinityMask(GetCurrentProcess(), &proc, &sys)) return -1;
    old = SetThreadAffinityMask(GetCurrentThread(), proc);
    if (old == 0) return -1;
    SetThreadAffinityMask(GetCurrentThread(), old);
    *m = old;
    return 0;
#  endif
}

static int t_set(const t_mask *m)
{
#  if defined(T_LINUX)
    return sched_setaffinity(0, sizeof *m, m);
#  else
    return SetThreadAffinityMask(GetCurrentThread(), *m) ? 0 : -1;
#  endif
}

static int t_has(const t_mask *m, int c)
{
#  if defined(T_LINUX)
    return c >= 0 && c < CPU_SETSIZE && CPU_ISSET(c, m);
#  else
    return c >= 0 && c < (int)(8 * sizeof *m) && ((*m >> c) & 1u);
#  endif
}

static int t_count(const t_mask *m)
{
#  if defined(T_LINUX)
    return CPU_COUNT(m);
#  else
    return chrono__popcount(*m);
#  endif
}

static int t_equal(const t_mask *a, const t_mask *b)
{
#  if defined(T_LINUX)
    return CPU_EQUAL(a, b);
#  else
    return *a == *b;
#  endif
}

static int t_only(const t_mask *m, int c) { return t_count(m) == 1 && t_has(m, c); }

static void t_make_one(t_mask *m, int c)
{
#  if defined(T_LINUX)
    CPU_ZERO(m);
    CPU_SET(c, m);
#  else
    *m = (DWORD_PTR)1 << c;
#  endif
}

static int t_os_cpu(void)
{
#  if defined(T_LINUX)
    return sched_getcpu();
#  else
    return (int)GetCurrentProcessorNumber();
#  endif
}

static int t_max_cpu(void)
{
#  if defined(T_LINUX)
    return CPU_SETSIZE;
#  else
    return (int)(8 * sizeof(t_mask));
#  endif
}

/* Threads and semaphores */
#  if defined(T_LINUX)
typedef pthread_t t_thread;
typedef sem_t t_sem;
static void t_sem_init(t_sem *s) { sem_init(s, 0, 0); }
static void t_sem_post(t_sem *s) { sem_post(s); }
static void t_sem_wait(t_sem *s) { while (sem_wait(s) != 0) {} }
static void t_sem_free(t_sem *s) { sem_destroy(s); }
typedef void *t_ret;
#    define T_CALL
static int t_start(t_thread *t, t_ret (*fn)(void *), void *arg) { return pthread_create(t, NULL, fn, arg); }
static void t_join(t_thread t) { pthread_join(t, NULL); }
#  else
typedef HANDLE t_thread;
typedef HANDLE t_sem;
static void t_sem_init(t_sem *s) { *s = CreateSemaphoreA(NULL, 0, 1, NULL); }
static void t_sem_post(t_sem *s) { ReleaseSemaphore(*s, 1, NULL); }
static void t_sem_wait(t_sem *s) { WaitForSingleObject(*s, INFINITE); }
static void t_sem_free(t_sem *s) { CloseHandle(*s); }
typedef DWORD t_ret;
#    define T_CALL WINAPI
static int t_start(t_thread *t, t_ret (T_CALL *fn)(void *), void *arg)
{
    *t = CreateThread(NULL, 0, fn, arg, 0, NULL);
    return *t ? 0 : -1;
}
static void t_join(t_thread t) { WaitForSingleObject(t, INFINITE); CloseHandle(t); }
#  endif

struct t_side {
    int cpu;            /* CPU the side thread pins to */
    int rc;             /* its pin result */
    int unpin_rc;
    chrono_pin *foreign;/* a pin made by another thread, to try unpinning */
    t_sem pinned, go;
};

/* Pins itself, tells main, waits, unpins. */
static t_ret T_CALL t_side_pin(void *arg)
{
    struct t_side *s = (struct t_side *)arg;
    chrono_pin p;
    s->rc = chrono_cpu_pin(&p, s->cpu);
    t_sem_post(&s->pinned);
    t_sem_wait(&s->go);
    s->unpin_rc = chrono_cpu_unpin(&p);
    return 0;
}

/* Tries to unpin a pin made by the main thread. */
static t_ret T_CALL t_side_unpin(void *arg)
{
    struct t_side *s = (struct t_side *)arg;
    s->unpin_rc = chrono_cpu_unpin(s->foreign);
    return 0;
}
#endif /* T_LINUX || T_WIN */

#if defined(T_LINUX)
static int has_word(const char *hay, const char *word)
{
    size_t n = strlen(word);
    const char *h = hay;
    while ((h = strstr(h, word)) != NULL) {
        int left = h == hay || h[-1] == ' ' || h[-1] == '\t' || h[-1] == ':';
        int right = h[n] == '\0' || h[n] == ' ' || h[n] == '\n' || h[n] == '\t';
        if (left && right) return 1;
        h += n;
    }
    return 0;
}

/* Content of a sysfs file, trimmed, or "" */
static void t_read(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (!f) return;
    if (!fgets(buf, (int)n, f)) buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}
#endif

static void test_pinning(void)
{
#if defined(T_LINUX) || defined(T_WIN)
    t_mask orig, now, one;
    chrono_pin p;
    int c, allowed = 0, all_cpu = 1, all_only = 1, all_restore = 1, all_fields = 1, all_current = 1;
    int first = -1, second = -1, n = chrono_cpu_count(), rc, i, good;
    char diag[160];

    if (t_get(&orig) != 0) { printf("Bail out! cannot read the affinity mask\n"); exit(1); }

    /* 1 */
#  if defined(T_LINUX)
    ok(n == (int)sysconf(_SC_NPROCESSORS_ONLN), "chrono_cpu_count matches sysconf(_SC_NPROCESSORS_ONLN)");
#  else
    {
        SYSTEM_INFO si;
        GetSystemInfo(&si);
        ok(n == (int)si.dwNumberOfProcessors, "chrono_cpu_count matches GetSystemInfo");
    }
#  endif
    /* 2 */
    c = chrono_cpu_current();
    ok(c >= 0 && t_has(&orig, c), "chrono_cpu_current is a CPU of the allowed set");

    /* 3 */
    good = chrono_cpu_allowed(-1) == CHRONO_EINVAL && chrono_cpu_allowed(100000) == 0;
    for (c = 0; c < n + 4 && c < t_max_cpu(); c++)
        if (chrono_cpu_allowed(c) != t_has(&orig, c)) good = 0;
    ok(good, "chrono_cpu_allowed agrees with the OS mask (and -1 -> EINVAL, 100000 -> 0)");

    /* 4-8: pin to every allowed CPU */
    for (c = 0; c < t_max_cpu(); c++) {
        if (!t_has(&orig, c)) continue;
        allowed++;
        if (first < 0) first = c; else if (second < 0) second = c;
        rc = chrono_cpu_pin(&p, c);
        if (rc != 0 || p.pinned != 1 || p.cpu != c) all_fields = 0;
        if (t_os_cpu() != c) all_cpu = 0;
        if (chrono_cpu_current() != c) all_current = 0;
        if (t_get(&now) != 0 || !t_only(&now, c)) all_only = 0;
        sprintf(diag, "# cpu %d: rc %d, runs on %d, smt_siblings %d, topology \"%s\"\n",
                c, rc, t_os_cpu(), p.smt_siblings, p.topology);
        fputs(diag, stdout);
        if (chrono_cpu_unpin(&p) != 0 || p.pinned != 0) all_restore = 0;
        if (t_get(&now) != 0 || !t_equal(&now, &orig)) all_restore = 0;
    }
    ok(allowed >= 1 && all_fields, "chrono_cpu_pin(c) returns 0 and sets .pinned=1, .cpu=c for every allowed CPU");
    ok(allowed >= 1 && all_cpu, "after pinning, the OS says the thread runs on c, for every allowed CPU");
    ok(allowed >= 1 && all_current, "after pinning, chrono_cpu_current() == c");
    ok(allowed >= 1 && all_only, "after pinning, the thread's affinity mask is exactly {c}");
    ok(allowed >= 1 && all_restore, "chrono_cpu_unpin restores the original mask exactly");

    /* chrono_cpu_release: a pinned thread runs on every CPU it may again (what a
       process forked from it needs), the pin's saved mask still restores */
    rc = chrono_cpu_pin(&p, first);
    good = rc == 0 && chrono_cpu_release() == 0 && t_get(&now) == 0;
    for (c = 0; good && c < t_max_cpu(); c++)
        if (t_has(&orig, c) && !t_has(&now, c)) good = 0;
    ok(good && chrono_cpu_unpin(&p) == 0 && t_get(&now) == 0 && t_equal(&now, &orig),
       "chrono_cpu_release after pinning: every CPU of the original mask allowed again; unpin restores it");

    /* 9 */
    rc = chrono_cpu_pin(&p, first);
    good = rc == 0 && chrono_cpu_unpin(&p) == 0 && chrono_cpu_unpin(&p) == 0 && p.pinned == 0;
    ok(good && t_get(&now) == 0 && t_equal(&now, &orig), "unpin twice is harmless and leaves the original mask");

    /* 10 */
    good = 0;
    for (i = 0; i < 200 && !good; i++) {
        int before = t_os_cpu();
        rc = chrono_cpu_pin(&p, CHRONO_CPU_CURRENT);
        if (rc != 0 || p.cpu != t_os_cpu()) break;
        good = p.cpu == before;
        chrono_cpu_unpin(&p);
    }
    if (p.pinned) chrono_cpu_unpin(&p);
    ok(good, "CHRONO_CPU_CURRENT pins to the CPU the thread was on");

    /* 11 */
    rc = chrono_cpu_pin(&p, first);
    good = rc == 0 && p.smt_siblings >= 0 && p.topology[0] != '\0';
    chrono_cpu_unpin(&p);
#  if defined(T_LINUX) && !defined(CHRONO_USE_HWLOC)
    {
        char path[96], buf[64];
        sprintf(path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", first);
        t_read(path, buf, sizeof buf);
        if (buf[0]) ok(good && p.smt_siblings == chrono__cpulist_count(buf) - 1,
                       "smt_siblings and topology text filled from sysfs");
        else skip("smt_siblings and topology text filled", "no sysfs topology");
    }
#  else
    ok(good, "smt_siblings and topology text filled");
#  endif

    /* 12 */
    rc = chrono_cpu_pin(&p, 100000);
    ok((rc == CHRONO_EPIN || rc == CHRONO_EINVAL) && p.pinned == 0 && p.cpu == -1 &&
       t_get(&now) == 0 && t_equal(&now, &orig), "pinning to CPU 100000 fails and changes nothing");
    /* 13 */
    rc = chrono_cpu_pin(&p, -2);
    ok(rc == CHRONO_EINVAL && p.pinned == 0 && t_get(&now) == 0 && t_equal(&now, &orig),
       "pinning to CPU -2 is CHRONO_EINVAL and changes nothing");
    /* 14 */
    ok(chrono_cpu_pin(NULL, 0) == CHRONO_EINVAL && chrono_cpu_unpin(NULL) == CHRONO_EINVAL,
       "NULL pin -> CHRONO_EINVAL");

    /* 15: outside a restricted mask */
    if (second >= 0) {
        t_make_one(&one, first);
        if (t_set(&one) != 0) { ok(0, "restricting the mask"); }
        else {
            rc = chrono_cpu_pin(&p, second);
            good = rc == CHRONO_EPIN && p.pinned == 0 && chrono_cpu_allowed(second) == 0 &&
                   t_get(&now) == 0 && t_equal(&now, &one);
            t_set(&orig);
            ok(good, "pinning to a CPU outside the thread's mask is CHRONO_EPIN and changes nothing");
        }
    } else skip("pinning outside a restricted mask", "only one CPU allowed");

    /* 16-17: per thread: another thread's pin leaves this thread's mask alone */
    {
        struct t_side s;
        t_thread th;
        memset(&s, 0, sizeof s);
        s.cpu = second >= 0 ? second : first;
        t_sem_init(&s.pinned);
        t_sem_init(&s.go);
        if (t_start(&th, t_side_pin, &s) != 0) { ok(0, "thread start"); ok(0, "thread start"); }
        else {
            t_sem_wait(&s.pinned);
            good = t_get(&now) == 0 && t_equal(&now, &orig);
            t_sem_post(&s.go);
            t_join(th);
            ok(s.rc == 0 && s.unpin_rc == 0, "a second thread pins and unpins itself");
            ok(good, "while the second thread is pinned, the main thread's mask is unchanged");
        }
        t_sem_free(&s.pinned);
        t_sem_free(&s.go);
    }

    /* 18: unpin from a thread that did not pin is refused */
    {
        struct t_side s;
        t_thread th;
        memset(&s, 0, sizeof s);
        rc = chrono_cpu_pin(&p, first);
        s.foreign = &p;
        s.unpin_rc = 99;
        if (rc != 0 || t_start(&th, t_side_unpin, &s) != 0) ok(0, "foreign unpin setup");
        else {
            t_join(th);
            good = s.unpin_rc == CHRONO_EINVAL && p.pinned == 1 && t_get(&now) == 0 && t_only(&now, first);
            good = good && chrono_cpu_unpin(&p) == 0 && t_get(&now) == 0 && t_equal(&now, &orig);
            ok(good, "unpin from another thread is CHRONO_EINVAL; the pinning thread can still unpin");
        }
    }
#else
    chrono_pin p;
    int i;
    ok(chrono_cpu_pin(&p, 0) == CHRONO_ENOTSUP && p.pinned == 0, "pinning is CHRONO_ENOTSUP here");
    ok(chrono_cpu_current() == CHRONO_ENOTSUP, "chrono_cpu_current is CHRONO_ENOTSUP here");
    ok(chrono_cpu_unpin(&p) == 0, "unpin of an unpinned pin is harmless");
    for (i = 4; i <= 18; i++) skip("pinning check", "no pinning on this platform");
#endif
}

static void test_env(void)
{
    chrono_env e;
    unsigned b, freq;
    int rc, i, good, known_sharing = 0;
    const char *generic;

    /* 19-20 */
    ok(chrono_env_read(NULL) == CHRONO_EINVAL, "chrono_env_read(NULL) -> CHRONO_EINVAL");
    rc = chrono_env_read(&e);
    ok(rc == 0, "chrono_env_read returns 0");
    printf("# brand \"%s\" vendor \"%s\" cpus %d governor \"%s\" boost %d smt %d vm %d \"%s\"\n",
           e.cpu_brand, e.cpu_vendor, e.online_cpus, e.governor, e.boost, e.smt, e.in_vm, e.hypervisor);
    printf("# clocksource \"%s\" kernel \"%s\" host \"%s\" compiler \"%s\" opt %d asserts %d load %.2f warnings 0x%x\n",
           e.clocksource, e.kernel, e.hostname, e.compiler, e.optimized, e.asserts, e.loadavg1, e.warnings);
    for (i = 0; i < e.ncaches; i++)
        printf("# cache L%d %s %ld bytes, shared by %d\n", e.caches[i].level, e.caches[i].type,
               e.caches[i].size, e.caches[i].num_sharing);

    /* 21-22 */
#if defined(CHRONO__X86)
    ok(e.cpu_brand[0] != '\0' && e.cpu_brand[0] != ' ' && e.cpu_brand[strlen(e.cpu_brand) - 1] != ' ',
       "x86: cpu_brand non-empty and trimmed");
    ok(e.cpu_vendor[0] != '\0', "x86: cpu_vendor non-empty");
#else
    skip("cpu_brand non-empty", "not x86");
    skip("cpu_vendor non-empty", "not x86");
#endif

    /* 23 */
#if defined(T_LINUX)
    {
        FILE *f = fopen("/proc/cpuinfo", "r");
        char line[8192];
        int flag = -1;
        while (f && fgets(line, sizeof line, f))
            if (strncmp(line, "flags", 5) == 0) { flag = has_word(line, "hypervisor"); break; }
        if (f) fclose(f);
        if (flag >= 0) ok(e.in_vm == flag, "in_vm equals the 'hypervisor' flag in /proc/cpuinfo");
        else skip("in_vm equals the 'hypervisor' flag", "no flags line in /proc/cpuinfo");
    }
#else
    ok(e.in_vm == 0 || e.in_vm == 1, "in_vm is 0 or 1");
#endif
    /* 24 */
    ok(e.compiler[0] != '\0', "compiler non-empty");
    /* 25 */
#if defined(T_LINUX)
    {
        struct utsname u;
        ok(uname(&u) == 0 && strstr(e.kernel, u.release) != NULL && strncmp(e.kernel, "Linux", 5) == 0,
           "kernel contains uname's release");
    }
#elif defined(T_WIN)
    ok(strncmp(e.kernel, "Windows", 7) == 0, "kernel starts with \"Windows\"");
#elif defined(CHRONO__CPU_POSIX)
    ok(e.kernel[0] != '\0', "kernel non-empty (uname)");
#else
    ok(e.kernel[0] == '\0', "kernel unknown (\"\") without an OS facility");
#endif
    /* 26 */
#if defined(T_LINUX)
    {
        struct utsname u;
        ok(uname(&u) == 0 && strncmp(e.hostname, u.nodename, sizeof e.hostname - 1) == 0, "hostname is uname's nodename");
    }
#elif defined(T_WIN)
    {
        char h[64];
        DWORD n = sizeof h;
        ok(GetComputerNameA(h, &n) && strcmp(h, e.hostname) == 0, "hostname is GetComputerNameA");
    }
#else
    skip("hostname", "no reference here");
#endif
    /* 27 */
    i = chrono_cpu_count();
    ok(e.online_cpus == (i >= 1 ? i : -1), "online_cpus equals chrono_cpu_count (-1 when unknown)");
    /* 28 */
#if defined(__OPTIMIZE__)
    ok(e.optimized == 1 && !(e.warnings & CHRONO_WARN_DEBUG_BUILD), "optimised TU: optimized=1, no DEBUG_BUILD warning");
#else
    ok(e.optimized == 0 && (e.warnings & CHRONO_WARN_DEBUG_BUILD), "unoptimised TU: optimized=0, DEBUG_BUILD warning");
#endif
    /* 29 */
#if defined(NDEBUG)
    ok(e.asserts == 0 && !(e.warnings & CHRONO_WARN_ASSERTS), "NDEBUG: asserts=0, no ASSERTS warning");
#else
    ok(e.asserts == 1 && (e.warnings & CHRONO_WARN_ASSERTS), "no NDEBUG: asserts=1, ASSERTS warning");
#endif
    /* 30 */
    ok(!!(e.warnings & CHRONO_WARN_VM) == (e.in_vm == 1), "VM warning bit equals in_vm");
    /* 31 */
    freq = (e.governor[0] && strcmp(e.governor, "performance") != 0) || e.boost == 1;
    ok(!!(e.warnings & CHRONO_WARN_FREQ_SCALING) == (freq != 0) && e.boost >= -1 && e.boost <= 1,
       "FREQ_SCALING bit follows governor/boost");
    /* 32 */
#if defined(T_LINUX)
    {
        /* Read here too, before and after (the kernel updates it every 5 s). */
        char before[128], after[128];
        double lo, hi;
        char what[160];
        t_read("/proc/loadavg", before, sizeof before);
        chrono_env_read(&e);
        t_read("/proc/loadavg", after, sizeof after);
        lo = atof(before);   /* "0.34 0.17 ...": the C locale's decimal point */
        hi = atof(after);
        if (lo > hi) { double t = lo; lo = hi; hi = t; }
        snprintf(what, sizeof what, "loadavg1 %.2f equals /proc/loadavg's first field (%.2f..%.2f)", e.loadavg1, lo, hi);
        ok(before[0] && e.loadavg1 >= lo - 0.005 && e.loadavg1 <= hi + 0.005, what);
    }
#else
    ok(e.loadavg1 == -1.0 || e.loadavg1 >= 0.0, "loadavg1 is -1 or a load");
#endif
    /* 33 */
    ok(!!(e.warnings & CHRONO_WARN_LOAD) == (e.loadavg1 >= 0 && e.online_cpus > 0 && e.loadavg1 > e.online_cpus / 2.0),
       "LOAD bit follows loadavg1 > online_cpus/2");
    /* 34 */
    ok((e.warnings & (CHRONO_WARN_UNPINNED | CHRONO_WARN_NO_INVARIANT_TSC | CHRONO_WARN_MIGRATED)) == 0,
       "session-only bits are not set by the reader");
    /* 35-37 */
#if defined(T_LINUX)
    {
        char buf[64];
        long v;
        t_read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof buf);
        ok(strcmp(buf, e.governor) == 0, "governor equals sysfs (or \"\" when absent)");
        t_read("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf, sizeof buf);
        ok(strcmp(buf, e.clocksource) == 0 && e.clocksource[0] != '\0', "clocksource equals sysfs");
        t_read("/sys/devices/system/cpu/smt/active", buf, sizeof buf);
        v = buf[0] ? strtol(buf, NULL, 10) != 0 : -1;
        ok(e.smt == v, "smt equals /sys/devices/system/cpu/smt/active (or -1)");
    }
#else
    skip("governor equals sysfs", "not Linux");
    skip("clocksource equals sysfs", "not Linux");
    ok(e.smt >= -1 && e.smt <= 1, "smt is -1, 0 or 1");
#endif
    /* 38: where sysfs says who shares a cache, -1 (unknown) is not an answer. */
#if defined(T_LINUX)
    {
        char buf[64];
        t_read("/sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list", buf, sizeof buf);
        known_sharing = buf[0] != 0;
    }
#endif
    good = e.ncaches >= 0 && e.ncaches <= 8;
    for (i = 0; i < e.ncaches; i++) {
        const chrono_cache *c = &e.caches[i];
        if (c->level < 1 || c->level > 4 || c->size <= 0 || c->num_sharing == 0 || c->num_sharing < -1 ||
            (known_sharing && c->num_sharing < 1) ||
            (strcmp(c->type, "Data") && strcmp(c->type, "Instruction") && strcmp(c->type, "Unified")))
            good = 0;
    }
#if defined(CHRONO__X86)
    good = good && e.ncaches > 0;
#endif
    ok(good, "caches: levels 1-4, known types, positive sizes (and found on x86)");

    /* 39-40 */
    good = 1;
    generic = chrono_env_warning(CHRONO_WARN_LAST << 1);
    for (b = 1; b <= CHRONO_WARN_LAST; b <<= 1) {
        unsigned c;
        const char *t = chrono_env_warning(b);
        if (!t || !t[0] || strcmp(t, generic) == 0) good = 0;
        for (c = 1; c < b; c <<= 1)
            if (strcmp(t, chrono_env_warning(c)) == 0) good = 0;
    }
    ok(good, "every warning bit has its own non-empty text");
    ok(generic && generic[0] && strcmp(generic, chrono_env_warning(0)) == 0 &&
       strcmp(generic, chrono_env_warning(CHRONO_WARN_VM | CHRONO_WARN_LOAD)) == 0 &&
       strcmp(generic, chrono_env_warning(0x80000000u)) == 0,
       "unknown, zero and multi-bit values give one generic text");
}

/* Parsed and trimmed environment text: no float noise, no repeated signatures. */
static void test_env_text(void)
{
    static const char *const in[] = { "bhyve bhyve", "KVMKVMKVM", "VMwareVMware", "TCGTCGTCGTCG", "Microsoft Hv", "ab" };
    static const char *const want[] = { "bhyve", "KVM", "VMware", "TCG", "Microsoft Hv", "ab" };
    char buf[16], num[32];
    int i, good = 1;
    for (i = 0; i < 6; i++) {
        strcpy(buf, in[i]);
        chrono__str_unrepeat(buf);
        if (strcmp(buf, want[i]) != 0) { good = 0; printf("# %s -> %s, want %s\n", in[i], buf, want[i]); }
    }
    ok(good, "hypervisor signatures lose their repeats (bhyve bhyve, KVMKVMKVM, VMwareVMware, TCG x4)");
#if defined(__linux__)
    snprintf(num, sizeof num, "%.15g", chrono__parse_decimal("0.24 0.20 0.15"));
    ok(chrono__parse_decimal("0.24") == (double)0.24 && chrono__parse_decimal("12.5") == 12.5 && strcmp(num, "0.24") == 0,
       "load averages parse to the nearest double (0.24, not 0.24000000000000002)");
#else
    (void)num;
    skip("load averages parse to the nearest double", "/proc/loadavg is Linux's");
#endif
}

/* The thread's CPU time grows with work done and never goes back (the
   elapsed-time side is test_bench's: a sleeping body shows little of it). */
static void test_thread_cpu(void)
{
    double c0 = chrono_cpu_thread_ns(), prev = c0, c = c0;
    volatile uint64_t x = 0;
    long rounds = 0, back = 0;
    if (c0 != c0) { skip("thread CPU time grows with work", "no thread CPU clock here"); return; }
    while (c - c0 < 20e6 && rounds < 100000) {   /* 20 ms of CPU; a round is ~0.1 ms */
        uint64_t i;
        for (i = 0; i < 100000; i++) x += i;
        c = chrono_cpu_thread_ns();
        back += c < prev;
        prev = c;
        rounds++;
    }
    ok(c - c0 >= 20e6 && back == 0 && x > 0, "thread CPU time: a busy loop adds 20 ms to it, never going back");
}

/* The emulator detector on hand-made facts: each signal alone, the order
   between them, and the near misses that must not count. */
static void test_emulator_facts(void)
{
    static const char maps_qemu[] =
        "00400000-00401000 r--p 00000000 fe:00 12 /tmp/prog\n"
        "7f0000000000-7f0000100000 r-xp 00000000 fe:00 34 /usr/bin/qemu-aarch64-static\n";
    static const char maps_near[] =
        "00400000-00401000 r--p 00000000 fe:00 12 /home/u/myqemu-tool\n"
        "7f0000000000-7f0000100000 r-xp 00000000 fe:00 34 /opt/qemu-8.2/lib/libc.so.6\n"
        "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n";
    static const char maps_vg[] = "04000000-04001000 r-xp 00000000 fe:00 56 /usr/libexec/valgrind/vgpreload_core-amd64-linux.so\n";
    static const char cpu_x86[] = "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu tsc hypervisor\n";
    static const char cpu_arm[] = "processor\t: 0\nBogoMIPS\t: 48.00\nCPU implementer\t: 0x41\n";
    chrono__emu_facts f;
    int good;
    memset(&f, 0, sizeof f);
    f.code_x86 = 1;
    f.hypervisor = "KVM"; f.comm = "callconv"; f.maps = maps_near; f.cpuinfo = cpu_x86; f.ld_preload = "libfoo.so";
    ok(!strcmp(chrono__emulator_of(&f), ""), "emulator: KVM, a program of its own name, x86 cpuinfo on x86 code: none");
    f.hypervisor = "TCG";
    ok(!strcmp(chrono__emulator_of(&f), "QEMU TCG"), "emulator: CPUID signature TCG is QEMU TCG");
    f.hypervisor = "KVM"; f.comm = "qemu-i386";
    ok(!strcmp(chrono__emulator_of(&f), "qemu-user"), "emulator: the process is qemu-i386 (comm): qemu-user");
    f.comm = "callconv"; f.maps = maps_qemu;
    ok(!strcmp(chrono__emulator_of(&f), "qemu-user"), "emulator: a qemu-* binary in the kernel's maps: qemu-user");
    f.maps = maps_near;
    good = !strcmp(chrono__emulator_of(&f), "");
    f.code_x86 = 0; f.cpuinfo = cpu_arm;
    good &= !strcmp(chrono__emulator_of(&f), "");
    ok(good, "emulator: 'qemu-' inside a directory or a longer name, and arm cpuinfo on arm code: none");
    f.cpuinfo = cpu_x86;
    good = !strcmp(chrono__emulator_of(&f), "qemu-user");
    f.code_x86 = 1; f.cpuinfo = cpu_arm;
    good &= !strcmp(chrono__emulator_of(&f), "qemu-user");
    ok(good, "emulator: another architecture's cpuinfo (x86 under arm code, arm under x86 code): qemu-user");
    f.cpuinfo = cpu_x86; f.hypervisor = "TCG"; f.comm = "qemu-i386";
    ok(!strcmp(chrono__emulator_of(&f), "qemu-user"), "emulator: qemu-user and its TCG signature: qemu-user");
    f.maps = maps_vg;
    good = !strcmp(chrono__emulator_of(&f), "valgrind");
    f.maps = maps_near; f.ld_preload = "/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so";
    good &= !strcmp(chrono__emulator_of(&f), "valgrind");
    f.ld_preload = NULL; f.valgrind = 1;
    good &= !strcmp(chrono__emulator_of(&f), "valgrind");
    ok(good, "emulator: valgrind by its preload (maps, LD_PRELOAD) or client request, before qemu's signals");
    memset(&f, 0, sizeof f);
    ok(!strcmp(chrono__emulator_of(&f), ""), "emulator: nothing known: none");
}

/* The environment names the emulator it runs on, and warns exactly then. */
static void test_emulator_env(void)
{
    chrono_env e;
    char comm[64] = "";
    const char *want = NULL;
    int rc = chrono_env_read(&e);
#if defined(__linux__)
    FILE *f = fopen("/proc/self/comm", "r");
    if (f) { if (!fgets(comm, sizeof comm, f)) comm[0] = '\0'; fclose(f); }
#endif
    if (chrono__under_valgrind()) want = "valgrind";
    else if (!strncmp(comm, "qemu-", 5)) want = "qemu-user";   /* run as qemu-i386 PROG (the cross legs) */
    printf("# emulator '%s', comm %s", e.emulator, comm[0] ? comm : "unknown\n");
    ok(rc == 0 && (want ? !strcmp(e.emulator, want) : 1) && !(e.emulator[0]) == !(e.warnings & CHRONO_WARN_EMULATED),
       "environment: the emulator this test runs on is named, and EMULATED is set exactly when one is");
    ok(rc == 0 && (strcmp(e.emulator, "qemu-user") != 0 || strcmp(e.hypervisor, "TCG") != 0),
       "environment: under qemu-user the hypervisor is not qemu's TCG");
}

/* A CPU list's count, against lists of known size (the topology test above
   reads sysfs through the same function, so only this can catch it wrong). */
static void test_cpulist_count(void)
{
#if defined(T_LINUX)
    ok(chrono__cpulist_count("0-3,8,10-11") == 7 && chrono__cpulist_count("5") == 1 &&
       chrono__cpulist_count("0-1") == 2 && chrono__cpulist_count("x") == -1 &&
       chrono__cpulist_count("3-1") == -1, "CPU lists counted: 0-3,8,10-11 is 7, 5 is 1, 0-1 is 2, x and 3-1 refused");
#else
    skip("CPU lists counted", "Linux's sysfs lists only");
#endif
}

int main(void)
{
    printf("1..%d\n", NTESTS);
    test_thread_cpu();
    test_pinning();
    test_env();
    test_env_text();
    test_emulator_facts();
    test_emulator_env();
    test_cpulist_count();
    if (t_n != NTESTS) {
        printf("# planned %d tests, ran %d\n", NTESTS, t_n);
        return 1;
    }
    return t_failed ? 1 : 0;
}
