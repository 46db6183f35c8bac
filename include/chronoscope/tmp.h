/* chronoscope/tmp.h — temp files and directories a program removes on its
   way out, on error and on a signal (SIGINT, SIGTERM, SIGABRT), and a child
   process it stops first.

   Usage (the library keeps no state: the program owns the chrono_tmp, a
   static one when a signal handler must reach it):

       static chrono_tmp tmp;
       static void on_signal(int sig) { chrono_tmp_signal(&tmp, sig); }
       ...
       chrono_tmp_catch(on_signal);
       const char *f = chrono_tmp_track(&tmp, "/tmp", "mine.tmp");   // then create it
       tmp.child = pid;                     // a child to stop before removing (0: none)
       chrono_tmp_remove(&tmp);             // on the way out

   Functions:
     chrono_tmp_track(t, dir, name)         remember dir/name (a trailing '/': a directory) for
                                            removal; returns the path, NULL when full or too long
     chrono_tmp_remove(t)                   remove them, newest first, after stopping t->child
                                            (async-signal-safe: unlink, rmdir, kill, waitpid)
     chrono_tmp_signal(t, sig)              from a signal handler: remove, then die of sig
     chrono_tmp_catch(handler)              handler for SIGINT, SIGTERM and SIGABRT */
#ifndef CHRONOSCOPE_TMP_H
#define CHRONOSCOPE_TMP_H

#include "base.h"

CHRONO__EXTERN_C_BEGIN
/* Temp files and directories to remove on exit, on error and on a signal. */
#define CHRONO_TMP_MAX 16
#define CHRONO_TMP_PATH 512
typedef struct chrono_tmp {
    char path[CHRONO_TMP_MAX][CHRONO_TMP_PATH];   /* a trailing '/' marks a directory */
    volatile int n;              /* paths tracked */
    volatile long child;         /* a child process (a pid) stopped before the removal; 0 none */
} chrono_tmp;

/* dir/name remembered for chrono_tmp_remove (name ending in '/': a directory,
   removed after what was tracked after it).  The path, or NULL when t is NULL,
   full (CHRONO_TMP_MAX) or the path longer than CHRONO_TMP_PATH - 1. */
CHRONO_API const char *chrono_tmp_track(chrono_tmp *t, const char *dir, const char *name);

/* Stop t->child (SIGKILL, then reap it) where there is one, remove every
   tracked path newest first, forget them.  Async-signal-safe on POSIX. */
CHRONO_API void chrono_tmp_remove(chrono_tmp *t);

/* For a signal handler: chrono_tmp_remove, then sig again with its default
   action (the program dies of it, as it would have). */
CHRONO_API void chrono_tmp_signal(chrono_tmp *t, int sig);

/* handler for SIGINT, SIGTERM and SIGABRT.  0, or CHRONO_EINVAL (NULL). */
CHRONO_API int chrono_tmp_catch(void (*handler)(int));
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_TMP_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_TMP_IMPL)
#define CHRONOSCOPE_TMP_IMPL

#include <string.h>
#include <signal.h>
#if CHRONO_OS_WINDOWS
#  include <direct.h>     /* _rmdir */
#else
#  include <sys/types.h>
#  include <sys/wait.h>
#  include <unistd.h>     /* unlink, rmdir */
#  if defined(__GLIBC__) && !defined(__USE_POSIX)
/* glibc declares it only with POSIX features on (strict -std=c99) */
int kill(pid_t pid, int sig);
#  endif
#endif

CHRONO__EXTERN_C_BEGIN

CHRONO_API const char *chrono_tmp_track(chrono_tmp *t, const char *dir, const char *name)
{
    int i;
    if (!t || !dir || !name) return NULL;
    i = t->n;
    if (i < 0 || i >= CHRONO_TMP_MAX || strlen(dir) + strlen(name) + 2 > CHRONO_TMP_PATH)
        return NULL;
    (void)chrono__bprintf(t->path[i], CHRONO_TMP_PATH, "%s/%s", dir, name);
    t->n = i + 1;
    return t->path[i];
}

CHRONO_API void chrono_tmp_remove(chrono_tmp *t)
{
    int i;
    if (!t) return;
#if CHRONO_OS_LINUX || CHRONO_OS_POSIX
    if (t->child > 0) {
        (void)kill((pid_t)t->child, SIGKILL);
        (void)waitpid((pid_t)t->child, NULL, 0);
    }
#endif
    t->child = 0;
    /* newest first: files before their directory */
    for (i = t->n - 1; i >= 0 && i < CHRONO_TMP_MAX; i--) {
        size_t len = strlen(t->path[i]);
        if (len && t->path[i][len - 1] == '/') {
#if CHRONO_OS_WINDOWS
            (void)_rmdir(t->path[i]);
#else
            (void)rmdir(t->path[i]);
#endif
        } else if (len) {
#if CHRONO_OS_WINDOWS
            (void)remove(t->path[i]);
#else
            (void)unlink(t->path[i]);
#endif
        }
    }
    t->n = 0;
}

CHRONO_API void chrono_tmp_signal(chrono_tmp *t, int sig)
{
    chrono_tmp_remove(t);
    (void)signal(sig, SIG_DFL);
    (void)raise(sig);
}

CHRONO_API int chrono_tmp_catch(void (*handler)(int))
{
    if (!handler) return CHRONO_EINVAL;
    (void)signal(SIGINT, handler);
    (void)signal(SIGTERM, handler);
    (void)signal(SIGABRT, handler);
    return 0;
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_TMP_IMPL */
