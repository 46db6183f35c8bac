/* Two translation units of one program: this one holds the implementation
   (included after a system header, as users do with stb, with only POSIX
   asked for: the GNU extensions are replaced by raw system calls), link_b.c
   sees the declarations only; every function is defined once. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#define CHRONOSCOPE_IMPLEMENTATION
#include <chronoscope.h>
int chrono_test_link_b(void);
int main(void)
{
    chrono_clock c;
    if (chrono_clock_open(&c, CHRONO_CLOCK_AUTO) < 0) return 1;
    return chrono_test_link_b() == 0 && c.hz > 0 ? 0 : 1;
}
