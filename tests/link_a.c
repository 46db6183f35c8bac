/* Two translation units that include chronoscope.h link together: every
   function is static inline, no symbol is defined twice. */
#include <chronoscope.h>

int chrono_test_link_b(void);

int main(void)
{
    chrono_clock c;
    if (chrono_clock_open(&c, CHRONO_CLOCK_AUTO) < 0) return 1;
    return chrono_test_link_b() == 0 && c.hz > 0 ? 0 : 1;
}
