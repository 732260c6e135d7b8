/* tune_cache.h — the tuning cache: where --tune remembers the candidate it
 * measured fastest at a shape, so that a later run of that shape on the
 * same GPU and build runs it without measuring again (step 10's menu; the
 * harness reads and writes the cache, gemm_impl.cuh).  Plain C, host only,
 * tested in tests/test_tune_cache.c.
 *
 * A text file next to the binary (build/tune_cache.txt), never committed.
 * One line per tuned shape, appended by --tune:
 *   <key> <configuration>/<plan>
 * key = gpu=<name>|sms=<n>|cuda=<version>|menu=<hash>|rev=<git rev>|<M>x<N>x<K>
 * (spaces in the GPU name become '_').  The last line with the key wins.  A
 * line that does not parse, or whose candidate is not on this menu, is
 * refused with a message, and the model decides. */
#ifndef COMMON_TUNE_CACHE_H
#define COMMON_TUNE_CACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TUNE_CACHE_MISS = 0, TUNE_CACHE_HIT = 1, TUNE_CACHE_BAD = 2 };

/* FNV-1a over the names of the menu's configurations: a cache written for
 * another menu does not match. */
unsigned tune_cache_menu_hash(const char *const *names, int n);

void tune_cache_key(char *buf, size_t len, const char *gpu, int sms, const char *cuda, unsigned menu_hash,
                    const char *rev, int M, int N, int K);

/* Looks `key` up in `path`; on a hit copies the candidate ("128x128/dp") to
 * `cand`.  A line that does not parse is refused: `msg` names the last such
 * line, and the result is TUNE_CACHE_BAD when it carries this key (unless a
 * later good line of the key overrides it).  No file: a miss. */
int tune_cache_lookup(const char *path, const char *key, char *cand, size_t cand_len, char *msg,
                      size_t msg_len);

/* Appends `key cand`; returns 0, or -1 with msg filled. */
int tune_cache_store(const char *path, const char *key, const char *cand, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif
