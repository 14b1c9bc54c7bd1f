#ifndef SWITCHYARD_CMALLOC_SHIM_H
#define SWITCHYARD_CMALLOC_SHIM_H
#include <stddef.h>
#if defined(__has_include) && __has_include(<malloc.h>)
#include <malloc.h>
#endif

// The C library allocator's own figures, for the soak's memory readings (glibc 2.33 or later; elsewhere 0).
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))

// Bytes in chunks the program has allocated and not freed (small chunks plus mmapped ones): what a
// leak grows, unlike resident memory, which also holds freed chunks the allocator keeps.
static inline size_t cmalloc_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// Gives freed memory at the top of each arena and whole free pages back to the system.
static inline void cmalloc_release_free_memory(void) { malloc_trim(0); }
#else
static inline size_t cmalloc_bytes_in_use(void) { return 0; }
static inline void cmalloc_release_free_memory(void) {}
#endif
#endif
