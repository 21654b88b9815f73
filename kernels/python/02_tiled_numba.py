# 02_tiled_numba.py — kernels/02_tiled.cu in Numba, statement by statement, as the Python
# half of the tiling notebook writes it: C(M×N) = A(M×K) · B(K×N) with TILE×TILE shared tiles.
#
# TileScope shows it beside the CUDA C++ (Kernel source panel, "side by side"): each
# statement sits beside its twin, and the line the selected thread runs is marked in both
# (the twins are listed in sim/lesson/numba_source.cpp). The notebook writes the products as
# `total += As[ty, k] * Bs[k, tx]`; NVVM contracts that into the same fused multiply-add
# that cuda.fma spells out, in the same order, so both compute C bit for bit as 02_tiled.cu.
# Run it: python3 02_tiled_numba.py (needs numba and a CUDA GPU).
import numpy as np
from numba import cuda, float32

TILE = 16


@cuda.jit
def tiled_matmul(A, B, C, M, N, K):
    As = cuda.shared.array((TILE, TILE), dtype=float32)
    Bs = cuda.shared.array((TILE, TILE), dtype=float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * TILE + ty
    col = cuda.blockIdx.x * TILE + tx
    total = float32(0.0)
    num_tiles = (K + TILE - 1) // TILE
    for t in range(num_tiles):
        a_col = t * TILE + tx
        b_row = t * TILE + ty
        # Zero padding past the edges keeps the tail tile's products harmless.
        a = A[row, a_col] if row < M and a_col < K else float32(0.0)
        As[ty, tx] = a
        b = B[b_row, col] if b_row < K and col < N else float32(0.0)
        Bs[ty, tx] = b
        # 1st barrier: no thread may read As/Bs before every thread of the block stored its element.
        cuda.syncthreads()
        for k in range(TILE):
            total = cuda.fma(As[ty, k], Bs[k, tx], total)

        # 2nd barrier: fast threads must not refill the tiles while slow ones still read them.
        cuda.syncthreads()

    if row < M and col < N:
        C[row, col] = total


if __name__ == "__main__":
    m, n, k = 512, 512, 512
    a = np.random.rand(m, k).astype(np.float32)
    b = np.random.rand(k, n).astype(np.float32)
    c = np.zeros((m, n), dtype=np.float32)
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    tiled_matmul[grid, (TILE, TILE)](a, b, c, m, n, k)
    print("max error vs numpy:", float(np.abs(c - a @ b).max()))
