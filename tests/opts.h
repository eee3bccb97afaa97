/* Options for the tests: made from "key=value" strings, each asserted to
 * be accepted, so that a test reads as the options it runs with:
 *
 *     glance_options *o = OPTS("window=800x600", "method=gce");
 *     ...
 *     glance_options_free(o);
 *
 * and the checks of the options API the tests share: a value read back
 * (OPTS_TEXT, OPTS_NUMBER), a value refused (OPTS_REFUSED). The macros
 * report a failure at the test's own line. */
#ifndef GLANCE_TESTS_OPTS_H
#define GLANCE_TESTS_OPTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "glance.h"

/* Fails the running test at file:line with a message. */
static inline void opts_fail(const char *file, int line, const char *fmt, ...)
    CMOCKA_PRINTF_ATTRIBUTE(3, 4);
static inline void opts_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_error("ERROR: ");
    vprint_error(fmt, ap);
    print_error("\n");
    va_end(ap);
    _fail(file, line);
}

/* Sets one "key=value" (the value is everything after the first '='),
 * failing the test when it is refused. */
static inline void opts_set_at(const char *file, int line, glance_options *o, const char *kv)
{
    const char *eq = strchr(kv, '=');
    char key[128];
    size_t n = eq ? (size_t)(eq - kv) : 0;
    if (!eq || n >= sizeof key) {
        opts_fail(file, line, "option '%s' is not key=value", kv);
        return;
    }
    memcpy(key, kv, n);
    key[n] = '\0';
    glance_status st = glance_options_set(o, key, eq + 1);
    if (st != GLANCE_OK)
        opts_fail(file, line, "option '%s' refused (%s): %s", kv, glance_status_name(st),
                  glance_options_error(o));
}

/* Sets each "key=value" of a list ending with NULL. */
static inline void opts_setv_at(const char *file, int line, glance_options *o, const char *kv,
                                va_list ap)
{
    for (; kv; kv = va_arg(ap, const char *))
        opts_set_at(file, line, o, kv);
}

static inline void opts_put_at(const char *file, int line, glance_options *o, const char *kv, ...)
{
    va_list ap;
    va_start(ap, kv);
    opts_setv_at(file, line, o, kv, ap);
    va_end(ap);
}

static inline glance_options *opts_of_at(const char *file, int line, const char *kv, ...)
{
    glance_options *o = glance_options_new();
    if (!o) {
        opts_fail(file, line, "glance_options_new gave NULL");
        return NULL;
    }
    va_list ap;
    va_start(ap, kv);
    opts_setv_at(file, line, o, kv, ap);
    va_end(ap);
    return o;
}

/* New options: the defaults but for the "key=value" strings given, up to a
 * NULL (opts_of(NULL): the defaults), each asserted to be accepted. The
 * caller frees them with glance_options_free. */
static inline glance_options *opts_of(const char *kv, ...)
{
    glance_options *o = glance_options_new();
    assert_non_null(o);
    va_list ap;
    va_start(ap, kv);
    opts_setv_at(__FILE__, __LINE__, o, kv, ap);
    va_end(ap);
    return o;
}

/* OPTS("window=800x600", "method=gce"): opts_of with the NULL appended.
 * OPTS_SET(o, "cleanup=off", ...): sets more on existing options. */
#define OPTS(...) opts_of_at(__FILE__, __LINE__, __VA_ARGS__, (const char *)NULL)
#define OPTS_SET(o, ...) opts_put_at(__FILE__, __LINE__, (o), __VA_ARGS__, (const char *)NULL)

/* An option's value as text (the caller frees it); fails the test for an
 * unknown key. */
static inline char *opts_get_at(const char *file, int line, const glance_options *o,
                                const char *key)
{
    char *v = glance_options_get(o, key);
    if (!v)
        opts_fail(file, line, "glance_options_get(\"%s\") gave NULL", key);
    return v;
}

/* `key` reads back as exactly `want`. */
static inline void opts_text_at(const char *file, int line, const glance_options *o,
                                const char *key, const char *want)
{
    char *v = opts_get_at(file, line, o, key);
    int same = v && strcmp(v, want) == 0;
    if (!same)
        opts_fail(file, line, "option %s is '%s', not '%s'", key, v ? v : "(null)", want);
    free(v);
}

/* `key` reads back as the number `want`: doubles come back as "%.17g"
 * ("0.333" as "0.33300000000000002"), so numbers are compared, not text. */
static inline void opts_number_at(const char *file, int line, const glance_options *o,
                                  const char *key, double want)
{
    char *v = opts_get_at(file, line, o, key);
    if (!v)
        return;
    char *end;
    double d = strtod(v, &end);
    int bad = end == v || *end;
    double tol = 1e-12 * (want < 0 ? -want : want > 1 ? want : 1);
    if (bad || d < want - tol || d > want + tol)
        opts_fail(file, line, "option %s is '%s', not %.17g", key, v, want);
    free(v);
}

/* Setting `key` to `value` is refused with GLANCE_EOPTION, the message
 * names `named` (the key as the message gives it), and the option keeps
 * the value it had. */
static inline void opts_refused_at(const char *file, int line, glance_options *o,
                                   const char *key, const char *value, const char *named)
{
    char *before = glance_options_get(o, key);
    glance_status st = glance_options_set(o, key, value);
    char *after = glance_options_get(o, key);
    const char *why = glance_options_error(o);
    char msg[512] = "";
    if (st != GLANCE_EOPTION)
        snprintf(msg, sizeof msg, "%s=%s: %s, not badoption", key, value ? value : "(null)",
                 glance_status_name(st));
    else if (!why || !strstr(why, named))
        snprintf(msg, sizeof msg, "%s=%s refused with '%s', which does not name '%s'", key,
                 value ? value : "(null)", why ? why : "(null)", named);
    else if ((before == NULL) != (after == NULL) || (before && strcmp(before, after) != 0))
        snprintf(msg, sizeof msg, "%s=%s refused, but the option went from '%s' to '%s'", key,
                 value ? value : "(null)", before ? before : "(null)", after ? after : "(null)");
    free(before);
    free(after);
    if (msg[0])
        opts_fail(file, line, "%s", msg);
}

#define OPTS_TEXT(o, key, want) opts_text_at(__FILE__, __LINE__, (o), (key), (want))
#define OPTS_NUMBER(o, key, want) opts_number_at(__FILE__, __LINE__, (o), (key), (want))
#define OPTS_REFUSED(o, key, value, named) \
    opts_refused_at(__FILE__, __LINE__, (o), (key), (value), (named))

#endif
