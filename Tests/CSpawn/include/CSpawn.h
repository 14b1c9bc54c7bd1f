#ifndef CSPAWN_H
#define CSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` (NULL-terminated), its standard output and error connected to new
/// pipes whose read ends are returned in `out_fd` and `err_fd`, and every other descriptor of this
/// process closed in the child. Returns 0, or an errno value.
int cspawn_start(const char *path, char *const argv[], pid_t *pid, int *out_fd, int *err_fd);

#endif
