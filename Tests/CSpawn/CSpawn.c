// Tests spawn the `yard` executable through posix_spawn: Foundation's Process.run() of Swift 6.3
// intermittently crashes on Linux (swift-corelibs-foundation pull request 5472).
#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

extern char **environ;

static int pipe_cloexec(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int cspawn_start(const char *path, char *const argv[], pid_t *pid, int *out_fd, int *err_fd) {
    int out[2], err[2];
    if (pipe_cloexec(out) != 0) return errno;
    if (pipe_cloexec(err) != 0) {
        int saved = errno;
        close(out[0]);
        close(out[1]);
        return saved;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
#ifdef __linux__
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#elif defined(__APPLE__)
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_CLOEXEC_DEFAULT);
    posix_spawn_file_actions_addinherit_np(&actions, 1);
    posix_spawn_file_actions_addinherit_np(&actions, 2);
#endif
    int result = posix_spawn(pid, path, &actions, &attributes, argv, environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    close(err[1]);
    if (result != 0) {
        close(out[0]);
        close(err[0]);
        return result;
    }
    *out_fd = out[0];
    *err_fd = err[0];
    return 0;
}
