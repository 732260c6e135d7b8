/* csv.c — see csv.h. */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int put(char *buf, size_t len, size_t *pos, const char *s)
{
    size_t n = strlen(s);
    if (*pos + n + 1 > len) return -1;
    memcpy(buf + *pos, s, n);
    *pos += n;
    buf[*pos] = '\0';
    return 0;
}

static int put_text(char *buf, size_t len, size_t *pos, const char *s)
{
    if (!s) return 0;
    for (; *s; ++s) {
        char c = *s;
        if (c == ',') c = ';';
        if (c == '"') c = '\'';
        if (c == '\n' || c == '\r') c = ' ';
        char one[2] = {c, 0};
        if (put(buf, len, pos, one)) return -1;
    }
    return 0;
}

static int put_i64(char *buf, size_t len, size_t *pos, int64_t v)
{
    char tmp[32] = "";
    if (v >= 0) snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    return put(buf, len, pos, tmp);
}

static int put_f(char *buf, size_t len, size_t *pos, double v, const char *fmt)
{
    char tmp[48] = "";
    if (!isnan(v) && !isinf(v)) snprintf(tmp, sizeof tmp, fmt, v);
    return put(buf, len, pos, tmp);
}

int csv_format_row(const csv_row *r, char *buf, size_t len)
{
    size_t pos = 0;
    int e = 0;
    if (len) buf[0] = '\0';
    e |= put_text(buf, len, &pos, r->step);        e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->variant);     e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->m);            e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->n);            e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->k);            e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->n_elems);      e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->work);         e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->stages);       e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->ms_median, "%.6f");    e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->tflops, "%.2f");       e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->gbps, "%.1f");         e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->ref_name);          e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->ref_value, "%.2f");    e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->ratio_to_ref, "%.4f"); e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->rel_err, "%.3e");      e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->gpu);               e |= put(buf, len, &pos, ",");
    e |= put_f(buf, len, &pos, r->sm_clock_mhz, "%.0f"); e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->cuda_version);      e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->git_rev);           e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->date);              e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->impl);              e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->group > 0 ? r->group : -1);     e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->cluster > 0 ? r->cluster : -1); e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->mode);              e |= put(buf, len, &pos, ",");
    e |= put_i64(buf, len, &pos, r->repeat > 0 ? r->repeat : -1); e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->harness);           e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->chooser);           e |= put(buf, len, &pos, ",");
    e |= put_text(buf, len, &pos, r->config);
    return e ? -1 : (int)pos;
}

/* Rewrites `f` (open for reading at its start) with CSV_HEADER as its first
 * line and every later line unchanged, through a file beside it. */
static int csv_upgrade_header(FILE *f, const char *path, char *msg, size_t msg_len)
{
    char tmp[4096], line[4096];
    snprintf(tmp, sizeof tmp, "%s.upgrade", path);
    FILE *o = fopen(tmp, "w");
    if (!o) {
        snprintf(msg, msg_len, "--csv %s: cannot write %s to upgrade its header: %s", path, tmp,
                 strerror(errno));
        return -1;
    }
    int e = fprintf(o, "%s\n", CSV_HEADER) < 0;
    rewind(f);
    if (!fgets(line, sizeof line, f)) e = 1;   /* the old header, dropped */
    size_t n;
    while (!e && (n = fread(line, 1, sizeof line, f)) > 0) e = fwrite(line, 1, n, o) != n;
    if (fclose(o) != 0 || e || rename(tmp, path) != 0) {
        snprintf(msg, msg_len, "--csv %s: upgrading its header failed: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* 0: the header is CSV_HEADER; 1: an older schema, to upgrade; -1: foreign. */
static int csv_header_kind(FILE *f)
{
    char line[4096];
    rewind(f);
    if (!fgets(line, sizeof line, f)) return -1;
    line[strcspn(line, "\r\n")] = '\0';
    if (strcmp(line, CSV_HEADER) == 0) return 0;
    const size_t n = strlen(line);
    if (n > 0 && strncmp(line, CSV_HEADER, n) == 0 && CSV_HEADER[n] == ',') return 1;
    return -1;
}

int csv_append(const char *path, const csv_row *r, char *msg, size_t msg_len)
{
    char line[2048];
    if (csv_format_row(r, line, sizeof line) < 0) {
        snprintf(msg, msg_len, "--csv %s: row too long to format", path);
        return -1;
    }
    FILE *f = fopen(path, "a+");
    if (!f) {
        snprintf(msg, msg_len, "--csv %s: cannot open for appending: %s", path, strerror(errno));
        return -1;
    }
    fseek(f, 0, SEEK_END);
    int fresh = ftell(f) == 0;
    if (!fresh) {
        const int kind = csv_header_kind(f);
        if (kind < 0) {
            snprintf(msg, msg_len, "--csv %s: its first line is not this schema's header (nor an "
                     "older one's); write to a new file", path);
            fclose(f);
            return -1;
        }
        if (kind == 1) {
            if (csv_upgrade_header(f, path, msg, msg_len) != 0) { fclose(f); return -1; }
            fclose(f);
            f = fopen(path, "a");
            if (!f) {
                snprintf(msg, msg_len, "--csv %s: cannot reopen after the header upgrade: %s", path,
                         strerror(errno));
                return -1;
            }
        }
        fseek(f, 0, SEEK_END);
    }
    if ((fresh && fprintf(f, "%s\n", CSV_HEADER) < 0) || fprintf(f, "%s\n", line) < 0) {
        snprintf(msg, msg_len, "--csv %s: write failed: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0) {
        snprintf(msg, msg_len, "--csv %s: close failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void csv_now_utc(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}
