# Sourced by the bench scripts that start compositors and clients: a scratch XDG_RUNTIME_DIR
# ($WORK) for their sockets, and, on exit, every process listed in PIDS killed and $WORK removed.
WORK=$(mktemp -d)
export XDG_RUNTIME_DIR=$WORK
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
