/* test_product — products of parameter lists (program.h, chrono_product_entry
   + chrono_with_args): {64, 4096} x {1, 8} names four points NAME/64/1 ..
   NAME/4096/8, the last list fastest; with chrono_with_fit(e, 0) the first
   list varies fastest and each slice is named with '*'; malformed products
   are refused (chrono__entry_ok). */
#include <chronoscope.h>
#include "tap.h"

static void body(void *ctx, const uint64_t *a, uint64_t iters) { (void)ctx; (void)a; (void)iters; }

static const char *names(const chrono_entry *e, int star)
{
    static char out[256];
    size_t j, n = chrono__product_points(e), idx[CHRONO_ARGS_MAX];
    char one[CHRONO_NAME_MAX];
    out[0] = '\0';
    for (j = 0; j < n; j++) {
        chrono__product_index(e, j, idx);
        if (j) strcat(out, " ");
        strcat(out, chrono__product_name(one, sizeof one, e, idx, star));
    }
    return out;
}

int main(void)
{
    static const uint64_t a[2] = { 64, 4096 }, b[2] = { 1, 8 }, same[2] = { 5, 5 };
    chrono_entry e = chrono_with_args(chrono_with_args(chrono_product_entry("name", body, NULL), a, 2), b, 2), f, bad;
    const char *got = names(&e, -1);
    tap_ok(!strcmp(got, "name/64/1 name/64/8 name/4096/1 name/4096/8"), "{64, 4096} x {1, 8}: four points, the last list fastest (%s)", got);
    tap_ok(chrono__entry_ok(&e) && chrono__entry_makes(&e, "name/4096/8") && !chrono__entry_makes(&e, "name/8/4096"),
           "well formed; it makes name/4096/8, not name/8/4096");
    f = chrono_with_fit(e, 0);
    got = names(&f, -1);
    tap_ok(!strcmp(got, "name/64/1 name/4096/1 name/64/8 name/4096/8"), "fitted along list 0: that list fastest (%s)", got);
    got = names(&f, 0);
    tap_ok(!strcmp(got, "name/*/1 name/*/1 name/*/8 name/*/8"), "its slices named with '*' (%s)", got);
    bad = chrono_with_fit(chrono_with_args(chrono_product_entry("x", body, NULL), same, 2), 0);
    tap_ok(!chrono__entry_ok(&bad), "a fit along equal values: malformed");
    bad = chrono_product_entry("x", body, NULL);
    tap_ok(!chrono__entry_ok(&bad), "no list: malformed");
    bad = chrono_with_args(chrono_with_args(chrono_with_args(chrono_with_args(chrono_with_args(e, a, 2), a, 2), a, 2), a, 2), a, 2);
    tap_ok(!chrono__entry_ok(&bad), "more than CHRONO_ARGS_MAX lists: malformed");
    bad = chrono_with_args(chrono_product_entry("x", NULL, NULL), a, 2);
    tap_ok(!chrono__entry_ok(&bad), "no body: malformed");
    return tap_done();
}
