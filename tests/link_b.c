#include <chronoscope.h>

int chrono_test_link_b(void);

int chrono_test_link_b(void)
{
    return strcmp(chrono_strerror(CHRONO_OK), "success") == 0 ? 0 : 1;
}
