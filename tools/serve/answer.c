/* tools/serve/: error answers, in glance_status_name's words. */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/serve/serve.h"

void serve_error(serve_answer *a, int code, const char *status, const char *message)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "error", json_object_new_string(message ? message : ""));
    json_object_object_add(o, "status", json_object_new_string(status));
    json_object_object_add(o, "code", json_object_new_int(code));
    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
    a->code = code;
    a->ctype = "application/json";
    a->body = s ? strdup(s) : NULL;
    a->len = a->body ? strlen(a->body) : 0;
    json_object_put(o);
}

int serve_http_code(glance_status st)
{
    switch (st) {
    case GLANCE_OK: return 200;
    case GLANCE_EURL:
    case GLANCE_EOPTION:
    case GLANCE_EOFFLINE: return 400; /* a client's own ?offline=on, with a URL */
    case GLANCE_EADDR: return 403;
    case GLANCE_ETOOBIG:
    case GLANCE_ECOSTLY: return 413;
    case GLANCE_ENOCONTENT:
    case GLANCE_EINPUT: return 422;
    case GLANCE_EFETCH:
    case GLANCE_EREDIRECTS: return 502;
    case GLANCE_ETIMEOUT: return 504;
    case GLANCE_EBROWSER: return 503; /* the server's browser, not the page */
    default: return 500;
    }
}

void serve_error_as(serve_answer *a, int reader, int code, const char *status,
                    const char *message, const char *src)
{
    if (!reader) {
        serve_error(a, code, status, message);
        return;
    }
    size_t len = 0;
    char *page = serve_reader_error_page(code, status, message, src, &len);
    if (!page) {
        serve_error(a, code, status, message);
        return;
    }
    *a = (serve_answer){code, "text/html; charset=utf-8", page, len, 0};
}
