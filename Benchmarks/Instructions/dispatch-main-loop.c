// Preloaded into a Swift program run under valgrind (Benchmarks/instructions.sh).
//
// An async `main` ends in libdispatch's `dispatch_main`, which on Linux exits the main thread and parks
// it in `sigsuspend`; valgrind 3.19 stops with an internal error on that. This `dispatch_main` keeps the
// main thread and serves the main queue the way a run loop does: it waits on the queue's wake-up
// descriptor and drains the queue each time it fires. The program exits as usual, from its main task.
#include <poll.h>
#include <stdint.h>
#include <unistd.h>

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

void dispatch_main(void) {
    int wakeup = _dispatch_get_main_queue_handle_4CF();
    for (;;) {
        struct pollfd entry = {.fd = wakeup, .events = POLLIN};
        if (poll(&entry, 1, -1) < 0) continue;
        uint64_t count;
        (void)!read(wakeup, &count, sizeof count);
        _dispatch_main_queue_callback_4CF(0);
    }
}
