# litmus_mp.wl: a litmus test run in a loop (any test the tables were
# exported with): MP-stale-seed, message passing with a release store
# and an acquire load, 100 iterations; between iterations the first
# thread writes the initial values back and a kernel boundary separates
# them.
workload litmus_mp
kind litmus
test MP-stale-seed
iterations 100
copies 1
