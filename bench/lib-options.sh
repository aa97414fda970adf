# shellcheck shell=bash
# What the benches that take only `--runs N` and `--out DIR` share: sourced, then
#   bench_options DEFAULT_RUNS "$@"    sets runs and out (out empty: a temporary folder)
#   bench_need TOOL...                 stops with one line when a tool is missing
die() { echo "bench: $*" >&2; exit 1; }

bench_options() {
  runs="$1" out=""
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
      --out) out="${2:?--out needs a folder}"; shift 2 ;;
      *) die "unknown option $1" ;;
    esac
  done
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs wants a positive number, not '$runs'"
}

bench_need() {
  local tool
  for tool in "$@"; do command -v "$tool" >/dev/null || die "missing $tool (bash scripts/setup.sh --test)"; done
}
