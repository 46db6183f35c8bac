#include <string.h>
#include <chronoscope.h>
int chrono_test_link_b(void);
int chrono_test_link_b(void)
{
    chrono_session s;
    chrono_config cfg = chrono_config_default();
    int rc;
    if (strcmp(chrono_strerror(CHRONO_OK), "success") != 0) return 1;
    cfg.samples = 3;
    cfg.max_ms = 50;
    rc = chrono_session_open(&s, &cfg);   /* a macro: the caller's build facts */
    if (rc < 0) return 1;
    chrono_session_close(&s);
    return 0;
}
