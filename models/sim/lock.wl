# lock.wl: spin locks (seed 000's SpinSem with backoff; seed 002's
# fg-share: a critical section that updates a shared structure): CAS
# acquire with exponential backoff, 4 lines read and written inside, a
# release store.  Keeps: acquire at the atomic, release draining the
# writes, contention on 4 locks.
workload lock
kind lock
locks 4
iterations 4
cs_lines 4
scope gpu
backoff 64
