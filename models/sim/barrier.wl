# barrier.wl: a global sense-reversing barrier (seed 000's G-SRB; seed
# 001's memory-flag global barrier): some work, an acq_rel increment of a
# counter, the last arrival resets it and releases the sense, the others
# spin on it with acquire loads.  Keeps: every warp of the GPU meeting at
# one counter, episodes of work in between.
workload barrier
kind barrier
episodes 4
work 16
scope gpu
