// Typed, non-variadic wrappers around libcurl's variadic functions, so Swift can call them.
#ifndef SWITCHYARD_CCURL_SHIM_H
#define SWITCHYARD_CCURL_SHIM_H

#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_CAINFO_BLOB and the other blob options; libcurl copies the bytes (CURL_BLOB_COPY).
static inline CURLcode ccurl_easy_setopt_blob_copy(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, option, &blob);
}

static inline CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION, which share one signature.
static inline CURLcode ccurl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_easy_setopt_read_callback(CURL *handle, curl_read_callback value) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, value);
}

static inline CURLcode ccurl_easy_setopt_seek_callback(CURL *handle, curl_seek_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}

/// CURLOPT_PREREQFUNCTION (libcurl 7.80+): called before each request goes out on a connection,
/// including the ones libcurl resends by itself. Pass NULL to remove it.
static inline CURLcode ccurl_easy_setopt_prereq_callback(CURL *handle, curl_prereq_callback value) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

/// CURLOPT_XFERINFOFUNCTION: progress (bytes received and sent so far); only called with
/// CURLOPT_NOPROGRESS set to 0.
static inline CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// CURLOPT_CLOSESOCKETFUNCTION: called instead of close() for every socket libcurl closes; the
/// connection keeps the function and its data (CURLOPT_CLOSESOCKETDATA) of the handle that opened it.
static inline CURLcode ccurl_easy_setopt_closesocket_callback(CURL *handle, curl_closesocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}

/// CURLOPT_SOCKOPTFUNCTION: called with each socket libcurl creates for a connection, before it connects.
static inline CURLcode ccurl_easy_setopt_sockopt_callback(CURL *handle, curl_sockopt_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, value);
}

static inline int ccurl_sockopt_ok(void) { return CURL_SOCKOPT_OK; }

/// The TLS version (OpenSSL's spelling, e.g. "TLSv1.3") and the ALPN protocol of the transfer's
/// connection, read from libcurl's TLS session (CURLINFO_TLS_SSL_PTR) when libcurl uses OpenSSL.
/// OpenSSL's two functions are looked up in the process, where libcurl loaded them, rather than
/// linked: nothing here links OpenSSL itself. Returns NULL (and no ALPN) for another TLS backend,
/// a connection without TLS, or when the functions are not found. Call it during the transfer.
static inline const char *ccurl_tls_details(CURL *handle, const unsigned char **alpn, unsigned int *alpnLength) {
    *alpn = NULL;
    *alpnLength = 0;
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL || info->internals == NULL
        || info->backend != CURLSSLBACKEND_OPENSSL) {
        return NULL;
    }
    void *process = dlopen(NULL, RTLD_LAZY);
    if (process == NULL) return NULL;
    typedef const char *(*version_function)(const void *);
    typedef void (*alpn_function)(const void *, const unsigned char **, unsigned int *);
    version_function version = (version_function)dlsym(process, "SSL_get_version");
    alpn_function selected = (alpn_function)dlsym(process, "SSL_get0_alpn_selected");
    const char *name = version != NULL ? version(info->internals) : NULL;
    if (selected != NULL) selected(info->internals, alpn, alpnLength);
    dlclose(process);
    return name;
}

static inline int ccurl_pause_continue(void) { return CURLPAUSE_CONT; }
static inline size_t ccurl_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline size_t ccurl_read_pause(void) { return CURL_READFUNC_PAUSE; }
static inline size_t ccurl_read_abort(void) { return CURL_READFUNC_ABORT; }
static inline int ccurl_error_size(void) { return CURL_ERROR_SIZE; }

#endif
