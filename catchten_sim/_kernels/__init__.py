"""numba kernels: arrays and ints in, arrays and ints out (DESIGN.md §3)."""
