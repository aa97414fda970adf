# Shared by the benchmarks that need a local nginx: sourced, not run.
# bench_work NAME: a scratch folder $WORK (removed, with its nginx stopped, on exit).
# bench_binary: $LAUNCHAD, or a release build of it.
# nginx_head CONNECTIONS: the first lines of an nginx.conf living in $WORK, up to `http {`.
# A free loopback port is in $PORT.
bench_work() {
    WORK=${TMPDIR:-/tmp}/launchad-bench-$1-$$
    mkdir -p "$WORK/www" "$WORK/logs" "$WORK/tmp"
    trap '[ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null; rm -rf "$WORK"' EXIT
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
}

bench_binary() {
    if [ -z "${LAUNCHAD:-}" ]; then
        swift build -c release --product launchad >&2
        LAUNCHAD=$(swift build -c release --show-bin-path)/launchad
    fi
}

nginx_head() {
    [ "$(id -u)" = 0 ] && echo "user root;"
    cat <<CONF
worker_processes 1;
error_log $WORK/logs/error.log;
pid $WORK/nginx.pid;
events { worker_connections $1; }
http {
    client_body_temp_path $WORK/tmp/body; proxy_temp_path $WORK/tmp/proxy; fastcgi_temp_path $WORK/tmp/fcgi;
CONF
}
