/* .ci/fuzz/fuzz_json.c — libFuzzer target for report.h's JSON string escaper.

   The input (up to its first NUL) goes through chrono_json_escape into a memory
   stream.  Besides the sanitizers (ASan, UBSan), it checks what report.h
   documents, with a decoder of its own:
     - the result is 0;
     - the output is the valid inside of a JSON string (RFC 8259): no raw
       control character, no bare '"', every '\' starts a known escape;
     - the output is valid UTF-8 (RFC 3629: no overlongs, no surrogates, nothing
       above U+10FFFF) once the escapes are decoded;
     - valid UTF-8 input decodes back to exactly the input.
   Built and run by .ci/run (leg "fuzz"). */
#define CHRONO_STATIC   /* a private copy: one file, no library to link */
#include <chronoscope.h>
#include <chronoscope/report.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const unsigned char *out, size_t n)
{
    size_t i;
    fprintf(stderr, "fuzz_json: %s\noutput (%zu bytes):", what, n);
    for (i = 0; i < n && i < 256; i++) fprintf(stderr, " %02x", out[i]);
    fprintf(stderr, "\n");
    abort();
}

/* Length of the strict UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t need, i;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c >= 0xE0 && c <= 0xEF) { need = 2; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 3; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return 0;
    if (n < need + 1) return 0;
    for (i = 1; i <= need; i++) {
        if (s[i] < lo || s[i] > hi) return 0;
        lo = 0x80; hi = 0xBF;
    }
    return need + 1;
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(unsigned char *d, size_t *k, unsigned cp)
{
    if (cp < 0x80) d[(*k)++] = (unsigned char)cp;
    else if (cp < 0x800) { d[(*k)++] = (unsigned char)(0xC0 | cp >> 6); d[(*k)++] = (unsigned char)(0x80 | (cp & 0x3F)); }
    else {
        d[(*k)++] = (unsigned char)(0xE0 | cp >> 12);
        d[(*k)++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        d[(*k)++] = (unsigned char)(0x80 | (cp & 0x3F));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in, *out = NULL;
    size_t out_n = 0, i, k = 0, in_n;
    unsigned char *dec;
    const unsigned char *o;
    FILE *f;
    int rc, valid_in = 1;

    in = malloc(size + 1);
    if (!in) abort();
    memcpy(in, data, size);
    in[size] = '\0';
    in_n = strlen(in);
    f = open_memstream(&out, &out_n);
    if (!f) abort();
    rc = chrono_json_escape(f, in);
    if (fclose(f) != 0) abort();
    o = (const unsigned char *)out;
    if (rc != 0) fail("chrono_json_escape did not return 0", o, out_n);

    /* Decode the escapes; the result must be strict UTF-8. */
    dec = malloc(out_n + 1);
    if (!dec) abort();
    for (i = 0; i < out_n;) {
        if (o[i] < 0x20 || o[i] == 0x7F) fail("raw control character in the output", o, out_n);
        if (o[i] == '"') fail("unescaped '\"' in the output", o, out_n);
        if (o[i] != '\\') { dec[k++] = o[i++]; continue; }
        if (i + 1 >= out_n) fail("'\\' at the end of the output", o, out_n);
        switch (o[i + 1]) {
        case '"': dec[k++] = '"'; i += 2; break;
        case '\\': dec[k++] = '\\'; i += 2; break;
        case '/': dec[k++] = '/'; i += 2; break;
        case 'b': dec[k++] = '\b'; i += 2; break;
        case 'f': dec[k++] = '\f'; i += 2; break;
        case 'n': dec[k++] = '\n'; i += 2; break;
        case 'r': dec[k++] = '\r'; i += 2; break;
        case 't': dec[k++] = '\t'; i += 2; break;
        case 'u': {
            unsigned cp = 0;
            int j;
            if (i + 6 > out_n) fail("truncated \\u escape", o, out_n);
            for (j = 2; j < 6; j++) {
                int h = hexval(o[i + j]);
                if (h < 0) fail("bad hex digit in \\u escape", o, out_n);
                cp = cp * 16 + (unsigned)h;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) fail("\\u escape of a lone surrogate", o, out_n);
            put_utf8(dec, &k, cp);
            i += 6;
            break;
        }
        default: fail("unknown escape", o, out_n);
        }
    }
    for (i = 0; i < k;) {
        size_t n = utf8_len(dec + i, k - i);
        if (!n) fail("output is not valid UTF-8", o, out_n);
        i += n;
    }
    /* Valid UTF-8 in: exactly the input back. */
    for (i = 0; i < in_n;) {
        size_t n = utf8_len((const unsigned char *)in + i, in_n - i);
        if (!n) { valid_in = 0; break; }
        i += n;
    }
    if (valid_in && (k != in_n || memcmp(dec, in, k) != 0)) fail("valid UTF-8 input does not round-trip", o, out_n);
    if (!valid_in && !(k >= 3 && memmem(dec, k, "\xEF\xBF\xBD", 3)))
        fail("invalid UTF-8 input, but no U+FFFD in the output", o, out_n);

    free(dec);
    free(out);
    free(in);
    return 0;
}
