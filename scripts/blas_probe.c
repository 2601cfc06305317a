// OpenBLAS at the bundled model's shapes: which kernels it picks and how fast they run
// (docs/startup.md, "On an Intel Xeon"). Needs no LibTorch, so it runs where AlignScope cannot
// be built: copy libopenblas.so.0 (with libgfortran.so.5 and libquadmath.so.0) beside it, then
//   gcc -O2 -o blas_probe scripts/blas_probe.c -ldl
//   LD_LIBRARY_PATH=. ./blas_probe [threads]              # OpenBLAS's own pick
//   OPENBLAS_CORETYPE=SkylakeX LD_LIBRARY_PATH=. ./blas_probe  # a kernel set forced
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
typedef void (*gemv_t)(int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
typedef void (*gemm_t)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char** argv) {
  void* h = dlopen("libopenblas.so.0", RTLD_NOW);
  if (!h) { printf("dlopen: %s\n", dlerror()); return 1; }
  char* (*corename)(void) = dlsym(h, "openblas_get_corename");
  char* (*config)(void) = dlsym(h, "openblas_get_config");
  void (*threads)(int) = dlsym(h, "openblas_set_num_threads");
  gemv_t gemv = (gemv_t)dlsym(h, "cblas_sgemv");
  gemm_t gemm = (gemm_t)dlsym(h, "cblas_sgemm");
  threads(argc > 1 ? atoi(argv[1]) : 1);
  printf("core %s | %s | threads %s\n", corename(), config(), argc > 1 ? argv[1] : "1");
  int shapes[][2] = {{11611, 256}, {1536, 768}, {1536, 512}, {256, 1280}};
  const char* names[] = {"projection", "gru-input", "gru-hidden", "readout"};
  int batches[] = {1, 16, 128};
  float* a = malloc(sizeof(float) * 11611 * 1280);
  float* x = malloc(sizeof(float) * 1280 * 128);
  float* y = malloc(sizeof(float) * 11611 * 128);
  for (long i = 0; i < 11611L * 1280; i++) a[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.5f;
  for (long i = 0; i < 1280L * 128; i++) x[i] = (float)((i * 31) % 100) / 100.0f;
  for (int s = 0; s < 4; s++) {
    int m = shapes[s][0], k = shapes[s][1];
    for (int b = 0; b < 3; b++) {
      int n = batches[b];
      int reps = 0; double t0 = now(), t;
      do {
        if (n == 1) gemv(101, 111, m, k, 1.0f, a, k, x, 1, 0.0f, y, 1);  // row-major, no transpose
        else gemm(101, 111, 112, n, m, k, 1.0f, x, k, a, k, 0.0f, y, m);  // X [n,k] W^T [k,m], as torch's linear
        reps++;
      } while ((t = now() - t0) < 0.25);
      printf("%-10s %5dx%-4d batch %3d: %8.1f us  %6.1f GFLOPS\n", names[s], m, k, n, 1e6 * t / reps, 2.0 * m * k * n * reps / t / 1e9);
    }
  }
  return 0;
}
