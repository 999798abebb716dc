# reuse.wl: inter-kernel read reuse (seed 002's cache-reuse: 10 kernels
# that read one read-only array and update another; seed 000's
# moderate-to-high inter-kernel reuse class).  Keeps: the same lines read
# in every kernel, a kernel boundary (release, launch, acquire) between
# kernels that self-invalidating caches pay for.
workload reuse
kind reuse
lines 64
writes 16
kernels 10
compute 4
boundary gpu
