# Sourced by the other scripts: finds the CUDA toolkit and puts nvcc on PATH.
if [ -z "${CUDA_HOME:-}" ]; then
  if command -v nvcc >/dev/null; then
    CUDA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")"
  else
    for d in /usr/local/cuda /usr/local/cuda-13.0 /usr/local/cuda-12.9 /usr/local/cuda-12.8 /usr/local/cuda-12.6 /opt/cuda; do
      if [ -x "$d/bin/nvcc" ]; then CUDA_HOME="$d"; break; fi
    done
  fi
fi
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
case ":$PATH:" in *":$CUDA_HOME/bin:"*) ;; *) export PATH="$CUDA_HOME/bin:$PATH" ;; esac
