/* tools/: the progress bar, with the time left estimated from the rate so
 * far. Redrawn at most ten times a second. */
#include "tools/progress.h"

#include "base/clock.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

void progress_init(progress *p, const char *label, size_t total)
{
    pthread_mutex_init(&p->lock, NULL);
    p->done = 0;
    p->total = total;
    p->start_ms = p->last_ms = base_now_ms();
    p->tty = isatty(STDERR_FILENO);
    p->label = label;
}

static void draw(progress *p, double now)
{
    enum { WIDTH = 30 };
    if (p->total == 0) {
        double secs = (now - p->start_ms) / 1000.0;
        fprintf(stderr, "\r%s %zu done  %.0f s, %.1f a second   ", p->label, p->done, secs,
                secs > 0 ? (double)p->done / secs : 0.0);
        fflush(stderr);
        return;
    }
    size_t fill = p->total ? p->done * WIDTH / p->total : WIDTH;
    char bar[WIDTH + 1];
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    double elapsed = (now - p->start_ms) / 1000.0;
    double left = p->done ? elapsed * (double)(p->total - p->done) / (double)p->done : 0;
    fprintf(stderr, "\r%s [%s] %zu/%zu  %.0f s, about %.0f s left   ", p->label, bar, p->done,
            p->total, elapsed, left);
    fflush(stderr);
}

void progress_step(progress *p, size_t n)
{
    pthread_mutex_lock(&p->lock);
    p->done += n;
    double now = base_now_ms();
    if (p->tty && (now - p->last_ms > 100 || p->done == p->total)) {
        p->last_ms = now;
        draw(p, now);
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_note(progress *p, const char *line)
{
    pthread_mutex_lock(&p->lock);
    if (p->tty)
        fputs("\r\033[K", stderr);
    fputs(line, stderr);
    if (p->tty)
        draw(p, base_now_ms());
    pthread_mutex_unlock(&p->lock);
}

void progress_end(progress *p)
{
    if (p->tty) {
        draw(p, base_now_ms());
        fputc('\n', stderr);
    }
    pthread_mutex_destroy(&p->lock);
}
