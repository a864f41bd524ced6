// mpi_bandwidth: the MPI bandwidth between ranks 0 and 1, one-way sends of host memory of 8, 128
// and 512 MB (a 4096 and an 8192 dgemm tile), median of 5 after one warm-up. bench/multi_gpu.sh runs
// it next to the distributed dpotrf: on one host, StarPU-MPI's tile transfers go no faster than this.
// Usage: mpirun -np 2 mpi_bandwidth   (prints "mpi one-way 512 MB: 8.07 GB/s"; exit 2 with one rank)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        std::fprintf(stderr, "mpi_bandwidth: needs 2 MPI ranks (mpirun -np 2)\n");
        MPI_Finalize();
        return 2;
    }
    for (const size_t mb : {8, 128, 512}) {
        const size_t bytes = mb << 20;
        std::vector<char> buf(bytes);
        std::memset(buf.data(), rank + 1, bytes);  // touched: no page faults in the timing
        std::vector<double> seconds;
        for (int r = 0; r < 6; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = MPI_Wtime();
            if (rank == 0) MPI_Send(buf.data(), int(bytes), MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            if (rank == 1) MPI_Recv(buf.data(), int(bytes), MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
            if (r > 0) seconds.push_back(MPI_Wtime() - t0);
        }
        std::sort(seconds.begin(), seconds.end());
        if (rank == 0) std::printf("mpi one-way %4zu MB: %.2f GB/s\n", mb, double(bytes) / seconds[seconds.size() / 2] * 1e-9);
    }
    MPI_Finalize();
    return 0;
}
