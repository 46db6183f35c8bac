/* The one implementation of chronoscope that meson's dependency and pkg-config link. */
#define CHRONOSCOPE_IMPLEMENTATION
#include <chronoscope.h>
