#ifndef SWITCHYARD_CBROTLI_SHIM_H
#define SWITCHYARD_CBROTLI_SHIM_H
// The system brotli (libbrotli-dev): the decoder for `Content-Encoding: br`, the encoder for the
// test server's fixtures and br request bodies.
#include <brotli/decode.h>
#include <brotli/encode.h>
#endif
