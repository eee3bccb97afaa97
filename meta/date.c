/* meta/: dates by their form, written as ISO 8601 (meta.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "meta/meta.h"

static int days_in(int y, int m)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return d[m - 1];
}

/* Years a page could be dated in: older ones are numbers of another kind. */
static int valid_date(int y, int m, int d)
{
    return y >= 1900 && y <= 2199 && m >= 1 && m <= 12 && d >= 1 && d <= days_in(y, m);
}

/* n digits at *p as a number, advancing; -1 when they are not there. */
static int digits(const char **p, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i]))
            return -1;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    return v;
}

/* 1 or 2 digits, not followed by a third. */
static int short_number(const char **p)
{
    const char *q = *p;
    int n = 0;
    while (isdigit((unsigned char)q[n]) && n < 3)
        n++;
    if (n < 1 || n > 2)
        return -1;
    return digits(p, n);
}

int meta_date_iso(const char *s, char *out, size_t cap)
{
    while (isspace((unsigned char)*s))
        s++;
    const char *p = s;
    int y = digits(&p, 4), m, d;
    if (y < 0)
        return 0;
    if (*p == '-' || *p == '/' || *p == '.') {
        char sep = *p++;
        if ((m = short_number(&p)) < 0 || *p++ != sep || (d = short_number(&p)) < 0)
            return 0;
    } else if ((m = digits(&p, 2)) < 0 || (d = digits(&p, 2)) < 0) {
        return 0;
    }
    if (!valid_date(y, m, d))
        return 0;
    int hh = -1, mm = 0, ss = 0;
    char zone[8] = "";
    if ((*p == 'T' || *p == 't' || *p == ' ') && isdigit((unsigned char)p[1])) {
        p++;
        if ((hh = digits(&p, 2)) < 0 || *p++ != ':' || (mm = digits(&p, 2)) < 0)
            return 0;
        if (*p == ':') {
            p++;
            if ((ss = digits(&p, 2)) < 0)
                return 0;
            if (*p == '.' || *p == ',') /* a fraction of a second: dropped */
                for (p++; isdigit((unsigned char)*p); p++)
                    ;
        }
        if (hh > 23 || mm > 59 || ss > 60)
            return 0;
        while (*p == ' ')
            p++;
        if (*p == 'Z' || *p == 'z') {
            strcpy(zone, "Z");
            p++;
        } else if (!strncmp(p, "UTC", 3) || !strncmp(p, "GMT", 3)) {
            strcpy(zone, "Z");
            p += 3;
        } else if (*p == '+' || *p == '-') {
            char sign = *p++;
            int zh = digits(&p, 2), zm = 0;
            if (zh < 0 || zh > 14)
                return 0;
            if (*p == ':')
                p++;
            if (isdigit((unsigned char)*p) && (zm = digits(&p, 2)) < 0)
                return 0;
            if (zm > 59)
                return 0;
            snprintf(zone, sizeof zone, "%c%02d:%02d", sign, zh, zm);
        }
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p)
        return 0;
    if (hh < 0)
        snprintf(out, cap, "%04d-%02d-%02d", y, m, d);
    else
        snprintf(out, cap, "%04d-%02d-%02dT%02d:%02d:%02d%s", y, m, d, hh, mm, ss, zone);
    return 1;
}

int meta_date_in_text(const char *s, int month_first, char *out, size_t cap)
{
    for (const char *q = s; *q; q++) {
        /* A number that starts here, not inside another. */
        if (!isdigit((unsigned char)*q) || (q > s && (isalnum((unsigned char)q[-1]))))
            continue;
        const char *p = q;
        int n = 0;
        while (isdigit((unsigned char)p[n]))
            n++;
        if (n == 4 && (p[4] == '-' || p[4] == '.' || p[4] == '/')) {
            /* Y-M-D, with its time when it has one (ISO 8601). */
            char tok[40];
            size_t k = 0;
            while (p[k] && k + 1 < sizeof tok && (isdigit((unsigned char)p[k]) || strchr("-./:T+Z", p[k])))
                k++;
            while (k > 10 && !isdigit((unsigned char)p[k - 1]) && p[k - 1] != 'Z')
                k--; /* a sentence's full stop is no part of it */
            memcpy(tok, p, k);
            tok[k] = '\0';
            for (size_t cut = k; cut >= 8; cut--) {
                tok[cut] = '\0';
                if (meta_date_iso(tok, out, cap))
                    return 1;
            }
            continue;
        }
        if (n < 1 || n > 2)
            continue;
        int a = 0, b = 0, y = 0;
        p = q;
        a = short_number(&p);
        char sep = *p;
        if (sep != '.' && sep != '/' && sep != '-')
            continue;
        p++;
        /* "5. 3. 2024" is written too, with a space after each dot. */
        if (sep == '.' && *p == ' ')
            p++;
        if ((b = short_number(&p)) < 0 || *p != sep)
            continue;
        p++;
        if (sep == '.' && *p == ' ')
            p++;
        if ((y = digits(&p, 4)) < 0 || isdigit((unsigned char)*p))
            continue;
        int day, month;
        if (sep == '.') { /* dotted dates put the day first wherever they are written */
            day = a;
            month = b;
        } else if (a > 12) {
            day = a;
            month = b;
        } else if (b > 12) {
            month = a;
            day = b;
        } else {
            month = month_first ? a : b;
            day = month_first ? b : a;
        }
        if (valid_date(y, month, day)) {
            snprintf(out, cap, "%04d-%02d-%02d", y, month, day);
            return 1;
        }
    }
    return 0;
}
