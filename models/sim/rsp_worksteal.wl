# rsp_worksteal.wl: seed 003's work-stealing workloads (Pannotia graph
# kernels modified to steal, 64 queues; notes 003 section 11), for the
# sRSP / bRSP / baseline comparison (docs/EXPERIMENTS.md, E4).  A queue per
# CU, pre-filled (the paper's baseline enqueues nothing); every second
# queue twice as long (imbalance 100%), so half the CUs run dry and steal.
# A task reads 8 lines of its queue's read-mostly partition (32 lines: the
# graph data an L1 keeps across tasks unless an acquire invalidates it),
# reads and writes its own 2 lines, and computes 100 cycles.
# Scenarios (scripts/experiments.sh): the owner's dequeue at cta scope
# and the thieves' with remote forms (steal_remote 1) for bRSP and sRSP;
# `owner_scope gpu` and `steal_tries 0` for the baseline (global-scoped
# sync, no stealing), and the paper's steal-only and scope-only.
# Keeps: the asymmetric owner/thief pattern on queue heads, the cost of a
# wide-scope acquire (L1 invalidation) against the cached partition.
# Does not keep: real graphs, the Cederman-Tsigas deque (one atomic
# counter per queue stands for it), wavefronts of 64 work-items.
workload rsp_worksteal
kind worksteal
tasks 8
task_lines 2
reads 8
window 32
compute 100
owner_scope cta
steal_scope gpu
steal_remote 1
imbalance 100
steal_tries 4
