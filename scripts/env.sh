# Sourced by the scripts: repository root and the Open MPI settings for root and oversubscription.
FLX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FLX_ROOT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1} # oversubscribed ranks yield the core while they wait
export PYTHON=/usr/bin/python3
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} # OpenBLAS (OpenMP) under MPI: one thread per rank
# parallel build jobs: every core this process may use (nproc obeys OMP_NUM_THREADS, so without it; affinity kept)
FLX_JOBS="$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)"
