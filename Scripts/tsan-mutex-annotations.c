// Tells ThreadSanitizer about the Swift runtime's `Synchronization.Mutex` on Linux, for
// Scripts/sanitize.sh (built there and put in LD_PRELOAD; never part of notiplay).
//
// `Mutex.withLock` is inlined into the caller, so its fast path (an acquiring compare-exchange to
// lock, a releasing one to unlock) is compiled with the caller's instrumentation and ThreadSanitizer
// sees it. Under contention it calls `_MutexHandle._lockSlow` / `_unlockSlow` in
// libswiftSynchronization.so, which is not instrumented and hands the lock over inside the kernel
// (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI): the thread that gets the lock that way has no happens-before
// edge from the one that let it go, and every access made under the lock is reported as a race.
// These wrappers stand in for the three slow paths, call the real ones, and add the edge that the
// fast path has: acquire on the mutex's address after locking, release before unlocking. Nothing
// is hidden: an access made without the lock is still reported.
//
// The functions keep the Swift calling convention of the originals: `self` (the mutex's address)
// in the swiftself register, which clang's `swift_context` parameter attribute names.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

// From the ThreadSanitizer runtime linked into the sanitized program; absent (null) in any other
// program that inherits LD_PRELOAD, where the wrappers only pass the calls on.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef SWIFTCALL void (*LockSlow)(uint32_t, void *SWIFT_SELF);
typedef SWIFTCALL bool (*TryLockSlow)(void *SWIFT_SELF);
typedef SWIFTCALL void (*UnlockSlow)(void *SWIFT_SELF);

// The next definition of `name` after this library's: libswiftSynchronization.so's.
static void *original(const char *name, void **cache) {
    void *found = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (found == NULL) {
        found = dlsym(RTLD_NEXT, name);
        __atomic_store_n(cache, found, __ATOMIC_RELEASE);
    }
    return found;
}

SWIFTCALL void notiplay_tsan_lockSlow(uint32_t selfID, void *SWIFT_SELF mutex) __asm__(LOCK_SLOW);
SWIFTCALL void notiplay_tsan_lockSlow(uint32_t selfID, void *SWIFT_SELF mutex) {
    static void *cache;
    ((LockSlow)original(LOCK_SLOW, &cache))(selfID, mutex);
    if (__tsan_acquire) __tsan_acquire(mutex);
}

SWIFTCALL bool notiplay_tsan_tryLockSlow(void *SWIFT_SELF mutex) __asm__(TRY_LOCK_SLOW);
SWIFTCALL bool notiplay_tsan_tryLockSlow(void *SWIFT_SELF mutex) {
    static void *cache;
    bool locked = ((TryLockSlow)original(TRY_LOCK_SLOW, &cache))(mutex);
    if (locked && __tsan_acquire) __tsan_acquire(mutex);
    return locked;
}

SWIFTCALL void notiplay_tsan_unlockSlow(void *SWIFT_SELF mutex) __asm__(UNLOCK_SLOW);
SWIFTCALL void notiplay_tsan_unlockSlow(void *SWIFT_SELF mutex) {
    static void *cache;
    if (__tsan_release) __tsan_release(mutex);
    ((UnlockSlow)original(UNLOCK_SLOW, &cache))(mutex);
}
