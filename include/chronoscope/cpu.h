/* chronoscope/cpu.h — CPU pinning and the facts about the machine that
   change a measurement (CPU, governor, boost, SMT, VM, clock source,
   compiler, optimisation, load).

   Usage:

       chrono_pin pin;
       chrono_env env;
       int rc = chrono_cpu_pin(&pin, CHRONO_CPU_CURRENT);  // this thread only
       if (rc < 0) fprintf(stderr, "pin: %s\n", chrono_strerror(rc));
       else        printf("pinned to cpu %d, %s\n", pin.cpu, pin.topology);
       ...timed work...
       chrono_cpu_unpin(&pin);            // restores the saved mask

       if (chrono_env_read(&env) == 0) {
           unsigned b;
           printf("%s, %s, %s\n", env.cpu_brand, env.kernel, env.compiler);
           for (b = 1; b != 0 && b <= CHRONO_WARN_LAST; b <<= 1)
               if (env.warnings & b) printf("warning: %s\n", chrono_env_warning(b));
       }

   Configuration:
       CHRONO_USE_HWLOC   undefined: topology from sysfs (Linux) or
                          GetLogicalProcessorInformation (Windows).
                          Defined: the core and its SMT siblings come from
                          hwloc's topology (link with -lhwloc).

   Functions:
       chrono_cpu_current()     CPU the calling thread runs on now
       chrono_cpu_count()       online CPUs
       chrono_cpu_thread_ns()   the calling thread's CPU time so far, ns
                                (CLOCK_THREAD_CPUTIME_ID; GetThreadTimes on
                                Windows, in its 100 ns units); NAN elsewhere
       chrono_cpu_allowed(cpu)  1 if cpu is in the calling thread's affinity mask
       chrono_cpu_pin(p, cpu)   pin the CALLING THREAD (never the process, so
                                threads the benchmark spawns are not pinned);
                                cpu = CHRONO_CPU_CURRENT stays where it is.
                                The old mask is saved inside *p (no allocation).
                                *p need not be initialised; do not pin an
                                already pinned *p again before unpinning it.
       chrono_cpu_unpin(p)      restore the saved mask; call it from the thread
                                that pinned (another thread gets CHRONO_EINVAL).
                                Harmless when not pinned or called twice.
       chrono_cpu_release()     let the calling thread run on every CPU again
                                (the kernel keeps it within its cpuset): for a
                                process forked from a pinned thread, which
                                inherits the pin; the spawner's children call it
       chrono_env_read(e)       fill *e; missing files leave fields "unknown"; with
                                page-table isolation (.pti) and the CPU bugs'
                                mitigations (.mitigations) on Linux
       The CHRONO_WARN_* bits in .warnings, their texts (chrono_env_warning)
       and names (chrono_env_warning_name) are base.h's, beside the errors.

   Platforms:
       Linux     sched_setaffinity/sched_getaffinity(0) (per thread),
                 sched_getcpu, sysfs, /proc, uname
       Windows   SetThreadAffinityMask, GetCurrentProcessorNumber,
                 GetLogicalProcessorInformation; processor group of the
                 calling thread only (CPUs 0..63 of that group)
       macOS and other POSIX   no pinning (CHRONO_ENOTSUP), sysconf, uname,
                 getloadavg (macOS)
       anything else           every query is CHRONO_ENOTSUP / unknown
       x86 everywhere          CPUID: brand, vendor, hypervisor, caches
                               (when the OS does not list them)
   CHRONO_CPU_HAVE_PIN is 1 where pinning exists, else 0.

   Limits: Linux masks are cpu_set_t (CPU_SETSIZE CPUs, 1024 on glibc);
   with more CPUs the pinning calls return CHRONO_ENOTSUP.  The compiler,
   optimisation and assertion facts describe the translation unit that
   compiles these inline functions (normally the user's own). */
#ifndef CHRONOSCOPE_CPU_H
#define CHRONOSCOPE_CPU_H

#include "base.h"

#define CHRONO_CPU_HAVE_PIN (CHRONO__OS_LINUX || CHRONO__OS_WINDOWS)   /* 1 where pinning exists */

/* ---- types ------------------------------------------------------------- */
#define CHRONO_CPU_CURRENT (-1)

typedef struct chrono_pin {
    int cpu;            /* CPU pinned to, -1 when not pinned */
    int pinned;         /* 1 while pinned */
    int smt_siblings;   /* number of other PUs sharing the core, -1 unknown */
    char topology[64];  /* e.g. "core 1 (PUs 1,3)", "" when unknown */
    /* private */
    long chrono__pinned_tid;           /* id of the thread that pinned */
    uint64_t chrono__saved[16];        /* the mask before pinning (1024 CPUs; a DWORD_PTR on
                                          Windows) */
} chrono_pin;

typedef struct chrono_cache {
    int level;          /* 1, 2, 3 ... */
    char type[12];      /* "Data", "Instruction", "Unified" */
    long size;          /* bytes */
    int num_sharing;    /* logical CPUs sharing it, -1 unknown */
} chrono_cache;

typedef struct chrono_env {
    char cpu_brand[64];     /* CPUID brand string, else /proc/cpuinfo "model name", "" */
    char cpu_vendor[16];    /* CPUID leaf 0 vendor, "" */
    int  online_cpus;       /* -1 unknown */
    char governor[32];      /* cpufreq scaling_governor of cpu0, "" if absent */
    int  boost;             /* 1/0, -1 unknown */
    int  smt;               /* 1/0 SMT active, -1 unknown */
    int  in_vm;             /* 1 under a hypervisor, 0 otherwise */
    char hypervisor[16];    /* CPUID 0x40000000 signature or /sys/hypervisor/type, "" */
    /* the code runs on an emulator: "qemu-user", "QEMU TCG", "valgrind"; "" */
    char emulator[24];
    char clocksource[32];   /* Linux current_clocksource, "" */
    char kernel[96];        /* "Linux 6.1.0-... x86_64", "Windows x86_64" */
    int  pti;               /* page-table isolation: 1 on (meltdown "Mitigation: PTI": every system
                               call switches page tables), 0 off, -1 unknown */
    char mitigations[160];  /* " spectre_v2=Mitigation: Retpolines;" per affected CPU bug (Linux's
                               /sys/devices/system/cpu/vulnerabilities, "Not affected" left out,
                               each value cut at 40 bytes); "" none or unknown (pti -1) */
    char hostname[64];
    char compiler[96];      /* "gcc 12.2.0", "clang 14.0.6", "MSVC 1939" */
    int  optimized;         /* 1/0 (__OPTIMIZE__), -1 where the compiler does not say */
    int  asserts;           /* 1 when NDEBUG is not defined */
    double loadavg1;        /* 1-minute load average, -1 unknown */
    chrono_cache caches[8]; /* cpu0's caches, lowest level first */
    int ncaches;            /* 0 if unknown */
    unsigned warnings;      /* CHRONO_WARN_DEBUG_BUILD, _VM, _FREQ_SCALING, _LOAD, _ASSERTS,
                               _EMULATED */
} chrono_env;

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
/* ---- CPU queries ------------------------------------------------------- */
CHRONO_API int chrono_cpu_current(void);

/* Context switches of the calling thread so far (voluntary and not), or a
   negative error where the OS does not say.  A sample during which this
   changes was interrupted by the scheduler: its time includes another
   thread's. */
CHRONO_API long chrono_cpu_switches(void);
/* The involuntary ones only (the scheduler took the CPU away; Linux's
   ru_nivcsw): a body that blocks by design (a pipe, a child process) switches
   out voluntarily, and that is its work, not an interruption. */
CHRONO_API long chrono_cpu_switches_involuntary(void);

CHRONO_API int chrono_cpu_count(void);
/* The calling thread's CPU time so far (user + system), ns; NAN where the OS
   does not say.  A body that sleeps or blocks adds little to it. */
CHRONO_API double chrono_cpu_thread_ns(void);
CHRONO_API int chrono_cpu_allowed(int cpu);
CHRONO_API int chrono_cpu_pin(chrono_pin *p, int cpu);
CHRONO_API int chrono_cpu_unpin(chrono_pin *p);
CHRONO_API int chrono_cpu_release(void);
CHRONO_API int chrono_env_read_at(chrono_env *e, unsigned long caller);
/* Fill *e; .optimized and .asserts describe the file that calls it.
   CHRONO_EVERSION when that file saw another version of the header. */
#define chrono_env_read(e) chrono_env_read_at((e), CHRONO__CALLER)
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_CPU_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_CPU_IMPL)
#define CHRONOSCOPE_CPU_IMPL

#if CHRONO__OS_WINDOWS
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#elif CHRONO__OS_LINUX
#  include <sched.h>
#  include <errno.h>
#  include <unistd.h>
#  include <sys/syscall.h>
#  include <sys/utsname.h>
#  include <sys/resource.h>
#elif CHRONO__OS_POSIX
#  include <unistd.h>
#  include <sys/utsname.h>
#endif
#if !CHRONO__OS_WINDOWS
#  include <time.h>   /* clock_gettime(CLOCK_THREAD_CPUTIME_ID) */
#endif
#if defined(CHRONO_USE_HWLOC)
#  include <hwloc.h>
#endif

/* Linux affinity masks.  glibc and musl declare cpu_set_t, sched_getcpu and
   RUSAGE_THREAD only under _GNU_SOURCE; where a system header came first
   without it, the same system calls are made raw, with a mask of our own. */
#if CHRONO__OS_LINUX
#  if defined(CPU_SETSIZE)
typedef cpu_set_t chrono__mask;
#    define CHRONO__MASK_CPUS CPU_SETSIZE
CHRONO__PRIVATE int chrono__mask_get(chrono__mask *m)
{
    CPU_ZERO(m);
    return sched_getaffinity(0, sizeof *m, m);
}
CHRONO__PRIVATE int chrono__mask_set(const chrono__mask *m)
{
    return sched_setaffinity(0, sizeof *m, m);
}
CHRONO__PRIVATE int chrono__mask_has(const chrono__mask *m, int cpu)
{
    return cpu < CHRONO__MASK_CPUS && CPU_ISSET(cpu, m);
}
CHRONO__PRIVATE void chrono__mask_only(chrono__mask *m, int cpu) { CPU_ZERO(m); CPU_SET(cpu, m); }
CHRONO__PRIVATE void chrono__mask_all(chrono__mask *m)
{
    int cpu;
    CPU_ZERO(m);
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++) CPU_SET(cpu, m);
}
CHRONO__PRIVATE int chrono__getcpu(void) { return sched_getcpu(); }
#  else
#    if defined(__GLIBC__) && !defined(__USE_MISC)
long syscall(long number, ...);   /* glibc has it whatever the feature macros say */
#    endif
typedef struct chrono__mask {
    unsigned long bits[1024 / (8 * sizeof(unsigned long))];
} chrono__mask;
#    define CHRONO__MASK_CPUS 1024
#    define CHRONO__MASK_WORD (8 * (int)sizeof(unsigned long))
CHRONO__PRIVATE int chrono__mask_get(chrono__mask *m)
{
    memset(m, 0, sizeof *m);
    /* the kernel returns the size */
    return syscall(SYS_sched_getaffinity, 0, sizeof *m, m) > 0 ? 0 : -1;
}
CHRONO__PRIVATE int chrono__mask_set(const chrono__mask *m)
{
    return (int)syscall(SYS_sched_setaffinity, 0, sizeof *m, m);
}
CHRONO__PRIVATE int chrono__mask_has(const chrono__mask *m, int cpu)
{
    return cpu < CHRONO__MASK_CPUS &&
           ((m->bits[cpu / CHRONO__MASK_WORD] >> (cpu % CHRONO__MASK_WORD)) & 1ul);
}
CHRONO__PRIVATE void chrono__mask_all(chrono__mask *m) { memset(m, 0xff, sizeof *m); }
CHRONO__PRIVATE void chrono__mask_only(chrono__mask *m, int cpu)
{
    memset(m, 0, sizeof *m);
    m->bits[cpu / CHRONO__MASK_WORD] = 1ul << (cpu % CHRONO__MASK_WORD);
}
CHRONO__PRIVATE int chrono__getcpu(void)
{
    unsigned c = 0;
    return syscall(SYS_getcpu, &c, (void *)0, (void *)0) == 0 ? (int)c : -1;
}
#  endif
#  if !defined(RUSAGE_THREAD)
#    define RUSAGE_THREAD 1   /* Linux's value; glibc names it only under _GNU_SOURCE */
#  endif
/* The saved mask lives in chrono_pin's opaque storage. */
typedef char
    chrono__mask_fits[sizeof(chrono__mask) <= sizeof(((chrono_pin *)0)->chrono__saved) ? 1 : -1];
#endif

CHRONO__EXTERN_C_BEGIN

/* ---- Linux file readers ------------------------------------------------ */
#if CHRONO__OS_LINUX
/* First line of a (sysfs/proc) file, trimmed.  0, or -1 if unreadable/empty. */
CHRONO__PRIVATE int chrono__file_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    int ok;
    if (n == 0) return -1;
    buf[0] = '\0';
    if (!f) return -1;
    ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    if (!ok) { buf[0] = '\0'; return -1; }
    chrono__str_trim(buf);
    return buf[0] ? 0 : -1;
}

CHRONO__PRIVATE int chrono__file_long(const char *path, long *v)
{
    char buf[32];
    char *end;
    long x;
    if (chrono__file_line(path, buf, sizeof buf) != 0) return -1;
    x = strtol(buf, &end, 10);
    if (end == buf) return -1;
    *v = x;
    return 0;
}

/* Number of CPUs in a list like "0-3,8,10-11", -1 if malformed. */
CHRONO__PRIVATE int chrono__cpulist_count(const char *s)
{
    int count = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b;
        if (end == s || a < 0) return -1;
        b = a;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a) return -1;
            s = end;
        }
        count += (int)(b - a + 1);
        if (*s == ',') s++;
        else if (*s) return -1;
    }
    return count;
}

/* Locale-independent "12.34" parser (strtod obeys LC_NUMERIC). */
CHRONO__PRIVATE double chrono__parse_decimal(const char *s)
{
    /* strtod rounds correctly (0.24 reads the double nearest 0.24, not the
       0.24000000000000002 that adding 2/10 and 4/100 gives, nor an x87
       double rounding); it reads the locale's decimal point, so the '.' is
       replaced by that first */
    char buf[64];
    const char *dp = localeconv()->decimal_point;
    size_t n = 0;
    int digits = 0;
    for (; *s >= '0' && *s <= '9' && n + 2 < sizeof buf; s++, digits++) buf[n++] = *s;
    if (*s == '.' && dp && dp[0] && !dp[1] && n + 2 < sizeof buf) {
        buf[n++] = dp[0];
        for (s++; *s >= '0' && *s <= '9' && n + 1 < sizeof buf; s++, digits++) buf[n++] = *s;
    }
    buf[n] = '\0';
    return digits ? strtod(buf, NULL) : -1.0;
}

/* Core of Linux CPU `cpu` from sysfs into p->smt_siblings, p->topology. */
CHRONO__PRIVATE void chrono__linux_describe(chrono_pin *p, int cpu)
{
    char path[96], list[48];
    long core = -1, pkg = -1;
    int n;
    (void)chrono__bprintf(path, sizeof path,
                          "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    if (chrono__file_line(path, list, sizeof list) != 0) return;
    n = chrono__cpulist_count(list);
    if (n < 1) return;
    p->smt_siblings = n - 1;
    (void)chrono__bprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
    (void)chrono__file_long(path, &core);
    (void)chrono__bprintf(path, sizeof path,
                          "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    (void)chrono__file_long(path, &pkg);
    /* core_id counts within a package: name the package when there are several */
    n = pkg > 0 ? chrono__bprintf(p->topology, sizeof p->topology, "package %ld core %ld (PUs %s)",
                                  pkg, core, list)
                : chrono__bprintf(p->topology, sizeof p->topology, "core %ld (PUs %s)", core, list);
    if (n < 0) p->topology[0] = '\0';
}
#endif

/* ---- Windows topology -------------------------------------------------- */
#if CHRONO__OS_WINDOWS
#  define CHRONO__GLPI_MAX 192
/* The calling thread's affinity mask: widened to the process mask and put
   back (widening never moves the thread). 0 or -1. */
CHRONO__PRIVATE int chrono__win_thread_mask(DWORD_PTR *mask)
{
    DWORD_PTR proc = 0, sys = 0, old;
    HANDLE h = GetCurrentThread();
    if (!GetProcessAffinityMask(GetCurrentProcess(), &proc, &sys) || proc == 0) return -1;
    old = SetThreadAffinityMask(h, proc);
    if (old == 0) return -1;
    if (old != proc) (void)SetThreadAffinityMask(h, old);
    *mask = old;
    return 0;
}

/* GetLogicalProcessorInformation into buf; number of entries or -1. */
CHRONO__PRIVATE int chrono__win_glpi(SYSTEM_LOGICAL_PROCESSOR_INFORMATION *buf, DWORD cap)
{
    DWORD bytes = cap * (DWORD)sizeof *buf;
    if (!GetLogicalProcessorInformation(buf, &bytes)) return -1;
    return (int)(bytes / (DWORD)sizeof *buf);
}

CHRONO__PRIVATE void chrono__win_describe(chrono_pin *p, int cpu)
{
    SYSTEM_LOGICAL_PROCESSOR_INFORMATION buf[CHRONO__GLPI_MAX];
    char list[40];
    int n = chrono__win_glpi(buf, CHRONO__GLPI_MAX), i, core = 0;
    for (i = 0; i < n; i++) {
        unsigned long long m = (unsigned long long)buf[i].ProcessorMask;
        if (buf[i].Relationship != RelationProcessorCore) continue;
        if ((m >> cpu) & 1u) {
            chrono__mask_list(list, sizeof list, m);
            p->smt_siblings = chrono__popcount(m) - 1;
            if (chrono__bprintf(p->topology, sizeof p->topology, "core %d (PUs %s)", core,
                                list) < 0)
                p->topology[0] = '\0';
            return;
        }
        core++;
    }
}
#endif

/* ---- hwloc ------------------------------------------------------------- */
#if defined(CHRONO_USE_HWLOC)
/* Describe the core holding PU *cpu; for CHRONO_CPU_CURRENT first find the
   PU the thread runs on (one PU of its core: pinning there moves nothing)
   and store it in *cpu.  0, or -1 with *cpu untouched. */
CHRONO__PRIVATE int chrono__hwloc_describe(chrono_pin *p, int *cpu)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t where = NULL;
    hwloc_obj_t pu, core;
    char list[40];
    int c = *cpu, rc = -1;
    if (hwloc_topology_init(&topo) != 0) return -1;
    if (hwloc_topology_load(topo) != 0) goto done;
    if (c == CHRONO_CPU_CURRENT) {
        where = hwloc_bitmap_alloc();
        if (!where || hwloc_get_last_cpu_location(topo, where, HWLOC_CPUBIND_THREAD) != 0)
            goto done;
        c = hwloc_bitmap_first(where);
        if (c < 0) goto done;
    }
    pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)c);
    if (!pu) goto done;
    core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
    if (core && core->cpuset) {
        (void)hwloc_bitmap_list_snprintf(list, sizeof list, core->cpuset);
        p->smt_siblings = hwloc_bitmap_weight(core->cpuset) - 1;
        if (chrono__bprintf(p->topology, sizeof p->topology, "core %u (PUs %s)",
                            core->logical_index, list) < 0)
            p->topology[0] = '\0';
    } else {
        p->smt_siblings = 0;
        if (chrono__bprintf(p->topology, sizeof p->topology, "PU %d (no core level)", c) < 0)
            p->topology[0] = '\0';
    }
    *cpu = c;
    rc = 0;
done:
    if (where) hwloc_bitmap_free(where);
    hwloc_topology_destroy(topo);
    return rc;
}
#endif

CHRONO_API int chrono_cpu_current(void)
{
#if CHRONO__OS_LINUX
    int c = chrono__getcpu();
    return c >= 0 ? c : CHRONO_ENOTSUP;
#elif CHRONO__OS_WINDOWS
#  if defined(_WIN32_WINNT) && _WIN32_WINNT >= 0x0600
    return (int)GetCurrentProcessorNumber();
#  else
    typedef DWORD (WINAPI *chrono__gcpn_fn)(void);
    HMODULE k = GetModuleHandleA("kernel32.dll");
    chrono__gcpn_fn f =
        k ? (chrono__gcpn_fn)(void (*)(void))GetProcAddress(k, "GetCurrentProcessorNumber") : NULL;
    return f ? (int)f() : CHRONO_ENOTSUP;
#  endif
#else
    return CHRONO_ENOTSUP;
#endif
}

/* The thread's context switches: the involuntary ones, and with voluntary
   the ones it asked for (a sleep, a blocking read) too. */
CHRONO__PRIVATE long chrono__switches(int voluntary)
{
#if CHRONO__OS_LINUX
    struct rusage u;
    if (getrusage(RUSAGE_THREAD, &u) != 0) return CHRONO_ENOTSUP;
    return (voluntary ? u.ru_nvcsw : 0) + u.ru_nivcsw;
#else
    (void)voluntary;
    return CHRONO_ENOTSUP;
#endif
}

CHRONO_API long chrono_cpu_switches(void) { return chrono__switches(1); }

CHRONO_API long chrono_cpu_switches_involuntary(void) { return chrono__switches(0); }

CHRONO_API double chrono_cpu_thread_ns(void)
{
#if CHRONO__OS_WINDOWS
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return NAN;
    return 100.0 * ((double)(((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime) +
                    (double)(((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime));
#elif defined(CLOCK_THREAD_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return NAN;
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
#else
    return NAN;
#endif
}

CHRONO_API int chrono_cpu_count(void)
{
#if CHRONO__OS_WINDOWS
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors >= 1 ? (int)si.dwNumberOfProcessors : CHRONO_ENOTSUP;
#elif (CHRONO__OS_LINUX || CHRONO__OS_POSIX) && defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (int)n : CHRONO_ENOTSUP;
#else
    return CHRONO_ENOTSUP;
#endif
}

CHRONO_API int chrono_cpu_allowed(int cpu)
{
#if CHRONO__OS_LINUX
    chrono__mask set;
    if (cpu < 0) return CHRONO_EINVAL;
    if (chrono__mask_get(&set) != 0) return errno == EINVAL ? CHRONO_ENOTSUP : CHRONO_EPIN;
    return chrono__mask_has(&set, cpu) ? 1 : 0;
#elif CHRONO__OS_WINDOWS
    DWORD_PTR m;
    if (cpu < 0) return CHRONO_EINVAL;
    if (chrono__win_thread_mask(&m) != 0) return CHRONO_ENOTSUP;
    return cpu < (int)(8 * sizeof m) && ((m >> cpu) & 1u) ? 1 : 0;
#else
    return cpu < 0 ? CHRONO_EINVAL : CHRONO_ENOTSUP;
#endif
}

/* ---- pinning ----------------------------------------------------------- */
CHRONO__PRIVATE void chrono__pin_clear(chrono_pin *p)
{
    p->cpu = -1;
    p->pinned = 0;
    p->smt_siblings = -1;
    p->topology[0] = '\0';
    p->chrono__pinned_tid = 0;
}

/* The CPU to pin to: cpu, or for CHRONO_CPU_CURRENT the one the thread is on
   (CHRONO_EPIN when that cannot be read).  With hwloc, p is described from
   the topology and *described set. */
CHRONO__PRIVATE int chrono__pin_target(chrono_pin *p, int cpu, int *described)
{
    *described = 0;
#if defined(CHRONO_USE_HWLOC)
    *described = chrono__hwloc_describe(p, &cpu) == 0;
#else
    (void)p;
#endif
    if (cpu == CHRONO_CPU_CURRENT) cpu = chrono_cpu_current();
    return cpu >= 0 ? cpu : CHRONO_EPIN;
}

CHRONO_API int chrono_cpu_pin(chrono_pin *p, int cpu)
{
    int described = 0;
    if (!p) return CHRONO_EINVAL;
    chrono__pin_clear(p);
    if (cpu < CHRONO_CPU_CURRENT) return CHRONO_EINVAL;
#if CHRONO__OS_LINUX
    {
        chrono__mask old, one;
        if (chrono__mask_get(&old) != 0) return errno == EINVAL ? CHRONO_ENOTSUP : CHRONO_EPIN;
        if ((cpu = chrono__pin_target(p, cpu, &described)) < 0) return cpu;
        if (!chrono__mask_has(&old, cpu)) { chrono__pin_clear(p); return CHRONO_EPIN; }
        chrono__mask_only(&one, cpu);
        if (chrono__mask_set(&one) != 0) { chrono__pin_clear(p); return CHRONO_EPIN; }
        memcpy(p->chrono__saved, &old, sizeof old);
        p->chrono__pinned_tid = (long)syscall(SYS_gettid);
        if (!described) chrono__linux_describe(p, cpu);
    }
#elif CHRONO__OS_WINDOWS
    {
        DWORD_PTR old, bit;
        if (chrono__win_thread_mask(&old) != 0) return CHRONO_EPIN;
        if ((cpu = chrono__pin_target(p, cpu, &described)) < 0) return cpu;
        if (cpu >= (int)(8 * sizeof old) || !((old >> cpu) & 1u)) {
            chrono__pin_clear(p);
            return CHRONO_EPIN;
        }
        bit = (DWORD_PTR)1 << cpu;
        if (SetThreadAffinityMask(GetCurrentThread(), bit) == 0) {
            chrono__pin_clear(p);
            return CHRONO_EPIN;
        }
        p->chrono__saved[0] = (uint64_t)old;
        p->chrono__pinned_tid = (long)GetCurrentThreadId();
        if (!described) chrono__win_describe(p, cpu);
    }
#else
    (void)described;
    return CHRONO_ENOTSUP;
#endif
#if CHRONO__OS_LINUX || CHRONO__OS_WINDOWS
    p->cpu = cpu;
    p->pinned = 1;
    return CHRONO_OK;
#endif
}

CHRONO_API int chrono_cpu_unpin(chrono_pin *p)
{
    if (!p) return CHRONO_EINVAL;
    if (p->pinned != 1) return CHRONO_OK;
#if CHRONO__OS_LINUX
    if (p->chrono__pinned_tid != (long)syscall(SYS_gettid)) return CHRONO_EINVAL;
    if (chrono__mask_set((const chrono__mask *)(const void *)p->chrono__saved) != 0)
        return CHRONO_EPIN;
#elif CHRONO__OS_WINDOWS
    if (p->chrono__pinned_tid != (long)GetCurrentThreadId()) return CHRONO_EINVAL;
    if (SetThreadAffinityMask(GetCurrentThread(), (DWORD_PTR)p->chrono__saved[0]) == 0)
        return CHRONO_EPIN;
#endif
    p->pinned = 0;
    p->cpu = -1;
    return CHRONO_OK;
}

CHRONO_API int chrono_cpu_release(void)
{
#if CHRONO__OS_LINUX
    chrono__mask m;
    chrono__mask_all(&m);
    return chrono__mask_set(&m) == 0 ? CHRONO_OK : CHRONO_EPIN;
#elif CHRONO__OS_WINDOWS
    DWORD_PTR proc = 0, sys = 0;
    if (!GetProcessAffinityMask(GetCurrentProcess(), &proc, &sys) || proc == 0) return CHRONO_EPIN;
    return SetThreadAffinityMask(GetCurrentThread(), proc) != 0 ? CHRONO_OK : CHRONO_EPIN;
#else
    return CHRONO_OK;
#endif
}

/* ---- emulators ---------------------------------------------------------- */
/* What an emulator leaves visible to the program it runs (each may be NULL:
   unknown).  Filled from the system by chrono__env_emulator, by hand in tests. */
typedef struct chrono__emu_facts {
    int valgrind;             /* valgrind's client request answered (chrono__under_valgrind) */
    const char *ld_preload;   /* $LD_PRELOAD */
    const char *comm;         /* /proc/self/comm: the executable the kernel started */
    const char *maps;         /* lines of /proc/thread-self/maps: the kernel's, which qemu-user does
                                 not rewrite */
    const char *cpuinfo;      /* lines of /proc/cpuinfo */
    int code_x86;             /* 1: the code is x86 (i386, x86-64); 0: another architecture */
    const char *hypervisor;   /* CPUID 0x40000000 signature, without repeats ("TCG") */
} chrono__emu_facts;

/* 1 when one of the lines of text maps a file whose name starts with "qemu-"
   (/usr/bin/qemu-aarch64, qemu-i386-static: the emulator itself). */
CHRONO__PRIVATE int chrono__maps_qemu(const char *text)
{
    while (text && *text) {
        const char *end = strchr(text, '\n'), *slash = NULL, *c;
        if (!end) end = text + strlen(text);
        for (c = text; c < end; c++) if (*c == '/') slash = c;
        if (slash && end - slash > 5 && !strncmp(slash + 1, "qemu-", 5)) return 1;
        text = *end ? end + 1 : end;
    }
    return 0;
}

/* 1 when /proc/cpuinfo's text describes a CPU of another architecture than
   the code's: the kernel's file, passed through by an emulator (gnulib's
   qemu test looks for the same). */
CHRONO__PRIVATE int chrono__cpuinfo_foreign(const char *text, int code_x86)
{
    if (!text) return 0;
    if (code_x86) return strstr(text, "CPU implementer") != NULL;   /* arm */
    return strstr(text, "GenuineIntel") != NULL || strstr(text, "AuthenticAMD") != NULL ||
           strstr(text, "HygonGenuine") != NULL;
}

/* The emulator the facts point at: "valgrind", "qemu-user" (the program is
   run by a qemu-* binary, or sees another architecture's /proc/cpuinfo),
   "QEMU TCG" (CPUID's hypervisor signature TCGTCGTCGTCG: qemu translating
   the code, user or system mode), or "" when none. */
CHRONO__PRIVATE const char *chrono__emulator_of(const chrono__emu_facts *f)
{
    if (f->valgrind || (f->ld_preload && strstr(f->ld_preload, "vgpreload")) ||
        (f->maps && strstr(f->maps, "/vgpreload_")))
        return "valgrind";
    if ((f->comm && !strncmp(f->comm, "qemu-", 5)) || chrono__maps_qemu(f->maps) ||
        chrono__cpuinfo_foreign(f->cpuinfo, f->code_x86))
        return "qemu-user";
    if (f->hypervisor && !strcmp(f->hypervisor, "TCG")) return "QEMU TCG";
    return "";
}

#if CHRONO__OS_LINUX
/* The first line of the kernel's maps of this thread that names an emulator
   (a qemu-* file, valgrind's preload), copied into line; 0 when none. */
CHRONO__PRIVATE int chrono__maps_emulator_line(char *line, size_t n)
{
    int found = 0;
    FILE *f = fopen("/proc/thread-self/maps", "r");
    if (!f) f = fopen("/proc/self/maps", "r");   /* Linux before 3.17 */
    if (!f) return 0;
    while (!found && fgets(line, (int)n, f))
        found = chrono__maps_qemu(line) || strstr(line, "/vgpreload_") != NULL;
    fclose(f);
    return found;
}
#endif

/* e->emulator from what this process can see (cpuinfo: the lines of
   /proc/cpuinfo read, NULL where there is none).  Under qemu-user CPUID is
   qemu's: its hypervisor signature ("TCG") says nothing about the machine,
   which is a VM only when the kernel says so (kernel_vm). */
CHRONO__PRIVATE void chrono__env_emulator(chrono_env *e, const char *cpuinfo, int kernel_vm)
{
    chrono__emu_facts f;
    const char *name;
#if CHRONO__OS_LINUX
    char comm[32], line[512];
#endif
    memset(&f, 0, sizeof f);
    f.valgrind = chrono__under_valgrind();
    f.ld_preload = getenv("LD_PRELOAD");
    f.hypervisor = e->hypervisor;
    f.cpuinfo = cpuinfo;
#if defined(CHRONO__X86)
    f.code_x86 = 1;
#endif
#if CHRONO__OS_LINUX
    if (chrono__file_line("/proc/self/comm", comm, sizeof comm) == 0) f.comm = comm;
    if (chrono__maps_emulator_line(line, sizeof line)) f.maps = line;
#endif
    name = chrono__emulator_of(&f);
    chrono__str_copy(e->emulator, sizeof e->emulator, name);
    if (!strcmp(name, "qemu-user")) {
        e->in_vm = kernel_vm;
        if (!strcmp(e->hypervisor, "TCG")) e->hypervisor[0] = '\0';
    }
}

/* ---- environment ------------------------------------------------------- */
CHRONO__PRIVATE void chrono__env_compiler(chrono_env *e)
{
    char *s = e->compiler;
    size_t n = sizeof e->compiler;
#if defined(__INTEL_LLVM_COMPILER)
    (void)chrono__bprintf(s, n, "icx %d", (int)__INTEL_LLVM_COMPILER);
#elif defined(__clang__) && defined(__apple_build_version__)
    (void)chrono__bprintf(s, n, "Apple clang %d.%d.%d", __clang_major__, __clang_minor__,
                          __clang_patchlevel__);
#elif defined(__clang__)
    (void)chrono__bprintf(s, n, "clang %d.%d.%d", __clang_major__, __clang_minor__,
                          __clang_patchlevel__);
#elif defined(__GNUC__)
    (void)chrono__bprintf(s, n, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#elif defined(_MSC_VER)
    (void)chrono__bprintf(s, n, "MSVC %d", (int)_MSC_VER);
#else
    chrono__str_copy(s, n, "unknown compiler");
#endif
}

/* CPUID: vendor, brand, hypervisor bit and signature (x86 only). */
CHRONO__PRIVATE void chrono__env_cpuid(chrono_env *e)
{
    uint32_t r[4];
    char b[49];
    int i;
    if (chrono__cpuid(0, 0, r) == 0 && r[1] != 0) {
        memcpy(b, &r[1], 4); memcpy(b + 4, &r[3], 4); memcpy(b + 8, &r[2], 4);
        b[12] = '\0';
        chrono__str_copy(e->cpu_vendor, sizeof e->cpu_vendor, b);
    }
    if (chrono__cpuid(0x80000004u, 0, r) == 0) {
        for (i = 0; i < 3; i++) {
            (void)chrono__cpuid(0x80000002u + (uint32_t)i, 0, r);
            memcpy(b + 16 * i, r, 16);
        }
        b[48] = '\0';
        chrono__str_trim(b);
        chrono__str_copy(e->cpu_brand, sizeof e->cpu_brand, b);
    }
    if (chrono__hypervisor(e->hypervisor, NULL)) e->in_vm = 1;
}

CHRONO__PRIVATE void chrono__env_add_cache(chrono_env *e, int level, int type, long size,
                                           int sharing)
{
    static const char *const names[] = { "", "Data", "Instruction", "Unified" };
    chrono_cache *c;
    if (e->ncaches >= (int)(sizeof e->caches / sizeof e->caches[0])) return;
    if (level < 1 || type < 1 || type > 3 || size <= 0) return;
    c = &e->caches[e->ncaches++];
    c->level = level;
    chrono__str_copy(c->type, sizeof c->type, names[type]);
    c->size = size;
    c->num_sharing = sharing;
}

/* Caches from CPUID when the OS did not list them: the deterministic cache
   leaf (4 on Intel, 0x8000001D with TOPOEXT on AMD), else AMD's legacy
   0x80000005/6.  num_sharing there is the CPU's "maximum IDs sharing". */
CHRONO__PRIVATE void chrono__env_cpuid_caches(chrono_env *e)
{
    uint32_t r[4], leaf = 0;
    int i, amd = strcmp(e->cpu_vendor, "AuthenticAMD") == 0 ||
                 strcmp(e->cpu_vendor, "HygonGenuine") == 0;
    if (!e->cpu_vendor[0]) return;
    if (!amd && chrono__cpuid(4, 0, r) == 0 && (r[0] & 31u) != 0) leaf = 4;
    else if (chrono__cpuid(0x80000001u, 0, r) == 0 && ((r[2] >> 22) & 1u) &&
             chrono__cpuid(0x8000001Du, 0, r) == 0 && (r[0] & 31u) != 0) leaf = 0x8000001Du;
    if (leaf) {
        for (i = 0; i < 16 && chrono__cpuid(leaf, (uint32_t)i, r) == 0; i++) {
            int type = (int)(r[0] & 31u), level = (int)((r[0] >> 5) & 7u);
            long ways = (long)(r[1] >> 22) + 1, parts = (long)((r[1] >> 12) & 0x3ffu) + 1;
            long line = (long)(r[1] & 0xfffu) + 1, sets = (long)r[2] + 1;
            if (type == 0) break;
            chrono__env_add_cache(e, level, type, ways * parts * line * sets,
                                  (int)((r[0] >> 14) & 0xfffu) + 1);
        }
    } else if (amd && chrono__cpuid(0x80000006u, 0, r) == 0) {
        uint32_t l2 = r[2], l3 = r[3];
        if (chrono__cpuid(0x80000005u, 0, r) == 0) {
            chrono__env_add_cache(e, 1, 1, (long)(r[2] >> 24) * 1024, -1);
            chrono__env_add_cache(e, 1, 2, (long)(r[3] >> 24) * 1024, -1);
        }
        chrono__env_add_cache(e, 2, 3, (long)(l2 >> 16) * 1024, -1);
        chrono__env_add_cache(e, 3, 3, (long)(l3 >> 18) * 512 * 1024, -1);
    }
}

#if CHRONO__OS_LINUX || CHRONO__OS_POSIX
/* Kernel ("Linux 6.1.0 x86_64") and host name from uname. */
CHRONO__PRIVATE void chrono__env_uname(chrono_env *e)
{
    struct utsname u;
    if (uname(&u) == 0) {
        chrono__str_copy(e->kernel, sizeof e->kernel, u.sysname);
        chrono__str_append(e->kernel, sizeof e->kernel, " ");
        chrono__str_append(e->kernel, sizeof e->kernel, u.release);
        chrono__str_append(e->kernel, sizeof e->kernel, " ");
        chrono__str_append(e->kernel, sizeof e->kernel, u.machine);
        chrono__str_copy(e->hostname, sizeof e->hostname, u.nodename);
    }
}
#endif

#if CHRONO__OS_LINUX
/* cpuinfo (n bytes): the first CPU's lines of /proc/cpuinfo; *kernel_vm: its
   hypervisor flag said this is a VM.  The kernel's view of the flag is also
   right under emulators such as valgrind, whose CPUID hides it. */
CHRONO__PRIVATE void chrono__env_cpuinfo(chrono_env *e, char *cpuinfo, size_t n, int *kernel_vm)
{
    char buf[4096];
    size_t used = 0;
    int flags_seen = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    cpuinfo[0] = '\0';
    if (!f) return;
    while (fgets(buf, (int)sizeof buf, f)) {
        char *colon = strchr(buf, ':');
        size_t len = strlen(buf);
        if (buf[0] == '\n') break;             /* end of the first CPU */
        if (used + len < n) { memcpy(cpuinfo + used, buf, len + 1); used += len; }
        if (!colon) continue;
        if (!e->cpu_brand[0] && strncmp(buf, "model name", 10) == 0) {
            chrono__str_trim(colon + 1);
            chrono__str_copy(e->cpu_brand, sizeof e->cpu_brand, colon + 1);
        } else if (!flags_seen && strncmp(buf, "flags", 5) == 0) {
            const char *h = colon;
            flags_seen = 1;
            while ((h = strstr(h, " hypervisor")) != NULL) {
                if (chrono__is_space(h[11]) || h[11] == '\0') { e->in_vm = *kernel_vm = 1; break; }
                h += 11;
            }
        }
    }
    fclose(f);
}

/* cpu0's caches from sysfs, lowest index first. */
CHRONO__PRIVATE void chrono__env_linux_caches(chrono_env *e)
{
    static const char *const types[] = { "Data", "Instruction", "Unified" };
    char buf[128], path[96];
    int i;
    for (i = 0; i < 32; i++) {
        long level, size;
        int t, sharing = -1;
        char *end;
        (void)chrono__bprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level",
                              i);
        if (chrono__file_long(path, &level) != 0) break;
        (void)chrono__bprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type",
                              i);
        if (chrono__file_line(path, buf, sizeof buf) != 0) continue;
        for (t = 0; t < 3 && strcmp(buf, types[t]) != 0; t++) {}
        (void)chrono__bprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size",
                              i);
        if (chrono__file_line(path, buf, sizeof buf) != 0) continue;
        size = strtol(buf, &end, 10);
        if (*end == 'K') size *= 1024L;
        else if (*end == 'M') size *= 1024L * 1024L;
        else if (*end == 'G') size *= 1024L * 1024L * 1024L;
        (void)chrono__bprintf(path, sizeof path,
                              "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
        if (chrono__file_line(path, buf, sizeof buf) == 0) sharing = chrono__cpulist_count(buf);
        chrono__env_add_cache(e, (int)level, t + 1, size, sharing);
    }
}

/* .pti and .mitigations from a vulnerabilities directory (Linux's is
   /sys/devices/system/cpu/vulnerabilities; a test passes its own).  Without
   a meltdown file both stay unknown (-1, ""). */
CHRONO__PRIVATE void chrono__env_mitigations(chrono_env *e, const char *dir)
{
    static const char *const bugs[] = {
        "spectre_v2", "retbleed",          "spec_rstack_overflow", "mds",
        "l1tf",       "spec_store_bypass", "mmio_stale_data",      "gather_data_sampling"
    };
    char path[256], val[160];
    size_t i, w = 0;
    e->pti = -1;
    e->mitigations[0] = '\0';
    (void)chrono__bprintf(path, sizeof path, "%s/meltdown", dir);
    if (chrono__file_line(path, val, sizeof val) != 0) return;
    e->pti = strstr(val, "PTI") != NULL;
    for (i = 0; i < sizeof bugs / sizeof bugs[0] && w < sizeof e->mitigations; i++) {
        int k;
        (void)chrono__bprintf(path, sizeof path, "%s/%s", dir, bugs[i]);
        if (chrono__file_line(path, val, sizeof val) != 0 || !strncmp(val, "Not affected", 12))
            continue;
        val[40] = '\0';   /* the first clauses; a clause cut at its ';' loses it (no ";;") */
        while (*val && strchr("; ", val[strlen(val) - 1])) val[strlen(val) - 1] = '\0';
        k = chrono__bprintf(e->mitigations + w, sizeof e->mitigations - w, " %s=%s;", bugs[i], val);
        w += k > 0 ? (size_t)k : 0;
    }
}

/* The rest of the machine from /proc and /sys; cpuinfo and *kernel_vm as
   chrono__env_cpuinfo leaves them (/sys/hypervisor counts as the kernel's
   word too). */
CHRONO__PRIVATE void chrono__env_linux(chrono_env *e, char *cpuinfo, size_t n, int *kernel_vm)
{
    char buf[128];
    long v;
    *kernel_vm = 0;
    chrono__env_cpuinfo(e, cpuinfo, n, kernel_vm);
    if (chrono__file_line("/sys/hypervisor/type", buf, sizeof buf) == 0) {
        e->in_vm = *kernel_vm = 1;
        if (!e->hypervisor[0]) chrono__str_copy(e->hypervisor, sizeof e->hypervisor, buf);
    }
    (void)chrono__file_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", e->governor,
                            sizeof e->governor);
    (void)chrono__file_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                            e->clocksource, sizeof e->clocksource);
    if (chrono__file_long("/sys/devices/system/cpu/cpufreq/boost", &v) == 0) e->boost = v != 0;
    else if (chrono__file_long("/sys/devices/system/cpu/intel_pstate/no_turbo", &v) == 0)
        e->boost = v == 0;
    else if (chrono__file_long("/sys/devices/system/cpu/cpufreq/policy0/boost", &v) == 0)
        e->boost = v != 0;
    if (chrono__file_long("/sys/devices/system/cpu/smt/active", &v) == 0) e->smt = v != 0;
    if (chrono__file_line("/proc/loadavg", buf, sizeof buf) == 0)
        e->loadavg1 = chrono__parse_decimal(buf);
    chrono__env_uname(e);
    chrono__env_linux_caches(e);
    chrono__env_mitigations(e, "/sys/devices/system/cpu/vulnerabilities");
}
#elif CHRONO__OS_WINDOWS
CHRONO__PRIVATE void chrono__env_windows(chrono_env *e)
{
    SYSTEM_LOGICAL_PROCESSOR_INFORMATION buf[CHRONO__GLPI_MAX];
    DWORD size = (DWORD)sizeof e->hostname;
    int n = chrono__win_glpi(buf, CHRONO__GLPI_MAX), i, level;
#  if defined(_M_ARM64) || defined(__aarch64__)
    chrono__str_copy(e->kernel, sizeof e->kernel, "Windows arm64");
#  elif defined(_WIN64)
    chrono__str_copy(e->kernel, sizeof e->kernel, "Windows x86_64");
#  else
    chrono__str_copy(e->kernel, sizeof e->kernel, "Windows x86");
#  endif
    if (!GetComputerNameA(e->hostname, &size)) e->hostname[0] = '\0';
    if (n > 0) e->smt = 0;
    for (i = 0; i < n; i++)
        if (buf[i].Relationship == RelationProcessorCore &&
            chrono__popcount((unsigned long long)buf[i].ProcessorMask) > 1)
            e->smt = 1;
    /* Caches of CPU 0, lowest level first. */
    for (level = 1; level <= 4; level++) {
        for (i = 0; i < n; i++) {
            const CACHE_DESCRIPTOR *c = &buf[i].Cache;
            int type;
            if (buf[i].Relationship != RelationCache || c->Level != level ||
                !(buf[i].ProcessorMask & 1u))
                continue;
            type = c->Type == CacheData ? 1
                   : c->Type == CacheInstruction ? 2
                   : c->Type == CacheUnified ? 3
                                             : 0;
            chrono__env_add_cache(e, level, type, (long)c->Size,
                                  chrono__popcount((unsigned long long)buf[i].ProcessorMask));
        }
    }
}
#elif CHRONO__OS_POSIX
CHRONO__PRIVATE void chrono__env_posix(chrono_env *e)
{
    chrono__env_uname(e);
#  if defined(__APPLE__) && (!defined(_POSIX_C_SOURCE) || defined(_DARWIN_C_SOURCE))
    {
        double la[1];
        if (getloadavg(la, 1) == 1) e->loadavg1 = la[0];
    }
#  endif
}
#endif

CHRONO_API int chrono_env_read_at(chrono_env *e, unsigned long caller)
{
    int n;
    unsigned w = 0;
#if CHRONO__OS_LINUX
    char cpuinfo[4096];
    int kernel_vm = 0;
#endif
    if (!e) return CHRONO_EINVAL;
    if (caller / 16u != CHRONO_VERSION_NUM) return CHRONO_EVERSION;
    memset(e, 0, sizeof *e);
    e->optimized = (int)((caller / 4u) % 4u) - 1;
    e->asserts = (int)(caller % 2u);
    e->online_cpus = -1;
    e->boost = -1;
    e->smt = -1;
    e->loadavg1 = -1.0;
    e->pti = -1;
    chrono__env_compiler(e);
    chrono__env_cpuid(e);
    n = chrono_cpu_count();
    if (n >= 1) e->online_cpus = n;
#if CHRONO__OS_LINUX
    chrono__env_linux(e, cpuinfo, sizeof cpuinfo, &kernel_vm);
    chrono__env_emulator(e, cpuinfo, kernel_vm);
#else
#  if CHRONO__OS_WINDOWS
    chrono__env_windows(e);
#  elif CHRONO__OS_POSIX
    chrono__env_posix(e);
#  endif
    chrono__env_emulator(e, NULL, e->in_vm);
#endif
    if (e->ncaches == 0) chrono__env_cpuid_caches(e);

    if (e->optimized == 0) w |= CHRONO_WARN_DEBUG_BUILD;
    if (e->in_vm == 1) w |= CHRONO_WARN_VM;
    if ((e->governor[0] && strcmp(e->governor, "performance") != 0) || e->boost == 1)
        w |= CHRONO_WARN_FREQ_SCALING;
    if (e->loadavg1 >= 0.0 && e->online_cpus >= 1 && e->loadavg1 > e->online_cpus / 2.0)
        w |= CHRONO_WARN_LOAD;
    if (e->asserts) w |= CHRONO_WARN_ASSERTS;
    if (e->emulator[0]) w |= CHRONO_WARN_EMULATED;
    e->warnings = w;
    return CHRONO_OK;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_CPU_IMPL */
