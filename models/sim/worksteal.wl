# worksteal.wl: work stealing (seed 003's Pannotia graphs with 64 queues):
# a queue per CU, taken by its own warps with cta-scoped acq_rel atomics
# and by thieves with gpu-scoped ones (the remote acquire of scope
# promotion), every second queue twice as long.  Keeps: an asymmetric
# owner/thief pattern on queue heads, task data read and written.
workload worksteal
kind worksteal
tasks 16
task_lines 4
owner_scope cta
steal_scope gpu
imbalance 100
steal_tries 4
