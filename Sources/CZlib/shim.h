#ifndef SWITCHYARD_CZLIB_SHIM_H
#define SWITCHYARD_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro (it passes the library version and the struct size); Swift needs a function.
static inline int czlib_inflate_init(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

// deflateInit2 likewise; the test server uses it to build compressed bodies.
static inline int czlib_deflate_init(z_streamp stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 9, Z_DEFAULT_STRATEGY);
}
#endif
