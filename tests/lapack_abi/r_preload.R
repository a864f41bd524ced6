# R (Debian's r-base-core, whose LAPACK module calls the system's liblapack.so.3) under
# LD_PRELOAD=libtessera_lapack.so with TESSERA_LAPACK_MIN_N=256, run by r_preload.sh, which checks
# the verbose lines: chol (xPOTRF), chol2inv (xPOTRI), solve (xGESV, real and complex), determinant
# (xGETRF) at n = 600, each result within LAPACK's residual bounds (ratio < 30, never an exact
# value); a singular matrix and a non-SPD one must still raise R's errors. Prints "r_preload: pass".
n <- 600
eps <- .Machine$double.eps
set.seed(2026)
a <- matrix(rnorm(n * n), n, n)
spd <- crossprod(a) + n * diag(n)
b <- matrix(rnorm(n * 3), n, 3)
one <- function(x) max(colSums(abs(x)))  # the 1-norm, complex entries by modulus
check <- function(name, ratio) {
  cat(sprintf("%-16s ratio %.3g\n", name, ratio))
  if (!is.finite(ratio) || ratio >= 30) stop(sprintf("%s: residual ratio %g is not below 30", name, ratio))
}
# A = R^T R (LAPACK's xPOTRF with uplo 'U'): ||R^T R - A||_1 / (n ||A||_1 eps)
r <- chol(spd)
check("chol", one(crossprod(r) - spd) / (n * one(spd) * eps))
# inv(A) from R (xPOTRI): ||A inv(A) - I||_1 / (n ||A||_1 ||inv(A)||_1 eps)
inv <- chol2inv(r)
check("chol2inv", one(spd %*% inv - diag(n)) / (n * one(spd) * one(inv) * eps))
# X = A^-1 B (xGESV): ||B - A X||_1 / (||A||_1 ||X||_1 n eps)
x <- solve(a, b)
check("solve", one(b - a %*% x) / (one(a) * one(x) * n * eps))
z <- a + 1i * matrix(rnorm(n * n), n, n)
zb <- b + 1i * matrix(rnorm(n * 3), n, 3)
zx <- solve(z, zb)
check("solve complex", one(zb - z %*% zx) / (one(z) * one(zx) * n * eps))
# log|det A| by LU (xGETRF) against 2 sum(log diag R) by Cholesky, both sums of n logarithms of
# pivots whose relative errors are O(n eps) on this well-conditioned A: |difference| / (n^2 eps)
ld <- determinant(spd, logarithm = TRUE)$modulus
check("determinant", abs(ld - 2 * sum(log(diag(r)))) / (n * n * eps))
singular <- a
singular[, n / 2] <- 0
bad <- spd
bad[n - 4, n - 4] <- -1
raises <- function(name, f) {
  msg <- tryCatch({ f(); "no error" }, error = function(e) conditionMessage(e))
  cat(sprintf("%-16s %s\n", name, msg))
  if (msg == "no error") stop(sprintf("%s: no error raised", name))
}
raises("singular solve", function() solve(singular, b))
raises("non-SPD chol", function() chol(bad))
cat("r_preload: pass\n")
