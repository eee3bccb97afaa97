/* base/: tables of typed parameters.
 *
 * A parameter is a field of some struct (a "block"), described once: its
 * key, type, offset, range, default and one line of documentation. From
 * that one row come the default, the parsing of a value given as text (a
 * command-line flag, a query parameter, glance_options_set), the check of
 * its range, the text of the current value and the documentation (--help,
 * docs/options.md's table). So a parameter is added in one place and is
 * reachable everywhere, and no two lists of fields can drift apart.
 */
#ifndef GLANCE_BASE_PARAM_H
#define GLANCE_BASE_PARAM_H

#include <stddef.h>

#include "base/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum base_param_type {
    BASE_PARAM_BOOL,   /* int 0 or 1: "1" "0" "true" "false" "yes" "no" "on" "off" */
    BASE_PARAM_INT,    /* int */
    BASE_PARAM_LONG,   /* long */
    BASE_PARAM_SIZE,   /* size_t, a count of bytes or things: a whole number,
                          optionally with k, M or G (powers of 1024) */
    BASE_PARAM_DOUBLE, /* double, finite */
    BASE_PARAM_MS,     /* long milliseconds, written in seconds ("2.5") or with
                          a unit ("250ms", "3s", "1min") */
    BASE_PARAM_PAIR,   /* two ints side by side, written "WxH" */
    BASE_PARAM_CHOICE, /* int: the index of a name among `choices` */
    BASE_PARAM_STRING  /* char *, owned by the block (strdup'd); NULL allowed */
} base_param_type;

/* Flags of a parameter. The low byte is base/'s; the rest is for the
 * folders that own a table to give meaning to. */
enum {
    BASE_PARAM_ABOVE_MIN = 1 << 0, /* the minimum itself is out of range */
    BASE_PARAM_NULLABLE = 1 << 1   /* STRING: "" sets NULL */
};

typedef struct base_param {
    const char *key;     /* "gce.alpha": lower case, '_' between words */
    base_param_type type;
    size_t offset;       /* of the field in the block */
    double min, max;     /* numbers (each of a pair; MS in ms): the range */
    const char *def;     /* the default as text ("0.5", "1920x1080", "child");
                            NULL for a STRING whose default is NULL */
    const char *doc;     /* one line, no trailing period */
    const char *choices; /* CHOICE: the names, '|' between them ("child|parent") */
    unsigned flags;
    const char *alias;   /* another name accepted for the key (an older flag);
                            NULL: none */
} base_param;

/* The row of `key` (or of its alias) in a table of n rows; NULL when none.
 * '-' in `key` matches '_' in the table (flags are written with dashes). */
const base_param *base_param_find(const base_param *tab, size_t n, const char *key);

/* Parses `text` into the parameter's field of `block`, checking its range;
 * 0, or -1 with the reason in `why` (the key, the value and the range:
 * "gce.alpha: '-1' must be above 0 and at most 100"), -2 when out of
 * memory. The field keeps its value when the text is refused. */
int base_param_parse(const base_param *p, void *block, const char *text, char *why, size_t cap);

/* The current value of the field as text, the form base_param_parse reads
 * back (a STRING that is NULL: ""). */
void base_param_format(const base_param *p, const void *block, base_buf *out);

/* The range and form of a parameter in a few words ("0 to 1", "above 0,
 * at most 100", "WxH, each 100 to 16384", "child|parent", "on|off"). */
void base_param_describe(const base_param *p, base_buf *out);

/* A name for the type in documentation: "on|off", "integer", "number",
 * "bytes", "seconds", "WxH", "name", "text". */
const char *base_param_type_name(const base_param *p);

/* Every field of the block to its default; 0, or -1 when out of memory (or
 * when a default does not parse: a bug in the table, said in `why`). */
int base_params_default(const base_param *tab, size_t n, void *block, char *why, size_t cap);

/* A copy of a block of `size` bytes whose STRING fields are duplicated;
 * 0, or -1 when out of memory (dst is then left with no strings of its
 * own). */
int base_params_copy(const base_param *tab, size_t n, void *dst, const void *src, size_t size);

/* Frees the STRING fields of a block (the block itself is the caller's). */
void base_params_free(const base_param *tab, size_t n, void *block);

#ifdef __cplusplus
}
#endif

#endif
