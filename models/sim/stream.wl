# stream.wl: streaming copy, no reuse (seed 002's vec-cpy, seed 000's
# BabelStream and Square): each warp reads its own lines of one array and
# writes another, once.  Keeps: one read and one write per line, no
# sharing, bandwidth-bound.
workload stream
kind stream
lines 256
kernels 1
compute 0
write 1
