/*
 * The ceiling for a libcurl backend: raw libcurl multi interface from C, one thread, no framework.
 *
 *   curl_multi_load URL CONCURRENCY REQUESTS [MAX_SECONDS=30] [WARMUP=500]
 *
 * Keeps CONCURRENCY transfers in flight, reusing each easy handle (and through the multi handle's
 * connection cache, each keep-alive connection) until REQUESTS have completed or MAX_SECONDS have
 * passed, after WARMUP requests that are not counted. Bodies are counted, not stored. Prints one line:
 *   RESULT client=clibcurl url=… c=… ok=… errors=… elapsed_s=… rps=… p50_us=… p99_us=… bytes=… mb_s=…
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct {
    CURL *easy;
    double started;
    long long bytes;
} slot_t;

static size_t count_body(char *data, size_t size, size_t count, void *user) {
    (void)data;
    ((slot_t *)user)->bytes += (long long)(size * count);
    return size * count;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    long long ok, errors, bytes;
    double *latencies; /* microseconds of successful requests */
    double elapsed;
} outcome_t;

/* Runs `total` requests (bounded by `max_seconds`) at `concurrency`, on already created slots. */
static outcome_t run(CURLM *multi, slot_t *slots, int concurrency, long long total, double max_seconds) {
    outcome_t out = {0, 0, 0, calloc((size_t)(total > 0 ? total : 1), sizeof(double)), 0};
    long long issued = 0, done = 0;
    double start = now_s(), deadline = start + max_seconds;
    for (int i = 0; i < concurrency && issued < total; i++, issued++) {
        slots[i].started = now_s();
        slots[i].bytes = 0;
        curl_multi_add_handle(multi, slots[i].easy);
    }
    while (done < issued) {
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(multi, &left))) {
            if (msg->msg != CURLMSG_DONE) continue;
            slot_t *slot = NULL;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            long status = 0;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            double finished = now_s();
            if (msg->data.result == CURLE_OK && status == 200) {
                out.latencies[out.ok++] = (finished - slot->started) * 1e6;
                out.bytes += slot->bytes;
            } else {
                out.errors++;
            }
            done++;
            curl_multi_remove_handle(multi, slot->easy);
            if (issued < total && finished < deadline) {
                slot->started = finished;
                slot->bytes = 0;
                curl_multi_add_handle(multi, slot->easy);
                issued++;
            }
        }
        if (done < issued) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    out.elapsed = now_s() - start;
    return out;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s URL CONCURRENCY REQUESTS [MAX_SECONDS=30] [WARMUP=500]\n", argv[0]);
        return 64;
    }
    const char *url = argv[1];
    int concurrency = atoi(argv[2]);
    long long total = atoll(argv[3]);
    double max_seconds = argc > 4 ? atof(argv[4]) : 30;
    long long warmup = argc > 5 ? atoll(argv[5]) : 500;
    if (concurrency < 1 || total < 1) {
        fprintf(stderr, "concurrency and requests must be at least 1\n");
        return 64;
    }

    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)concurrency);
    slot_t *slots = calloc((size_t)concurrency, sizeof(slot_t));
    for (int i = 0; i < concurrency; i++) {
        CURL *easy = curl_easy_init();
        curl_easy_setopt(easy, CURLOPT_URL, url);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, count_body);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &slots[i]);
        curl_easy_setopt(easy, CURLOPT_PRIVATE, &slots[i]);
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        slots[i].easy = easy;
    }

    if (warmup > 0) free(run(multi, slots, concurrency, warmup, max_seconds).latencies);
    outcome_t out = run(multi, slots, concurrency, total, max_seconds);

    qsort(out.latencies, (size_t)out.ok, sizeof(double), by_value);
    double p50 = out.ok ? out.latencies[(long long)(0.50 * (double)(out.ok - 1))] : 0;
    double p99 = out.ok ? out.latencies[(long long)(0.99 * (double)(out.ok - 1))] : 0;
    double elapsed = out.elapsed > 0 ? out.elapsed : 1e-9;
    printf("RESULT client=clibcurl url=%s c=%d ok=%lld errors=%lld elapsed_s=%.3f rps=%.1f p50_us=%.1f p99_us=%.1f "
           "bytes=%lld mb_s=%.1f\n",
           url, concurrency, out.ok, out.errors, elapsed, (double)out.ok / elapsed, p50, p99, out.bytes,
           (double)out.bytes / elapsed / 1e6);

    free(out.latencies);
    for (int i = 0; i < concurrency; i++) curl_easy_cleanup(slots[i].easy);
    free(slots);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return out.errors ? 1 : 0;
}
