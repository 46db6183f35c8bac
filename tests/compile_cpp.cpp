/* The C consumer, compiled as C++ (C++11 and C++17 by meson). */
#include "compile_c.c"
