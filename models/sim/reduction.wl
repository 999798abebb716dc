# reduction.wl: a reduction (seed 000's Reduce, Dalmia ch. 4): each warp
# reads chunks of 16 lines and adds each chunk's sum into one global
# counter with a relaxed atomic.  Keeps: streaming reads, one contended
# atomic per chunk.
workload reduction
kind reduction
chunk 16
chunks 32
scope gpu
