# sharing.wl: multi-GPU inter-kernel communication (seed 004: most of
# Table III's benchmarks communicate between dependent kernels): every
# kernel, each warp reads a window of 64 lines, half of them in another
# GPU's memory, 4 times each, then writes 8 lines of its own GPU's
# partition that other GPUs read in the next kernel; kernels end with
# .sys release and begin with .sys acquire.  Keeps: remote reads with
# reuse within and across kernels, true sharing through the writes,
# system-scoped kernel boundaries.
workload sharing
kind sharing
kernels 6
window 64
reuse 4
remote 50
writes 8
boundary sys
