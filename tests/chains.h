/* tests/chains.h — chains of dependent instructions written in the tests, not
   the library's reference chain, so that an accuracy test checks the library
   against a truth it does not define: TEST_CHAIN(name, "add", 1000) defines
   name(ctx, iters), n operations an iteration, one chain carried across
   iterations (1 core cycle an add on every x86-64 and arm64 core; 3 an imul on
   x86-64).  TEST_HAVE_CHAINS is 0 where the compiler or the CPU has no such
   inline assembly. */
#ifndef CHRONO_TEST_CHAINS_H
#define CHRONO_TEST_CHAINS_H
#if (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)) && (defined(__GNUC__) || defined(__clang__))
#  define TEST_HAVE_CHAINS 1
#  if defined(__aarch64__)
#    define TEST_CHAIN_OPERANDS " %0, %0, %1"   /* op x, x, one */
#  else
#    define TEST_CHAIN_OPERANDS " %1, %0"       /* op one, x */
#  endif
#  define TEST_CHAIN(name, op, n)                                                                     \
    static void name(void *ctx, uint64_t iters)                                                     \
    {                                                                                                \
        uintptr_t x = 1, one = 1;                                                                    \
        (void)ctx;                                                                                   \
        for (uint64_t i = 0; i < iters; i++)                                                         \
            __asm__ __volatile__(".rept " #n "\n\t" op TEST_CHAIN_OPERANDS "\n\t.endr" : "+r"(x) : "r"(one)); \
    }
#else
#  define TEST_HAVE_CHAINS 0
#endif
#endif
