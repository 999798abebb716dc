# rsp_lock.wl: seed 003's asymmetric lock (notes 003 section 7.1, the
# paper's running example): each CU owns a lock that its own warps take
# often, with work-group-scoped atomics (the local modifier), and other
# CUs take rarely (the remote modifier: 5% of acquisitions go to another
# CU's lock, with remote forms: a remote acquire CAS and a remote release
# store).  The critical section reads and writes 4 lines of the lock's
# data; a failed CAS backs off exponentially from 32 cycles.
# Scenarios (scripts/experiments.sh, E4): as written for bRSP and sRSP;
# `owner_scope gpu` and `remote 0` for the baseline (every acquisition
# device-scoped: what a program without RSP must do).
# Keeps: the frequent-local / rare-remote asymmetry that RSP is for.
# Does not keep: a real application around the lock.
workload rsp_lock
kind lock
owned 1
owner_scope cta
scope gpu
remote 1
foreign 5
iterations 16
cs_lines 4
backoff 32
