# Included by the -P scripts that need the mixed mode in a StarPU home of their own, fresh each run
# (profile_calibration.cmake, placement_prior.cmake): one CPU worker, PoCL's OpenCL device, dmdas,
# STARPU_HOME = ${HOME_DIR}, emptied first.
file(REMOVE_RECURSE "${HOME_DIR}")
file(MAKE_DIRECTORY "${HOME_DIR}")
set(ENV{STARPU_HOME} "${HOME_DIR}")
set(ENV{STARPU_SCHED} dmdas)
set(ENV{STARPU_OPENCL_ON_CPUS} 1)
set(ENV{STARPU_NOPENCL} 1)
set(ENV{STARPU_NCPU} 1)
set(ENV{STARPU_SILENT} 1)
