# histogram.wl: atomic-heavy histogram (seed 000's H and HS micro
# benchmarks; the LAB chapter's device-scope atomics): relaxed gpu-scoped
# atomic adds to 256 bins, a quarter of them to one hot bin.  Keeps:
# atomics performed at the L2, contention on a few lines.
workload histogram
kind histogram
bins 256
updates 512
scope gpu
hot 25
