/* chronoscope/table.h — text that every report format shares, and tables of a
   program's own: UTF-8, one escaper with one rule per target syntax, display
   widths, durations and numbers with '.' whatever the locale, and a table
   builder (rows x columns of cells, NAN shown as "n/a") written in every
   format: text, markdown, CSV, JSON here, HTML through html.h.

   Usage (a table of the program's own, written after the benchmarks):

       static const char *const cols[] = { "variant", "ns_per_op", "time", "note" };
       chrono_table_builder tb;
       chrono_table_init(&tb, "variants", "Variants, fastest first", cols, 4);
       chrono_table_text(&tb, "memcpy");            // row 1: one call per cell,
       chrono_table_number(&tb, 1.25, "%.2f", NULL);   //   "1.25": a number in JSON
       chrono_table_duration(&tb, 1250.0);          //   "1.25 µs"
       chrono_table_text(&tb, NULL);                //   "" (JSON: null); row 1 complete
       chrono_table_text(&tb, "loop");              // row 2 ...
       chrono_table_number(&tb, NAN, "%.2f", NULL); //   "n/a" (JSON: null)
       chrono_table_duration(&tb, NAN);             //   "n/a"
       chrono_table_textf(&tb, "%d%% slower", 12);
       if (tb.error) ...;                           // CHRONO_ENOMEM/EINVAL; later cells were dropped
       chrono_table_write(stdout, CHRONO_FORMAT_MARKDOWN, &tb.table);   // alone, or:
       // chrono_report_options ro = { 0 }; ro.tables = &tb.table; ro.ntables = 1;
       // chrono_program_table(&p, &tb.table);      // program.h keeps the view, not the cells:
       chrono_table_free(&tb);                      //   free only after the report is written

   The builder copies every string it is given (key, title, column names,
   cells): the caller's buffers may go right after the call.  Cells fill the
   table row by row, left to right; a row is complete (and counted in
   tb.table.nrows) with its ncols-th cell.  tb.table is a plain chrono_table
   (below) that stays valid until chrono_table_free; a table filled by hand
   (static arrays of cells) is written the same way.

   Cells, per format (chrono_table_write; the same inside chrono_report_ex):
     text      a title line, then aligned columns: the first left-aligned, the
               others right-aligned; control characters shown as \n \t \xNN
     markdown  "### title" and a GitHub table; markdown's punctuation escaped
     CSV       a blank line, a header row of the column names, one record a
               row, RFC 4180 quoting, CRLF line ends
     JSON      {"key": [ {column: cell, ...}, ... ]}; a cell that reads wholly
               as a decimal number ("12.5", "+84.73", "-3.5", "1e3") is
               written as that number, "" and "n/a" as null, any other as a
               string ("2.23 µs", "0x10").  To have JSON carry a figure, put
               its unit in the column name (time_ns) and the number alone in
               the cell (chrono_table_number with unit NULL).
     HTML      html.h: a heading and a <table>, every cell escaped.

   Escaping (chrono_escape, chrono_escape_buf), one rule per syntax, named by
   the format it is for:
     CHRONO_FORMAT_TEXT      control characters as \n \t \r \xNN (one line)
     CHRONO_FORMAT_MARKDOWN  as text, and \ | ` * < > [ ] ~ & and a '_' not
                             inside a word backslash-escaped
     CHRONO_FORMAT_CSV       one RFC 4180 field: quoted when it holds ',', '"',
                             CR or LF, quotes doubled
     CHRONO_FORMAT_JSON      the inside of a JSON string: \" \\ \n \t \r \b \f
                             and \u00XX; invalid UTF-8 as \ufffd
     CHRONO_FORMAT_HTML      HTML text or attribute value: & < > " ' as
                             entities, C0 and C1 controls as \n \t \xNN, the
                             noncharacters U+FFFE and U+FFFF as U+FFFD
   Valid UTF-8 passes through; an invalid sequence becomes U+FFFD (its
   maximal subpart, as Unicode recommends).

   Functions:
     chrono_format_name(fmt) / chrono_format_parse(name, &fmt)
     chrono_escape(out, s, fmt)           s escaped for fmt, to a stream
     chrono_escape_buf(dst, n, s, fmt)    the same into a buffer (truncated whole, terminated)
     chrono_json_escape(out, s)           chrono_escape(out, s, CHRONO_FORMAT_JSON)
     chrono_csv_field(out, s)             chrono_escape(out, s, CHRONO_FORMAT_CSV)
     chrono_text_width(s)                 terminal columns of UTF-8 text (wide CJK: 2)
     chrono_report_duration(buf, n, ns)   "1.50 µs": ns, µs, ms or s, three significant figures
     chrono_table_init / _text / _textf / _number / _duration / _integer / _free   the builder
     chrono_table_write(out, fmt, t)      one table alone (JSON: one object holding its array)

   Interface for the modules above
     chrono__utf8_seq                    one UTF-8 sequence
     chrono__width                       a string's display width (= chrono_text_width)
     chrono__pad                         a string padded to a width
     chrono__io                          the stream's error
     chrono__fmt3, chrono__fmt_extra, chrono__sig3   figures
     chrono__unit, chrono__unit_div, chrono__unit_name   a duration's unit
     chrono__plain                       a figure, "-" for NaN
     chrono__num_exact                   the shortest exact %g
     chrono__json_str, chrono__jnum_value   JSON values
     chrono__table_ok                    a table's shape
     chrono__table_body                  a table inside a report (JSON: a member at an indent)
     CHRONO__FORMATS, CHRONO__NFORMATS, chrono__format_defs   the formats' one list: names and
                                         extensions

   Every function returning int returns 0, CHRONO_EINVAL (NULL, a malformed
   table, an unknown format), CHRONO_ENOMEM (the builder) or CHRONO_EIO (the
   stream reported an error). */
#ifndef CHRONOSCOPE_TABLE_H
#define CHRONOSCOPE_TABLE_H

#include "base.h"

/* ---- types ---------------------------------------------------------------- */
/* The formats, one list: X(ID, name, another name, file extension, another
   extension) ("" for none).  HTML is html.h's; BMF, Bencher's metric format,
   report.h's (no tables, no extension of its own).  The enum, the names
   (chrono_format_name, chrono_format_parse) and --out's extensions (cli.h)
   come from it. */
#define CHRONO__FORMATS(X) \
    X(TEXT,     "text", "",         ".txt",  ".text") \
    X(MARKDOWN, "md",   "markdown", ".md",   ".markdown") \
    X(CSV,      "csv",  "",         ".csv",  "") \
    X(JSON,     "json", "",         ".json", "") \
    X(HTML,     "html", "",         ".html", ".htm") \
    X(BMF,      "bmf",  "",         "",      "")

#define CHRONO__FORMAT_ENUM(id, name, alias, ext, ext2) CHRONO_FORMAT_##id,
typedef enum chrono_format { CHRONO__FORMATS(CHRONO__FORMAT_ENUM) CHRONO__NFORMATS } chrono_format;
#undef CHRONO__FORMAT_ENUM

/* A table of the program's own (an experiment's then-vs-now rows, say): cells
   are text, row by row.  Filled by chrono_table_builder, or by hand. */
typedef struct chrono_table {
    const char *key;            /* JSON array name, e.g. "then_vs_now" */
    const char *title;          /* text and markdown heading (NULL: the key) */
    size_t ncols, nrows;
    const char *const *cols;    /* ncols column names */
    const char *const *cells;   /* nrows * ncols cells, row by row */
} chrono_table;

/* A table being built: pass &b.table on.  Zero-initialised, every call but
   chrono_table_init refuses it (CHRONO_EINVAL). */
typedef struct chrono_table_builder {
    chrono_table table;         /* the view, valid until chrono_table_free */
    int error;                  /* the first error; after one, cells are dropped */
    /* private */
    char *chrono__text;         /* key, title, column names, cells: NUL-terminated, end to end */
    size_t chrono__used, chrono__cap;
    size_t *chrono__off;        /* where each string starts in chrono__text */
    const char **chrono__ptr;   /* the same as pointers: table.cols and .cells point in here */
    size_t chrono__n, chrono__max;
} chrono_table_builder;

/* ---- functions ------------------------------------------------------------ */
CHRONO__EXTERN_C_BEGIN
CHRONO_API const char *chrono_format_name(chrono_format fmt);

/* A format's name or other name (CHRONO__FORMATS: "text", "md" or "markdown", "csv",
   "json", "html", "bmf") into *fmt; CHRONO_EINVAL otherwise. */
CHRONO_API int chrono_format_parse(const char *name, chrono_format *fmt);

/* s escaped by fmt's rule (the top comment); CSV with its quotes where
   needed.  0, CHRONO_EINVAL (NULL, unknown format) or CHRONO_EIO. */
CHRONO_API int chrono_escape(FILE *out, const char *s, chrono_format fmt);

/* The same into dst (n bytes, always terminated; an escape that does not fit
   is left out whole).  NULL s reads as "".  Returns dst. */
CHRONO_API const char *chrono_escape_buf(char *dst, size_t n, const char *s, chrono_format fmt);

/* Write s as the inside of a JSON string (no surrounding quotes).  0,
   CHRONO_EINVAL (NULL) or CHRONO_EIO. */
CHRONO_API int chrono_json_escape(FILE *out, const char *s);

/* Write s as one CSV field (RFC 4180).  0, CHRONO_EINVAL or CHRONO_EIO. */
CHRONO_API int chrono_csv_field(FILE *out, const char *s);

/* Terminal columns of UTF-8 text: 2 for East Asian wide and fullwidth forms
   and emoji, 0 for combining marks, 1 otherwise and for each invalid byte. */
CHRONO_API size_t chrono_text_width(const char *s);

/* "1.50 µs" for 1500: the unit scales with the value (ns, µs, ms, s), three
   significant figures ("0.285 ns" below one nanosecond); "-" for NaN. */
CHRONO_API const char *chrono_report_duration(char *buf, size_t n, double ns);

/* Start a table: key (its JSON name, not empty), title (NULL: the key), the
   ncols column names.  0, CHRONO_EINVAL or CHRONO_ENOMEM (b->error too). */
CHRONO_API int chrono_table_init(chrono_table_builder *b, const char *key, const char *title,
                                 const char *const *cols, size_t ncols);

/* The next cell: text as given (NULL: ""). */
CHRONO_API int chrono_table_text(chrono_table_builder *b, const char *text);

/* The next cell, printf-formatted (the C locale's decimal point is the
   caller's: use chrono_table_number for figures). */
CHRONO_API int chrono_table_textf(chrono_table_builder *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The next cell: v by fmt (one double conversion, e.g. "%.2f", "%+.1f"; NULL:
   three significant figures), '.' as the decimal point, then " unit" when
   unit is not NULL or "".  NaN and infinities: "n/a". */
CHRONO_API int chrono_table_number(chrono_table_builder *b, double v, const char *fmt,
                                   const char *unit);

/* The next cell: a duration as chrono_report_duration writes it; "n/a" for NaN. */
CHRONO_API int chrono_table_duration(chrono_table_builder *b, double ns);

/* The next cell: a whole number in decimal. */
CHRONO_API int chrono_table_integer(chrono_table_builder *b, long long v);

/* Free what the builder holds; b->table is empty after.  NULL is fine. */
CHRONO_API void chrono_table_free(chrono_table_builder *b);

/* One table alone in fmt (text, markdown, CSV, JSON; HTML: html.h's
   chrono_table_html).  CHRONO_EINVAL for a NULL or malformed table
   or another format, CHRONO_ENOMEM, CHRONO_EIO. */
CHRONO_API int chrono_table_write(FILE *out, chrono_format fmt, const chrono_table *t);
CHRONO__EXTERN_C_END

#endif /* CHRONOSCOPE_TABLE_H */

/* ==== implementation ======================================================== */
#if defined(CHRONO__IMPLEMENT) && !defined(CHRONOSCOPE_TABLE_IMPL)
#define CHRONOSCOPE_TABLE_IMPL

#include <stdarg.h>
#include <stdlib.h>

CHRONO__EXTERN_C_BEGIN

CHRONO__PRIVATE int chrono__io(FILE *out) { return ferror(out) ? CHRONO_EIO : 0; }

/* ---- formats by name ----------------------------------------------------------- */
/* The formats' names and extensions, in the enum's order (CHRONO__FORMATS). */
#define CHRONO__FORMAT_ROW(id, name, alias, ext, ext2) { name, alias, ext, ext2 },
CHRONO__PRIVATE const struct chrono__format_def { const char *name, *alias, *ext, *ext2; }
    chrono__format_defs[CHRONO__NFORMATS] = { CHRONO__FORMATS(CHRONO__FORMAT_ROW) };
#undef CHRONO__FORMAT_ROW

CHRONO_API const char *chrono_format_name(chrono_format fmt)
{
    return (unsigned)fmt < CHRONO__NFORMATS ? chrono__format_defs[fmt].name : "unknown";
}

CHRONO_API int chrono_format_parse(const char *name, chrono_format *fmt)
{
    int i;
    if (!name || !fmt) return CHRONO_EINVAL;
    for (i = 0; i < CHRONO__NFORMATS; i++)
        if (!strcmp(name, chrono__format_defs[i].name) ||
            (*chrono__format_defs[i].alias && !strcmp(name, chrono__format_defs[i].alias))) {
            *fmt = (chrono_format)i;
            return 0;
        }
    return CHRONO_EINVAL;
}

/* ---- UTF-8 ------------------------------------------------------------------------ */
/* Length of the UTF-8 sequence at p (at least 1).  *valid is 1 for a
   well-formed sequence (no overlong forms, surrogates or code points above
   U+10FFFF); otherwise the length is the maximal subpart to replace by one
   U+FFFD, as Unicode recommends. */
CHRONO__PRIVATE size_t chrono__utf8_seq(const unsigned char *p, int *valid)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xBF;
    size_t need, i;
    *valid = 1;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        *valid = 0;
        return 1;
    }
    for (i = 1; i <= need; i++) {
        if (p[i] < lo || p[i] > hi) { *valid = 0; return i; }
        lo = 0x80; hi = 0xBF;
    }
    return need + 1;
}

#define CHRONO__REPLACEMENT "\xEF\xBF\xBD"   /* U+FFFD in UTF-8 */

/* Terminal columns of one code point: 2 for East Asian wide and fullwidth
   forms and emoji, 0 for combining marks, else 1. */
CHRONO__PRIVATE int chrono__cp_width(uint32_t c)
{
    if ((c >= 0x0300 && c <= 0x036F) || (c >= 0x200B && c <= 0x200F) ||
        (c >= 0xFE00 && c <= 0xFE0F))
        return 0;
    if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) ||
        (c >= 0x3041 && c <= 0x33FF) || (c >= 0x3400 && c <= 0x4DBF) ||
        (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
        (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
        (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
        (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
        (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD))
        return 2;
    return 1;
}

/* Terminal columns of UTF-8 text (invalid bytes count one each). */
CHRONO__PRIVATE size_t chrono__width(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = 0;
    while (*s) {
        int valid;
        size_t len = chrono__utf8_seq(s, &valid), i;
        uint32_t c = len == 1 ? s[0] : (uint32_t)(s[0] & (0x7F >> len));
        for (i = 1; i < len; i++) c = (c << 6) | (uint32_t)(s[i] & 0x3F);
        n += valid ? (size_t)chrono__cp_width(c) : 1;
        s += len;
    }
    return n;
}

CHRONO_API size_t chrono_text_width(const char *s) { return s ? chrono__width(s) : 0; }

/* s padded with spaces to `width` characters, left or right aligned. */
CHRONO__PRIVATE void chrono__pad(FILE *out, const char *s, size_t width, int right)
{
    size_t w = chrono__width(s);
    if (right) for (; w < width; w++) fputc(' ', out);
    fputs(s, out);
    if (!right) for (; w < width; w++) fputc(' ', out);
}

/* ---- escaping: one rule per target syntax ------------------------------------------ */
CHRONO__PRIVATE int chrono__is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Markdown punctuation that could start markup inside a table cell. */
CHRONO__PRIVATE int chrono__md_special(const unsigned char *s, size_t i)
{
    unsigned char c = s[i];
    if (c == '_') return !(i > 0 && chrono__is_alnum(s[i - 1]) && chrono__is_alnum(s[i + 1]));
    return c && strchr("\\|`*<>[]~&", c) != NULL;
}

/* A control character as text, markdown and HTML show it: \n \t \r \xNN. */
CHRONO__PRIVATE const char *chrono__ctl_piece(unsigned c, char tmp[8])
{
    if (c == '\n') return "\\n";
    if (c == '\t') return "\\t";
    if (c == '\r') return "\\r";
    (void)chrono__bprintf(tmp, 8, "\\x%02X", c);
    return tmp;
}

CHRONO__PRIVATE const char *chrono__json_piece(unsigned c, char tmp[8])
{
    switch (c) {
    case '"':  return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    case '\b': return "\\b";
    case '\f': return "\\f";
    default:   (void)chrono__bprintf(tmp, 8, "\\u%04x", c); return tmp;   /* other controls */
    }
}

CHRONO__PRIVATE const char *chrono__html_piece(const unsigned char *p, size_t len, char tmp[8])
{
    /* U+FFFE, U+FFFF */
    if (len == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) return CHRONO__REPLACEMENT;
    /* C1 control */
    if (len == 2 && p[0] == 0xC2 && p[1] < 0xA0) return chrono__ctl_piece(p[1], tmp);
    switch (*p) {
    case '&':  return "&amp;";
    case '<':  return "&lt;";
    case '>':  return "&gt;";
    case '"':  return "&quot;";
    case '\'': return "&#39;";
    default:   return NULL;
    }
}

/* What the sequence at s + i (len bytes, valid or not) becomes in fmt: the
   escape, or NULL for the bytes themselves. */
CHRONO__PRIVATE const char *chrono__escape_piece(const unsigned char *s, size_t i, size_t len,
                                                 int valid, chrono_format fmt, char tmp[8])
{
    unsigned c = s[i];
    int ctl = c < 0x20 || c == 0x7F;
    if (!valid) return fmt == CHRONO_FORMAT_JSON ? "\\ufffd" : CHRONO__REPLACEMENT;
    switch (fmt) {
    case CHRONO_FORMAT_JSON:
        return c == '"' || c == '\\' || ctl ? chrono__json_piece(c, tmp) : NULL;
    case CHRONO_FORMAT_CSV:  return c == '"' ? "\"\"" : NULL;
    case CHRONO_FORMAT_HTML:
        return ctl ? chrono__ctl_piece(c, tmp) : chrono__html_piece(s + i, len, tmp);
    case CHRONO_FORMAT_MARKDOWN:
        if (!ctl && chrono__md_special(s, i)) {
            tmp[0] = '\\';
            tmp[1] = (char)c;
            tmp[2] = '\0';
            return tmp;
        }
        /* fall through */
    default:                 return ctl ? chrono__ctl_piece(c, tmp) : NULL;
    }
}

CHRONO__PRIVATE int chrono__csv_quoted(const char *s) { return strpbrk(s, ",\"\r\n") != NULL; }

CHRONO_API int chrono_escape(FILE *out, const char *s, chrono_format fmt)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    int quote;
    char tmp[8];
    if (!out || !s || (int)fmt < CHRONO_FORMAT_TEXT || (int)fmt > CHRONO_FORMAT_HTML)
        return CHRONO_EINVAL;
    quote = fmt == CHRONO_FORMAT_CSV && chrono__csv_quoted(s);
    if (quote) fputc('"', out);
    while (p[i]) {
        int valid;
        size_t len = chrono__utf8_seq(p + i, &valid);
        const char *piece = chrono__escape_piece(p, i, len, valid, fmt, tmp);
        if (piece) fputs(piece, out);
        else fwrite(p + i, 1, len, out);
        i += len;
    }
    if (quote) fputc('"', out);
    return chrono__io(out);
}

CHRONO_API const char *chrono_escape_buf(char *dst, size_t n, const char *src, chrono_format fmt)
{
    const unsigned char *s = (const unsigned char *)(src ? src : "");
    size_t i = 0, w = 0, close;
    char tmp[8];
    if (!dst || n == 0) return dst;
    close = fmt == CHRONO_FORMAT_CSV && chrono__csv_quoted((const char *)s) && n > 2;
    if (close) dst[w++] = '"';
    while (s[i]) {
        int valid;
        size_t len = chrono__utf8_seq(s + i, &valid), plen;
        const char *piece = chrono__escape_piece(s, i, len, valid, fmt, tmp);
        if (!piece) { memcpy(tmp, s + i, len); tmp[len] = '\0'; piece = tmp; }
        plen = strlen(piece);
        if (w + plen + close >= n) break;
        memcpy(dst + w, piece, plen);
        w += plen;
        i += len;
    }
    if (close) dst[w++] = '"';
    dst[w] = '\0';
    return dst;
}

CHRONO_API int chrono_json_escape(FILE *out, const char *s)
{
    return chrono_escape(out, s, CHRONO_FORMAT_JSON);
}
CHRONO_API int chrono_csv_field(FILE *out, const char *s)
{
    return chrono_escape(out, s, CHRONO_FORMAT_CSV);
}

/* ---- figures and units -------------------------------------------------------------- */
/* x in a unit already chosen: 3 significant figures, at most 2 decimals. */
CHRONO__PRIVATE const char *chrono__fmt3(char *buf, size_t n, double x)
{
    double a = fabs(x);
    const char *fmt = a < 9.995 ? "%.2f" : a < 99.95 ? "%.1f" : "%.0f";
    return chrono__num(buf, n, fmt, x);
}

/* x with the decimals of chrono__fmt3 plus `extra`. */
CHRONO__PRIVATE const char *chrono__fmt_extra(char *buf, size_t n, double x, int extra)
{
    double a = fabs(x);
    int d = (a < 9.995 ? 2 : a < 99.95 ? 1 : 0) + extra;
    char fmt[16];
    (void)chrono__bprintf(fmt, sizeof fmt, "%%.%df", d);
    return chrono__num(buf, n, fmt, x);
}

/* A ratio with three significant figures whatever its size ("0.0207",
   "1.00", "15.2", "123"), as the JSON's number reads when rounded. */
CHRONO__PRIVATE const char *chrono__sig3(char *buf, size_t n, double x)
{
    return chrono__num(buf, n, fabs(x) < 99.95 ? "%#.3g" : "%.0f", x);
}

/* Unit for a duration of ns nanoseconds: index into ns, µs, ms, s. */
CHRONO__PRIVATE int chrono__unit(double ns)
{
    double a = fabs(ns);
    if (a < 999.5) return 0;
    if (a < 999.5e3) return 1;
    if (a < 999.5e6) return 2;
    return 3;
}

CHRONO__PRIVATE double chrono__unit_div(int u)
{
    return u == 0 ? 1.0 : u == 1 ? 1e3 : u == 2 ? 1e6 : 1e9;
}
CHRONO__PRIVATE const char *chrono__unit_name(int u)
{
    return u == 0 ? "ns" : u == 1 ? "\xC2\xB5s" : u == 2 ? "ms" : "s";
}

CHRONO_API const char *chrono_report_duration(char *buf, size_t n, double ns)
{
    char num[32];
    int u;
    if (!buf || n == 0) return buf;
    if (!chrono__finite(ns)) { (void)chrono__bprintf(buf, n, "-"); return buf; }
    u = chrono__unit(ns);
    if (u == 0 && fabs(ns) < 0.9995 && ns != 0) chrono__num(num, sizeof num, "%.3g", ns);
    else chrono__fmt3(num, sizeof num, ns / chrono__unit_div(u));
    (void)chrono__bprintf(buf, n, "%s %s", num, chrono__unit_name(u));
    return buf;
}

/* A plain number for the text table: "-" when NaN. */
CHRONO__PRIVATE const char *chrono__plain(char *buf, size_t n, double v)
{
    if (!chrono__finite(v)) { (void)chrono__bprintf(buf, n, "-"); return buf; }
    return chrono__fmt3(buf, n, v);
}

/* The shortest %.Ng (N = 15, 16, 17) that reads back as v exactly, with '.'
   (the decimal point fixed by base.h's chrono__num, the one place that does). */
CHRONO__PRIVATE const char *chrono__num_exact(char *buf, size_t n, double v)
{
    char fmt[8];
    int prec;
    for (prec = 15; prec < 17; prec++) {   /* the locale's own digits read back by strtod */
        if (chrono__bprintf(buf, n, "%.*g", prec, v) >= 0 && strtod(buf, NULL) == v) break;
    }
    (void)chrono__bprintf(fmt, sizeof fmt, "%%.%dg", prec);
    return chrono__num(buf, n, fmt, v);
}

/* ---- JSON values ------------------------------------------------------------------- */
CHRONO__PRIVATE void chrono__json_str(FILE *out, const char *s)
{
    fputc('"', out);
    (void)chrono_escape(out, s ? s : "", CHRONO_FORMAT_JSON);
    fputc('"', out);
}

CHRONO__PRIVATE void chrono__jnum_value(FILE *f, double v)
{
    char buf[48];
    fputs(chrono__finite(v) ? chrono__num_exact(buf, sizeof buf, v) : "null", f);
}

/* ---- the builder ------------------------------------------------------------------ */
CHRONO__PRIVATE int chrono__tb_fail(chrono_table_builder *b, int rc)
{
    if (!b->error) b->error = rc;
    return rc;
}

/* Point the view at the strings again (after init, or when the text moved). */
CHRONO__PRIVATE void chrono__tb_view(chrono_table_builder *b)
{
    size_t i, ncols = b->table.ncols;
    for (i = 0; i < b->chrono__n; i++) b->chrono__ptr[i] = b->chrono__text + b->chrono__off[i];
    b->table.key = b->chrono__ptr[0];
    b->table.title = b->chrono__ptr[1];
    b->table.cols = b->chrono__ptr + 2;
    b->table.cells = b->chrono__ptr + 2 + ncols;
    b->table.nrows = (b->chrono__n - 2 - ncols) / ncols;
}

/* Room for `more` bytes of text and one more string; a grown buffer is a
   new allocation (CHRONO_MALLOC / CHRONO_FREE only).  1 when the text or the
   pointers moved, 0 when not, or CHRONO_ENOMEM. */
CHRONO__PRIVATE int chrono__tb_room(chrono_table_builder *b, size_t more)
{
    int moved = 0;
    if (b->chrono__used + more > b->chrono__cap) {
        size_t cap = b->chrono__cap ? b->chrono__cap : 256;
        char *t;
        while (cap < b->chrono__used + more) cap *= 2;
        if (!(t = (char *)CHRONO_MALLOC(cap))) return CHRONO_ENOMEM;
        if (b->chrono__used) memcpy(t, b->chrono__text, b->chrono__used);
        if (b->chrono__text) CHRONO_FREE(b->chrono__text);
        b->chrono__text = t; b->chrono__cap = cap;
        moved = 1;
    }
    if (b->chrono__n == b->chrono__max) {
        size_t max = b->chrono__max ? 2 * b->chrono__max : 16;
        size_t *off = (size_t *)CHRONO_MALLOC(max * sizeof *off);
        const char **ptr = (const char **)CHRONO_MALLOC(max * sizeof *ptr);
        if (!off || !ptr) {
            if (off) CHRONO_FREE(off);
            if (ptr) CHRONO_FREE((void *)ptr);
            return CHRONO_ENOMEM;
        }
        if (b->chrono__n) memcpy(off, b->chrono__off, b->chrono__n * sizeof *off);
        if (b->chrono__off) CHRONO_FREE(b->chrono__off);
        if (b->chrono__ptr) CHRONO_FREE((void *)b->chrono__ptr);
        b->chrono__off = off; b->chrono__ptr = ptr; b->chrono__max = max;
        moved = 1;
    }
    return moved;
}

/* Append one string of len bytes (not terminated in s) as the next entry. */
CHRONO__PRIVATE int chrono__tb_add(chrono_table_builder *b, const char *s, size_t len)
{
    int rc;
    if (!b || !b->chrono__text) return CHRONO_EINVAL;
    if (b->error) return b->error;
    if ((rc = chrono__tb_room(b, len + 1)) < 0) return chrono__tb_fail(b, rc);
    memcpy(b->chrono__text + b->chrono__used, s, len);
    b->chrono__text[b->chrono__used + len] = '\0';
    b->chrono__off[b->chrono__n] = b->chrono__used;
    b->chrono__ptr[b->chrono__n++] = b->chrono__text + b->chrono__used;
    b->chrono__used += len + 1;
    if (!b->table.cols) return 0;   /* init: the view comes after the column names */
    if (rc == 1) chrono__tb_view(b);
    else b->table.nrows = (b->chrono__n - 2 - b->table.ncols) / b->table.ncols;
    return 0;
}

CHRONO_API int chrono_table_init(chrono_table_builder *b, const char *key, const char *title,
                                 const char *const *cols, size_t ncols)
{
    size_t i;
    int rc;
    if (!b) return CHRONO_EINVAL;
    memset(b, 0, sizeof *b);
    if (!key || !key[0] || !cols || ncols == 0) return chrono__tb_fail(b, CHRONO_EINVAL);
    for (i = 0; i < ncols; i++) if (!cols[i]) return chrono__tb_fail(b, CHRONO_EINVAL);
    if ((rc = chrono__tb_room(b, strlen(key) + 1)) < 0) return chrono__tb_fail(b, rc);
    if (!title) title = key;
    rc = chrono__tb_add(b, key, strlen(key));
    if (rc == 0) rc = chrono__tb_add(b, title, strlen(title));
    for (i = 0; rc == 0 && i < ncols; i++) rc = chrono__tb_add(b, cols[i], strlen(cols[i]));
    if (rc < 0) { chrono_table_free(b); return chrono__tb_fail(b, rc); }
    b->table.ncols = ncols;
    chrono__tb_view(b);
    return 0;
}

CHRONO_API int chrono_table_text(chrono_table_builder *b, const char *text)
{
    if (!text) text = "";
    return chrono__tb_add(b, text, strlen(text));
}

CHRONO_API int chrono_table_textf(chrono_table_builder *b, const char *fmt, ...)
{
    char small[128], *big;
    va_list ap;
    int len, rc;
    if (!b || !fmt) return b ? chrono__tb_fail(b, CHRONO_EINVAL) : CHRONO_EINVAL;
    va_start(ap, fmt);
    len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len < 0) return chrono__tb_fail(b, CHRONO_EINVAL);
    if ((size_t)len < sizeof small) return chrono__tb_add(b, small, (size_t)len);
    if (!(big = (char *)CHRONO_MALLOC((size_t)len + 1))) return chrono__tb_fail(b, CHRONO_ENOMEM);
    va_start(ap, fmt);
    (void)vsnprintf(big, (size_t)len + 1, fmt, ap);
    va_end(ap);
    rc = chrono__tb_add(b, big, (size_t)len);
    CHRONO_FREE(big);
    return rc;
}

CHRONO_API int chrono_table_number(chrono_table_builder *b, double v, const char *fmt,
                                   const char *unit)
{
    char cell[96];
    size_t len;
    if (!chrono__finite(v)) return chrono_table_text(b, "n/a");
    if (fmt) chrono__num(cell, sizeof cell, fmt, v);
    else chrono__fmt3(cell, sizeof cell, v);
    len = strlen(cell);
    if (unit && unit[0]) (void)chrono__bprintf(cell + len, sizeof cell - len, " %s", unit);
    return chrono_table_text(b, cell);
}

CHRONO_API int chrono_table_duration(chrono_table_builder *b, double ns)
{
    char cell[48];
    return chrono_table_text(b, chrono__finite(ns) ? chrono_report_duration(cell, sizeof cell, ns)
                                                   : "n/a");
}

CHRONO_API int chrono_table_integer(chrono_table_builder *b, long long v)
{
    char cell[24];
    cell[0] = '-';
    (void)chrono__u64(cell + (v < 0), v < 0 ? 0u - (uint64_t)v : (uint64_t)v);
    return chrono_table_text(b, cell);
}

CHRONO_API void chrono_table_free(chrono_table_builder *b)
{
    if (!b) return;
    if (b->chrono__text) CHRONO_FREE(b->chrono__text);
    if (b->chrono__off) CHRONO_FREE(b->chrono__off);
    if (b->chrono__ptr) CHRONO_FREE((void *)b->chrono__ptr);
    memset(b, 0, sizeof *b);
}

/* ---- writing a table -------------------------------------------------------------- */
CHRONO__PRIVATE int chrono__table_ok(const chrono_table *t)
{
    size_t i;
    if (!t || !t->key || !t->key[0] || !t->cols || t->ncols == 0 || (t->nrows && !t->cells))
        return 0;
    for (i = 0; i < t->ncols; i++) if (!t->cols[i]) return 0;
    for (i = 0; i < t->nrows * t->ncols; i++) if (!t->cells[i]) return 0;
    return 1;
}

/* A cell as a JSON value: a number when strtod reads all of it (a signed
   delta "+84.73" too: JSON has no '+', the number is written without it;
   not C's hexadecimal "0x10"), null for "" and "n/a", else a string. */
CHRONO__PRIVATE void chrono__json_cell(FILE *out, const char *c)
{
    char *end;
    double v;
    const char *d = c[0] == '-' || c[0] == '+' ? c + 1 : c;
    if (!c[0] || strcmp(c, "n/a") == 0) { fputs("null", out); return; }
    v = strtod(c, &end);
    if (*end == '\0' && end != c && chrono__finite(v) && !strpbrk(c, "xXpP") &&
        ((d[0] >= '0' && d[0] <= '9') || (d[0] == '.' && d[1] >= '0' && d[1] <= '9')))
        chrono__jnum_value(out, v);
    else chrono__json_str(out, c);
}

/* `"key": [ {...}, ... ]` at the given indent (a member of an object). */
CHRONO__PRIVATE void chrono__json_table(FILE *out, const chrono_table *t, int indent)
{
    size_t r, c;
    fprintf(out, "%*s", indent, "");
    chrono__json_str(out, t->key);
    fputs(": [", out);
    for (r = 0; r < t->nrows; r++) {
        fprintf(out, r ? ",\n%*s{\n" : "\n%*s{\n", indent + 2, "");
        for (c = 0; c < t->ncols; c++) {
            fprintf(out, c ? ",\n%*s" : "%*s", indent + 4, "");
            chrono__json_str(out, t->cols[c]);
            fputs(": ", out);
            chrono__json_cell(out, t->cells[r * t->ncols + c]);
        }
        fprintf(out, "\n%*s}", indent + 2, "");
    }
    fprintf(out, t->nrows ? "\n%*s]" : "]", t->nrows ? indent : 0, "");
}

/* Row r of the text and markdown tables: 0 the column names, then the cells. */
CHRONO__PRIVATE const char *chrono__table_cell(const chrono_table *t, size_t r, size_t c)
{
    return r ? t->cells[(r - 1) * t->ncols + c] : t->cols[c];
}

/* Each column's width: its widest escaped cell. */
CHRONO__PRIVATE void chrono__table_widths(const chrono_table *t, chrono_format fmt, size_t *w)
{
    char buf[640];
    size_t r, c;
    for (c = 0; c < t->ncols; c++) {
        w[c] = 0;
        for (r = 0; r <= t->nrows; r++) {
            size_t k =
                chrono__width(chrono_escape_buf(buf, sizeof buf, chrono__table_cell(t, r, c), fmt));
            if (k > w[c]) w[c] = k;
        }
    }
}

CHRONO__PRIVATE int chrono__text_table(FILE *out, const chrono_table *t, chrono_format fmt)
{
    size_t r, c, wbuf[32],
        *w = t->ncols <= 32 ? wbuf : (size_t *)CHRONO_MALLOC(t->ncols * sizeof *w);
    int md = fmt == CHRONO_FORMAT_MARKDOWN;
    char buf[640];
    if (!w) return CHRONO_ENOMEM;
    chrono__table_widths(t, fmt, w);
    fprintf(out, md ? "\n### %s\n\n" : "\n%s\n", t->title ? t->title : t->key);
    for (r = 0; r <= t->nrows; r++) {
        for (c = 0; c < t->ncols; c++) {
            const char *s = chrono_escape_buf(buf, sizeof buf, chrono__table_cell(t, r, c), fmt);
            fputs(md ? "| " : c ? "  " : "", out);
            chrono__pad(out, s, w[c], c > 0);
            if (md) fputs(" ", out);
        }
        fputs(md ? "|\n" : "\n", out);
        if (md && r == 0) {
            for (c = 0; c < t->ncols; c++) fputs(c ? "|---:" : "|:---", out);
            fputs("|\n", out);
        }
    }
    if (w != wbuf) CHRONO_FREE(w);
    return 0;
}

CHRONO__PRIVATE void chrono__csv_table(FILE *out, const chrono_table *t)
{
    size_t r, c;
    fputs("\r\n", out);
    for (r = 0; r <= t->nrows; r++) {
        for (c = 0; c < t->ncols; c++) {
            if (c) fputc(',', out);
            (void)chrono_escape(out, chrono__table_cell(t, r, c), CHRONO_FORMAT_CSV);
        }
        fputs("\r\n", out);
    }
}

/* A table inside a report: text, markdown and CSV as chrono_table_write;
   JSON as the member `"key": [...]` at `indent` (the caller writes the
   braces and commas around it).  0 or CHRONO_ENOMEM. */
CHRONO__PRIVATE int chrono__table_body(FILE *out, chrono_format fmt, const chrono_table *t,
                                       int indent)
{
    switch (fmt) {
    case CHRONO_FORMAT_CSV:  chrono__csv_table(out, t); return 0;
    case CHRONO_FORMAT_JSON: chrono__json_table(out, t, indent); return 0;
    default:                 return chrono__text_table(out, t, fmt);
    }
}

CHRONO_API int chrono_table_write(FILE *out, chrono_format fmt, const chrono_table *t)
{
    int rc;
    if (!out || !chrono__table_ok(t) || (int)fmt < CHRONO_FORMAT_TEXT ||
        (int)fmt > CHRONO_FORMAT_JSON)
        return CHRONO_EINVAL;
    if (fmt == CHRONO_FORMAT_JSON) fputs("{\n", out);
    rc = chrono__table_body(out, fmt, t, 2);
    if (fmt == CHRONO_FORMAT_JSON) fputs("\n}\n", out);
    if (rc < 0) return rc;
    if (fflush(out) != 0) return CHRONO_EIO;
    return chrono__io(out);
}

CHRONO__EXTERN_C_END
#endif /* CHRONOSCOPE_TABLE_IMPL */
