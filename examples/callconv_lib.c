/* callconv_lib — the "DLL" of examples/callconv.c: a few functions that the
   program calls through the PLT of a shared library. */
#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#  define CC_HAVE_UNISTD 1
#endif
#if defined(_WIN32)
#  define CC_EXPORT __declspec(dllexport)
#else
#  define CC_EXPORT
#endif

CC_EXPORT unsigned cc_lib_add1(unsigned a) { return a + 1u; }
CC_EXPORT unsigned cc_lib_add2(unsigned a, unsigned b) { return a + b; }
CC_EXPORT unsigned cc_lib_add3(unsigned a, unsigned b, unsigned c) { return a + b + c; }

/* read(2) and write(2) behind the PLT; -1 where there are none. */
CC_EXPORT long cc_lib_read(int fd, void *buf, unsigned long n)
{
#if defined(CC_HAVE_UNISTD)
    return (long)read(fd, buf, n);
#else
    (void)fd; (void)buf; (void)n;
    return -1;
#endif
}

CC_EXPORT long cc_lib_write(int fd, const void *buf, unsigned long n)
{
#if defined(CC_HAVE_UNISTD)
    return (long)write(fd, buf, n);
#else
    (void)fd; (void)buf; (void)n;
    return -1;
#endif
}
