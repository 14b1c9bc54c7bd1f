#ifndef SWITCHYARD_CZSTD_SHIM_H
#define SWITCHYARD_CZSTD_SHIM_H
// The system zstd (libzstd-dev): `Content-Encoding: zstd` (RFC 8878) both ways.
#include <zstd.h>
#endif
