#!/bin/sh
# kill_rank.sh COMMAND...: runs COMMAND as this MPI rank; on rank 1, SIGKILL ends it 3 s in
# (test_mpi.killed_rank: the other ranks must end, with mpirun's message naming rank 1).
if [ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" = 1 ]; then
  (sleep 3; kill -9 $$) &
fi
exec "$@"
