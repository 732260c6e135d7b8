/* tune_cache.c — see tune_cache.h. */
#include "tune_cache.h"

#include <stdio.h>
#include <string.h>

unsigned tune_cache_menu_hash(const char *const *names, int n)
{
    unsigned h = 2166136261u;
    for (int c = 0; c < n; ++c) {
        for (const char *p = names[c]; *p; ++p) h = (h ^ (unsigned char)*p) * 16777619u;
        h = (h ^ (unsigned char)';') * 16777619u;   /* the end of a name: "a" "bc" is not "ab" "c" */
    }
    return h;
}

void tune_cache_key(char *buf, size_t len, const char *gpu, int sms, const char *cuda, unsigned menu_hash,
                    const char *rev, int M, int N, int K)
{
    snprintf(buf, len, "gpu=%s|sms=%d|cuda=%s|menu=%08x|rev=%s|%dx%dx%d", gpu, sms, cuda, menu_hash, rev,
             M, N, K);
    for (char *p = buf; *p; ++p)
        if (*p == ' ' || *p == '\t') *p = '_';
}

int tune_cache_lookup(const char *path, const char *key, char *cand, size_t cand_len, char *msg,
                      size_t msg_len)
{
    FILE *f = fopen(path, "r");
    if (!f) return TUNE_CACHE_MISS;
    char line[1024];
    int rc = TUNE_CACHE_MISS, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#') continue;
        char k[768], c[128], extra[8];
        const int got = sscanf(line, "%767s %127s %7s", k, c, extra);
        const int key_match = got >= 1 && strcmp(k, key) == 0;
        if (got != 2 || !strchr(c, '/')) {
            snprintf(msg, msg_len, "%s:%d: not '<key> <configuration>/<plan>': '%.80s'", path, lineno, line);
            if (key_match) rc = TUNE_CACHE_BAD;
            continue;
        }
        if (!key_match) continue;
        snprintf(cand, cand_len, "%s", c);
        rc = TUNE_CACHE_HIT;
    }
    fclose(f);
    return rc;
}

int tune_cache_store(const char *path, const char *key, const char *cand, char *msg, size_t msg_len)
{
    FILE *f = fopen(path, "a");
    if (!f || fprintf(f, "%s %s\n", key, cand) < 0) {
        snprintf(msg, msg_len, "tuning cache %s: cannot append (the winner is not stored)", path);
        if (f) fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}
