#include <curl/curl.h>

/* Variadic curl_easy_setopt is not callable from Swift: one typed wrapper per argument kind. */
static inline CURLcode floor_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode floor_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode floor_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode floor_setopt_write(CURL *easy, size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode curl_easy_getinfo_pointer(CURL *easy, char **value) {
    return curl_easy_getinfo(easy, CURLINFO_PRIVATE, value);
}
